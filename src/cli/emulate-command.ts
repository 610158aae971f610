/**
 * `droidcheck emulate`: the embedded emulator alone, until interrupted, so people can point
 * their own clients (curl, k6, autocannon) at it. Thin wrapper over `startEmulatorStandalone`.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ConfigOf, ResolvedTelemetry } from '../config/index.js';
import type { StandaloneOptions } from '../emulator/index.js';
import { listenError, pathError } from '../os-errors.js';
import { commandConfig, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

/** The emulator's options with the listen address resolved (the table's defaults, src/defaults.ts). */
type EmulateOptions = StandaloneOptions & { host: string; port: number; telemetry?: ResolvedTelemetry };

async function readFlagFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw pathError(err, { flag, value: path }, 'read');
  }
}

/**
 * The emulator options of `emulate`'s configuration (the one resolution: its flags, and
 * DROID_API_TOKEN, DROID_WEBHOOK_SECRET, DROID_VERIFY_TOKEN of the environment or `.env`), with
 * the profile and fault profile files it names read and parsed. Throws UsageError, or
 * ScenarioError (file:line:col) for a bad profile or fault profile; exit 2.
 */
export async function emulateOptions(config: ConfigOf<'emulate'>): Promise<EmulateOptions> {
  const { profile, faults, ...resolved } = config;
  const { parseFaultProfileFile, parseProfile } = await import('../emulator/index.js');
  return {
    ...resolved,
    ...(profile !== undefined && { profile: parseProfile(await readFlagFile(profile, '--profile'), profile) }),
    ...(faults !== undefined && { faults: parseFaultProfileFile(await readFlagFile(faults, '--faults'), faults) }),
  };
}

export function registerEmulateCommand(program: Command, ctx: CliContext): void {
  optionCommand(program, 'emulate', 'run the embedded emulator of the whole service alone, until interrupted').action(
    async (_flags: unknown, cmd: Command) => {
      const options = await emulateOptions(await commandConfig('emulate', cmd, ctx));
      const { host } = options;
      const port = String(options.port);
      const tokenGenerated = options.token === undefined;
      // The user's --host/--port meet the OS here: a port in use is their mistake (exit 2).
      // The emulator's spans over OTLP when export is asked for (src/telemetry, loaded only then).
      const { telemetry, ...emulatorOptions } = options;
      const tracer = telemetry
        ? await (await import('../telemetry/index.js')).createEmulatorTracer(telemetry)
        : undefined;
      // The emulator loads when its command runs: program.ts registers every command in every run.
      const { startEmulatorStandalone } = await import('../emulator/index.js');
      const { url, emulator, close } = await startEmulatorStandalone({
        ...emulatorOptions,
        ...(tracer && { tracer }),
      }).catch((err: unknown) => {
        throw listenError(err, { flag: '--host', value: host }, { flag: '--port', value: port });
      });
      const out = (s: string): void => void ctx.stdout.write(`${s}\n`);
      out(`droidcheck emulator listening at ${url}`);
      out(`  droid id:       ${emulator.droidId}`);
      out(`  test customer:  ${emulator.testCustomerId ?? 'none'}`);
      out(`  endpoints:      ${url}/api/droids/${emulator.droidId}/endpoint/...`);
      out(`  debug page:     ${url}/droids/${emulator.droidId}/debug/webhooks`);
      if (tokenGenerated)
        out(`  token:          ${emulator.token}   (generated; export DROID_API_TOKEN to choose one)`);
      else out('  token:          (from --token / DROID_API_TOKEN)');
      out(
        `  webhook:        ${Array.isArray(options.webhookUrl) ? `${options.webhookUrl.length} URLs, taken in turn` : options.webhookUrl ? 'as given' : 'the echo receiver'}; change it with` +
          ` PUT ${url}/__emulator/webhook {"url": "...", "secret": "..."} (bearer token required)`,
      );
      out(
        `  messages:       ${options.messageWebhookUrl ? `forwarded to ${options.messageWebhookUrl}${options.verifyToken ? ' (with verify_token)' : ''}` : 'not forwarded'}; change it with` +
          ` PUT ${url}/__emulator/message-webhook {"url": "...", "verifyToken": "..."}`,
      );
      const knee = options.degradeAbove ?? (typeof options.profile === 'object' ? options.profile.degradeAbove : null);
      if (knee !== null && knee !== undefined)
        out(
          `  planted knee:   above ${knee} answers in progress, answers degrade to a generic apology (no cart, no intent), on time`,
        );
      out('Press Ctrl+C to stop.');
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      await close();
      out('droidcheck emulator stopped');
    },
  );
}
