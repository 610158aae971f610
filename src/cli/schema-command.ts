/**
 * `droidcheck schema [--report]`: prints a JSON Schema (draft 2020-12) generated from the zod
 * schemas: of the scenario format (default; for editors: save it and add
 * `# yaml-language-server: $schema=./droidcheck.schema.json` to a suite, README), or with
 * `--report` of `report.json` (shipped as `report.schema.json`). Thin wrapper over `jsonSchema`
 * (src/jobs/schema.ts, exported from the package).
 */
import type { Command } from 'commander';
import { jsonSchema } from '../jobs/schema.js';
import type { CliContext } from './shared.js';

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the scenario format (for the YAML language server), or of report.json')
    .option('--report', 'the schema of report.json instead')
    .action((flags: { report?: boolean }) => {
      const schema = jsonSchema(flags.report ? 'report' : 'scenario');
      ctx.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    });
}
