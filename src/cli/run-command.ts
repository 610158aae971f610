/** `droidcheck run [paths...]`: thin wrapper over `run()` (src/jobs/run/run.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { run } from '../jobs/index.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerRunCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'run',
    'run scenario suites against the embedded emulator (default) or a real service',
    true,
  ).action(jobAction('run', ctx, run));
}
