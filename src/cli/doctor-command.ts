/**
 * `droidcheck doctor`: thin wrapper over `doctor()` (src/jobs/doctor.ts). Prints the checklist
 * on stdout and exits 0 (nothing failed) or 2 (a check failed, each with its fix).
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, fileFlags, loadConfigFile, resolveDoctorConfig, withDotenv, type DoctorFlags } from '../config/index.js';
import { doctor, renderDoctorReport } from '../jobs/index.js';
import { explicitOptions, withInterrupts, type CliContext } from './shared.js';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check a target step by step (reachable, JSON, token, droid, test customer, answer webhook, secrets, clock, network) and print the fix for each failure; exit 0 or 2')
    .option('--base-url <url>', 'real service base URL (env DROID_BASE_URL); token from DROID_API_TOKEN (default: the embedded emulator)')
    .option('--droid-id <id>', 'droid id of the real service (env DROID_ID)')
    .option('--round-trip', 'also send one real async request (one AI answer) and wait for its webhook on the receiver')
    .option('--receiver-host <host>', 'address the webhook receiver binds to (default: 127.0.0.1)')
    .option('--receiver-port <port>', 'port of the webhook receiver (default: 0, any free port)')
    .option('--public-url <url>', 'public webhook URL when a tunnel is in front of the receiver (the URL configured in the service)')
    .option('-t, --timeout <duration>', 'how long --round-trip waits for the webhook, with its unit (default: 180s)')
    .option('--message-webhook-check <duration>', '--round-trip also waits this long for any forwarded message on the receiver\'s /messages (default: 15s)')
    .option('--max-clock-skew <duration>', "warn when the service's clock is further off than this (default: 5s)")
    .option('--config <file>', `config file of default flags (default: ./${DEFAULT_CONFIG_FILE} when present)`)
    .action(async (_flags: unknown, cmd: Command) => {
      const explicit = explicitOptions<DoctorFlags & { config?: string }>(cmd);
      const { config: configPath, ...flags } = explicit;
      const file = await loadConfigFile(configPath ?? DEFAULT_CONFIG_FILE, configPath !== undefined);
      const env = withDotenv(ctx.env);
      const config = resolveDoctorConfig(flags, env, fileFlags(file, 'run'));
      await withInterrupts(ctx, 0, async ({ stopSignal }) => {
        const result = await doctor(config, { stderr: ctx.stderr, signal: stopSignal, env });
        ctx.stdout.write(renderDoctorReport(result));
        return { exitCode: result.exitCode };
      });
    });
}
