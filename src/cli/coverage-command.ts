/**
 * `droidcheck coverage REPORT [--scenarios FILE] [--policy FILE]`: thin wrapper over
 * `coverageGaps` (src/jobs/reports/coverage.ts, exported from the package); options from the
 * table (config/options.ts) through the one resolution (`commandConfig`). Prints what the
 * report's run covered (products, funnel, intents, rules, endpoints) and, with `--scenarios`,
 * writes the scenario table that covers the products it never covered. Sends nothing; exit 0, or
 * 2 for a file that is unreadable or not a report, a report without coverage, no policy to price
 * the rows, or a file in the way (docs/coverage.md).
 */
import type { Command } from 'commander';
import { coverageGaps } from '../jobs/index.js';
import { checkWritableFile } from './flag-values.js';
import { commandConfig, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerCoverageCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'coverage',
    "say what a report's run covered (products, funnel, intents, rules, endpoints); with --scenarios, write the scenario table that covers the products it missed",
  )
    .argument('<report>', 'the report.json a run wrote')
    .action(async (report: string, _flags: unknown, cmd: Command) => {
      const config = await commandConfig('coverage', cmd, ctx);
      if (config.scenarios !== undefined) await checkWritableFile(config.scenarios, '--scenarios');
      const result = await coverageGaps(report, { ...config, color: ctx.color });
      ctx.stdout.write(result.text);
      ctx.exitCode = result.exitCode;
    });
}
