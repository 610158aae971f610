/**
 * `droidcheck schema [--report | --config]`: prints a JSON Schema (draft 2020-12) generated from
 * the zod schemas: of the scenario format (default; for editors: save it and add
 * `# yaml-language-server: $schema=./droidcheck.schema.json` to a suite, README), with
 * `--report` of `report.json` (shipped as `report.schema.json`), with `--config` of
 * droidcheck.config.yaml (shipped as `droidcheck.config.schema.json`, derived from the table of
 * options; `droidcheck init` writes it). Thin wrapper over `jsonSchema` (src/jobs/schema.ts,
 * exported from the package) and config's `configJsonSchema`.
 */
import type { Command } from 'commander';
import { configJsonSchema } from '../config/index.js';
import { UsageError } from '../errors.js';
import { jsonSchema } from '../jobs/schema.js';
import type { CliContext } from './shared.js';

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  program
    .command('schema')
    .description(
      'print the JSON Schema of the scenario format (for the YAML language server), of report.json or of the config file',
    )
    .option('--report', 'the schema of report.json instead')
    .option('--config', 'the schema of droidcheck.config.yaml instead')
    .action((flags: { report?: boolean; config?: boolean }) => {
      if (flags.report && flags.config) throw new UsageError('give either --report or --config, not both');
      const schema = flags.config ? configJsonSchema() : jsonSchema(flags.report ? 'report' : 'scenario');
      ctx.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    });
}
