/** `droidcheck run [paths...]`: thin wrapper over `run()` (src/jobs/run.ts). */
import type { Command } from 'commander';
import { run } from '../jobs/index.js';
import { addJobOptions, jobConfig } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerRunCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('run scenario suites against the embedded emulator (default) or a real service')
    .argument('[paths...]', 'scenario files or directories (default: scenarios)')
    .option('-c, --concurrency <n>', 'requests in flight at most, closed model (default: 8)')
    .option('--shard <i/n>', 'run only shard i of n (deterministic split of the scenarios), e.g. 1/3')
    .option('--baseline <file>', 'compare with this report.json; exit 1 on a regression')
    .option('--fail-on-flaky', 'a flaky scenario (passed some repeats, failed others) fails the run');
  addJobOptions(command).action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('run', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) => run(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }));
  });
}
