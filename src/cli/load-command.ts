/** `droidcheck load [paths...]`: thin wrapper over `runLoad()` (src/jobs/load/load.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { runLoad } from '../jobs/index.js';
import { tuneHeapForPendingRequests } from '../v8-flags.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerLoadCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'load',
    'load test: open model (--rate or --stages, arrival rate) or closed model (--concurrency)',
    true,
  ).action(
    jobAction('load', ctx, (config, io) => {
      // An open model holds every request until its answer: V8's heap sized for that (v8-flags.ts).
      if (config.load.model.kind === 'open') tuneHeapForPendingRequests();
      return runLoad(config, io);
    }),
  );
}
