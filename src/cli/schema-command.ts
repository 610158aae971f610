/**
 * `droidcheck schema [--report | --config]`: prints a JSON Schema (draft 2020-12) generated from
 * the zod schemas: of the scenario format (default; for editors: save it and add
 * `# yaml-language-server: $schema=./droidcheck.schema.json` to a suite, README), with
 * `--report` of `report.json` (shipped as `report.schema.json`), with `--config` of
 * droidcheck.config.yaml (shipped as `droidcheck.config.schema.json`, derived from the table of
 * options; `droidcheck init` writes it), with `--policy` of droidcheck.policy.yaml (shipped as
 * `droidcheck.policy.schema.json`; `droidcheck init` writes it too). Thin wrapper over `jsonSchema` (src/jobs/suites/schema.ts,
 * exported from the package).
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { jsonSchema } from '../jobs/suites/schema.js';
import type { CliContext } from './shared.js';

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  program
    .command('schema')
    .description(
      'print the JSON Schema of the scenario format (for the YAML language server), of report.json, of the config file or of the shop policy file',
    )
    .option('--report', 'the schema of report.json instead')
    .option('--config', 'the schema of droidcheck.config.yaml instead')
    .option('--policy', 'the schema of droidcheck.policy.yaml (the shop policy) instead')
    .action((flags: { report?: boolean; config?: boolean; policy?: boolean }) => {
      const given = (['report', 'config', 'policy'] as const).filter((f) => flags[f]);
      if (given.length > 1)
        throw new UsageError(
          `give one of --report, --config or --policy, not ${given.map((f) => `--${f}`).join(' and ')}`,
        );
      ctx.stdout.write(`${JSON.stringify(jsonSchema(given[0] ?? 'scenario'), null, 2)}\n`);
    });
}
