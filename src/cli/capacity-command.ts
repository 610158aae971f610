/** `droidcheck capacity [paths...]`: thin wrapper over `runCapacity()` (src/jobs/capacity.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { runCapacity } from '../jobs/index.js';
import { addOptions, jobConfig } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerCapacityCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('capacity')
    .description(
      'find the highest arrival rate at which ack p99 (and optionally answer p99) stays under its limit, with no arrival dropped',
    )
    .argument('[paths...]', 'scenario files or directories (default: scenarios)');
  addOptions(command, 'capacity').action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('capacity', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) =>
      runCapacity(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }),
    );
  });
}
