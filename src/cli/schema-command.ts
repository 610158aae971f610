/**
 * `droidcheck schema`: prints the JSON Schema (draft 2020-12) of the scenario format, generated
 * from the zod schema (`exportScenarioJsonSchema`), for editors: save it and add
 * `# yaml-language-server: $schema=./droidcheck.schema.json` to a suite (README).
 */
import type { Command } from 'commander';
import { exportScenarioJsonSchema } from '../scenario/index.js';
import type { CliContext } from './shared.js';

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the scenario format (for the YAML language server)')
    .action(() => {
      ctx.stdout.write(`${JSON.stringify(exportScenarioJsonSchema(), null, 2)}\n`);
    });
}
