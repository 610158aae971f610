/**
 * `droidcheck emulate`: the embedded emulator alone, until interrupted, so people can point
 * their own clients (curl, k6, autocannon) at it. Thin wrapper over `startEmulatorStandalone`.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { resolveOptions, type TableFlags } from '../config/index.js';
import {
  parseFaultProfileFile,
  parseProfile,
  startEmulatorStandalone,
  type StandaloneOptions,
} from '../emulator/index.js';
import { listenError, pathError } from '../os-errors.js';
import { addOptions } from './job-options.js';
import type { CliContext } from './shared.js';

/** What the user gave `emulate` (the table's keys, config/options.ts), as commander holds them. */
export type EmulateFlags = Pick<
  TableFlags,
  | 'profile'
  | 'faults'
  | 'host'
  | 'port'
  | 'droidId'
  | 'token'
  | 'testCustomerId'
  | 'webhookUrl'
  | 'webhookSecret'
  | 'messageWebhookUrl'
  | 'verifyToken'
  | 'seed'
  | 'ackDelay'
  | 'answerDelay'
  | 'rateLimit'
  | 'webhookAttempts'
  | 'webhookBackoff'
  | 'webhookTimeout'
  | 'webhookJitter'
>;

async function readFlagFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw pathError(err, { flag, value: path }, 'read');
  }
}

/**
 * Maps flags (and DROID_API_TOKEN, DROID_WEBHOOK_SECRET, DROID_VERIFY_TOKEN of `env`) to emulator
 * options, every value through the table's parser. Throws UsageError, or ScenarioError
 * (file:line:col) for a bad profile or fault profile; exit 2.
 */
export async function emulateOptions(flags: EmulateFlags, env: NodeJS.ProcessEnv): Promise<StandaloneOptions> {
  const { values: v } = resolveOptions('emulate', flags, env, {});
  const options: StandaloneOptions = { host: v.host, port: v.port, seed: v.seed };
  if (v.profile !== undefined) options.profile = parseProfile(await readFlagFile(v.profile, '--profile'), v.profile);
  if (v.faults !== undefined)
    options.faults = parseFaultProfileFile(await readFlagFile(v.faults, '--faults'), v.faults);
  if (v.droidId !== undefined) options.droidId = Number(v.droidId);
  if (v.token !== undefined) options.token = v.token;
  if (v.testCustomerId !== undefined) options.testCustomerId = v.testCustomerId;
  // Several answer-webhook URLs stand in for a load balancer: deliveries take them in turn.
  if (v.webhookUrl.length > 0) options.webhookUrl = v.webhookUrl.length === 1 ? v.webhookUrl[0]! : v.webhookUrl;
  if (v.webhookSecret !== undefined) options.webhookSecret = v.webhookSecret;
  if (v.messageWebhookUrl !== undefined) options.messageWebhookUrl = v.messageWebhookUrl;
  if (v.verifyToken !== undefined) options.verifyToken = v.verifyToken;
  if (v.ackDelay !== undefined) options.ackDelayMs = v.ackDelay;
  if (v.answerDelay !== undefined) options.answerDelayMs = v.answerDelay;
  if (v.rateLimit !== undefined) options.rateLimit = { max: v.rateLimit };
  // The retry policy (defaults from the table, the emulator's own): webhook-policy measures it.
  options.delivery = {
    attempts: v.webhookAttempts,
    backoffMs: v.webhookBackoff,
    timeoutMs: v.webhookTimeout,
    jitter: v.webhookJitter,
  };
  return options;
}

export function registerEmulateCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('emulate')
    .description('run the embedded emulator of the whole service alone, until interrupted');
  addOptions(command, 'emulate').action(async (flags: EmulateFlags) => {
    const options = await emulateOptions(flags, ctx.env);
    const host = options.host ?? '127.0.0.1';
    const port = String(options.port);
    const tokenGenerated = options.token === undefined;
    // The user's --host/--port meet the OS here: a port in use is their mistake (exit 2).
    const { url, emulator, close } = await startEmulatorStandalone(options).catch((err: unknown) => {
      throw listenError(err, { flag: '--host', value: host }, { flag: '--port', value: port });
    });
    const out = (s: string): void => void ctx.stdout.write(`${s}\n`);
    out(`droidcheck emulator listening at ${url}`);
    out(`  droid id:       ${emulator.droidId}`);
    out(`  test customer:  ${emulator.testCustomerId ?? 'none'}`);
    out(`  endpoints:      ${url}/api/droids/${emulator.droidId}/endpoint/...`);
    out(`  debug page:     ${url}/droids/${emulator.droidId}/debug/webhooks`);
    if (tokenGenerated) out(`  token:          ${emulator.token}   (generated; export DROID_API_TOKEN to choose one)`);
    else out('  token:          (from --token / DROID_API_TOKEN)');
    out(
      `  webhook:        ${Array.isArray(options.webhookUrl) ? `${options.webhookUrl.length} URLs, taken in turn` : options.webhookUrl ? 'as given' : 'the echo receiver'}; change it with` +
        ` PUT ${url}/__emulator/webhook {"url": "...", "secret": "..."} (bearer token required)`,
    );
    out(
      `  messages:       ${options.messageWebhookUrl ? `forwarded to ${options.messageWebhookUrl}${options.verifyToken ? ' (with verify_token)' : ''}` : 'not forwarded'}; change it with` +
        ` PUT ${url}/__emulator/message-webhook {"url": "...", "verifyToken": "..."}`,
    );
    out('Press Ctrl+C to stop.');
    await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
    await close();
    out('droidcheck emulator stopped');
  });
}
