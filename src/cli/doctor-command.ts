/**
 * `droidcheck doctor`: thin wrapper over `doctor()` (src/jobs/doctor/doctor.ts). Prints the checklist
 * on stdout and exits 0 (nothing failed) or 2 (a check failed, each with its fix).
 */
import type { Command } from 'commander';
import { resolveDoctorConfig, withDotenv } from '../config/index.js';
import { doctor, renderDoctorReport } from '../jobs/index.js';
import { optionCommand, doctorFlags } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'doctor',
    'check a target step by step (reachable, JSON, token, droid, test customer, answer webhook, secrets, clock, network) and print the fix for each failure; exit 0 or 2',
  ).action(async (_flags: unknown, cmd: Command) => {
    const { flags, file } = await doctorFlags(cmd);
    const env = withDotenv(ctx.env);
    const config = resolveDoctorConfig(flags, env, file);
    await withInterrupts(ctx, 0, async ({ stopSignal }) => {
      const result = await doctor(config, { stderr: ctx.stderr, signal: stopSignal, env });
      ctx.stdout.write(renderDoctorReport(result));
      return { exitCode: result.exitCode };
    });
  });
}
