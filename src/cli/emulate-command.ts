/**
 * `droidcheck emulate`: the embedded emulator alone, until interrupted, so people can point
 * their own clients (curl, k6, autocannon) at it. Thin wrapper over `startEmulatorStandalone`.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parseDuration, parseUrl } from '../config/index.js';
import { startEmulatorStandalone, type StandaloneOptions } from '../emulator/index.js';
import { UsageError } from '../errors.js';
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

function int(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag}: "${value}" must be an integer >= ${min}`);
  return n;
}

async function readFlagFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Maps flags to emulator options. Throws UsageError (exit 2). */
export async function emulateOptions(flags: EmulateFlags, env: NodeJS.ProcessEnv): Promise<StandaloneOptions> {
  const options: StandaloneOptions = {
    host: flags.host,
    port: int(flags.port, '--port', 0),
    seed: int(flags.seed, '--seed', 0),
  };
  if (flags.profile) options.profile = flags.profile;
  if (flags.faults) options.faults = await readFlagFile(flags.faults, '--faults');
  if (flags.droidId) options.droidId = int(flags.droidId, '--droid-id', 1);
  const token = flags.token ?? env.DROID_API_TOKEN;
  if (token) options.token = token;
  if (flags.testCustomerId) options.testCustomerId = flags.testCustomerId === 'none' ? null : int(flags.testCustomerId, '--test-customer-id', 1);
  // Several answer-webhook URLs stand in for a load balancer: deliveries take them in turn.
  const webhookUrls = [flags.webhookUrl ?? []].flat().map((u) => parseUrl(u, '--webhook-url'));
  if (webhookUrls.length > 0) options.webhookUrl = webhookUrls.length === 1 ? webhookUrls[0]! : webhookUrls;
  const secret = flags.webhookSecret ?? env.DROID_WEBHOOK_SECRET;
  if (secret) options.webhookSecret = secret;
  if (flags.messageWebhookUrl) options.messageWebhookUrl = parseUrl(flags.messageWebhookUrl, '--message-webhook-url');
  const verifyToken = flags.verifyToken ?? env.DROID_VERIFY_TOKEN;
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
      const { url, emulator, close } = await startEmulatorStandalone(options);
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
