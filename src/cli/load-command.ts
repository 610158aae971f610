/** `droidcheck load [paths...]`: thin wrapper over `runLoad()` (src/jobs/load.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { runLoad } from '../jobs/index.js';
import { addOptions, jobConfig } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerLoadCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('load')
    .description('load test: open model (--rate or --stages, arrival rate) or closed model (--concurrency)')
    .argument('[paths...]', 'scenario files or directories (default: scenarios)');
  addOptions(command, 'load').action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('load', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) =>
      runLoad(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }),
    );
  });
}
