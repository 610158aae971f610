/**
 * `droidcheck emulate`: the embedded emulator alone, until interrupted, so people can point
 * their own clients (curl, k6, autocannon) at it. Thin wrapper over `startEmulatorStandalone`.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MIN_SECRET_CHARS, parseDuration, parseInteger, parseUrl } from '../config/index.js';
import { parseFaultProfileFile, parseProfile, startEmulatorStandalone, type StandaloneOptions } from '../emulator/index.js';
import { UsageError } from '../errors.js';
import { listenError, pathError } from '../os-errors.js';
import { collect, type CliContext } from './shared.js';

interface EmulateFlags {
  profile?: string;
  faults?: string;
  host: string;
  port: string;
  droidId?: string;
  token?: string;
  testCustomerId?: string;
  /** Repeatable: several URLs are taken in turn. */
  webhookUrl?: string | string[];
  webhookSecret?: string;
  messageWebhookUrl?: string;
  verifyToken?: string;
  seed: string;
  ackDelay?: string;
  answerDelay?: string;
  rateLimit?: string;
}

function int(value: string, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return parseInteger(value, flag, min, max);
}

async function readFlagFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw pathError(err, { flag, value: path }, 'read');
  }
}

/** A token or secret from a flag or the environment: at least MIN_SECRET_CHARS characters. */
function secret(flagValue: string | undefined, flag: string, env: NodeJS.ProcessEnv, variable: string): string | undefined {
  const value = flagValue ?? (env[variable] || undefined);
  if (value !== undefined && value.length < MIN_SECRET_CHARS) {
    const source = flagValue !== undefined ? flag : variable;
    throw new UsageError(`${source}: ${value.length} characters long; use at least ${MIN_SECRET_CHARS} (32 random characters advised: openssl rand -base64 32)`);
  }
  return value;
}

/** Maps flags to emulator options. Throws UsageError, or ScenarioError (file:line:col) for a bad profile or fault profile; exit 2. */
export async function emulateOptions(flags: EmulateFlags, env: NodeJS.ProcessEnv): Promise<StandaloneOptions> {
  const options: StandaloneOptions = {
    host: flags.host,
    port: int(flags.port, '--port', 0, 65_535),
    seed: int(flags.seed, '--seed', 0),
  };
  if (flags.profile) options.profile = parseProfile(await readFlagFile(flags.profile, '--profile'), flags.profile);
  if (flags.faults) options.faults = parseFaultProfileFile(await readFlagFile(flags.faults, '--faults'), flags.faults);
  if (flags.droidId) options.droidId = int(flags.droidId, '--droid-id', 1);
  const token = secret(flags.token, '--token', env, 'DROID_API_TOKEN');
  if (token) options.token = token;
  if (flags.testCustomerId) options.testCustomerId = flags.testCustomerId === 'none' ? null : int(flags.testCustomerId, '--test-customer-id', 1);
  // Several answer-webhook URLs stand in for a load balancer: deliveries take them in turn.
  const webhookUrls = [flags.webhookUrl ?? []].flat().map((u) => parseUrl(u, '--webhook-url'));
  if (webhookUrls.length > 0) options.webhookUrl = webhookUrls.length === 1 ? webhookUrls[0]! : webhookUrls;
  const webhookSecret = secret(flags.webhookSecret, '--webhook-secret', env, 'DROID_WEBHOOK_SECRET');
  if (webhookSecret) options.webhookSecret = webhookSecret;
  if (flags.messageWebhookUrl) options.messageWebhookUrl = parseUrl(flags.messageWebhookUrl, '--message-webhook-url');
  const verifyToken = secret(flags.verifyToken, '--verify-token', env, 'DROID_VERIFY_TOKEN');
  if (verifyToken) options.verifyToken = verifyToken;
  if (flags.ackDelay) options.ackDelayMs = parseDuration(flags.ackDelay, '--ack-delay');
  if (flags.answerDelay) options.answerDelayMs = parseDuration(flags.answerDelay, '--answer-delay');
  if (flags.rateLimit) options.rateLimit = { max: int(flags.rateLimit, '--rate-limit', 1) };
  return options;
}

export function registerEmulateCommand(program: Command, ctx: CliContext): void {
  program
    .command('emulate')
    .description('run the embedded emulator of the whole service alone, until interrupted')
    .option('--profile <file>', 'emulator profile YAML (droid, customers, channels, catalogue)')
    .option('--faults <file>', 'fault profile YAML (delays, errors, webhook faults)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', '0')
    .option('--droid-id <n>', 'droid id (default: the profile\'s)')
    .option('--token <token>', 'bearer token (default: DROID_API_TOKEN, else generated and printed)')
    .option('--test-customer-id <n>', 'the droid\'s test customer, or "none"')
    .option('--webhook-url <url>', 'answer webhook URL, repeatable: several are taken in turn, like a load balancer (default: the emulator\'s own echo receiver)', collect, [])
    .option('--webhook-secret <secret>', 'webhook secret appended as ?secret= (default: DROID_WEBHOOK_SECRET)')
    .option('--message-webhook-url <url>', 'message-forwarding webhook: every stored message (send, bot replies) is POSTed here')
    .option('--verify-token <token>', 'message webhook verify token appended as ?verify_token= (default: DROID_VERIFY_TOKEN)')
    .option('--seed <n>', 'seed of every random draw (faults, jitter)', '1')
    .option('--ack-delay <duration>', 'delay before the async acknowledgement, e.g. 20ms')
    .option('--answer-delay <duration>', 'delay before the answer, e.g. 2s')
    .option('--rate-limit <n>', 'requests per second per token before 429')
    .action(async (flags: EmulateFlags) => {
      const options = await emulateOptions(flags, ctx.env);
      const tokenGenerated = options.token === undefined;
      // The user's --host/--port meet the OS here: a port in use is their mistake (exit 2).
      const { url, emulator, close } = await startEmulatorStandalone(options).catch((err: unknown) => {
        throw listenError(err, { flag: '--host', value: flags.host }, { flag: '--port', value: flags.port });
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
