/** `droidcheck capacity [paths...]`: thin wrapper over `runCapacity()` (src/jobs/load/capacity.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { runCapacity } from '../jobs/index.js';
import { tuneHeapForPendingRequests } from '../v8-flags.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerCapacityCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'capacity',
    'find the highest arrival rate at which ack p99 (and optionally answer p99) stays under its limit, with no arrival dropped',
    true,
  ).action(
    jobAction('capacity', ctx, (config, io) => {
      // Every step is an open model, holding each request until its answer (v8-flags.ts).
      tuneHeapForPendingRequests();
      return runCapacity(config, io);
    }),
  );
}
