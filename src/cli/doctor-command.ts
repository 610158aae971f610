/**
 * `droidcheck doctor`: thin wrapper over `doctor()` (src/jobs/doctor/doctor.ts), which prints the
 * checklist on stdout; exit 0 (nothing failed) or 2 (a check failed, each with its fix).
 */
import type { Command } from 'commander';
import { doctor } from '../jobs/index.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'doctor',
    'check a target step by step (reachable, JSON, token, droid, test customer, answer webhook, secrets, clock, network) and print the fix for each failure; exit 0 or 2',
  ).action(jobAction('doctor', ctx, doctor));
}
