/**
 * What a job says about its target (pipeline.ts step 3 and its set-up stop): where the target
 * is and what the service must be configured with, the warm-up and the network round trip
 * measured once it is open; and the one line of a set-up failure, naming what to fix.
 */
import { formatMs } from '../../units.js';
import { warmUpConnections, type SetupFailure } from '../../runner/index.js';
import type { Suite } from '../../scenario/index.js';
import type { JobConfig } from './job-spec.js';
import { measureRoundTrip, type NetworkEstimate } from './network.js';
import { waitsForReply } from './pre-send.js';
import type { Target } from './target.js';

/** The one line of a set-up failure: what every request got, and what to fix. */
export function setupMessage(f: SetupFailure, target: Target, config: Pick<JobConfig, 'target'>): string {
  const where =
    config.target.kind === 'remote'
      ? `${target.baseUrl} (droid ${config.target.droidId})`
      : `the embedded emulator at ${target.baseUrl}`;
  const [kind, detail] = f.signature.split(':');
  if (f.partial) return f.error.message; // the sentence of the receiver or the watch (runner/) says it all
  // Its record already says the whole of it: the URL to configure and the setting.
  if (kind === 'no-delivery')
    return `the first ${f.records} async answer${f.records === 1 ? '' : 's'} from ${where} passed the deadline: ${f.error.message.replace(/^no webhook for \S+ within/, 'no webhook within')}`;
  let fix = 'check the target and its configuration (droidcheck doctor checks each step)';
  if (kind === 'rejected' && detail === '401')
    fix = 'the token was refused: check DROID_API_TOKEN (a regenerated token invalidates the old one)';
  else if (kind === 'rejected' && detail === '403')
    fix = 'access denied: check --droid-id and that the token may read this droid and its customers';
  else if (kind === 'rejected' && (detail === '404' || detail === '405'))
    fix = 'no such route: check --base-url (the service root, without /api/droids/...)';
  else if (kind === 'rejected' && detail === '400')
    fix = 'the service refused the request: check its settings (answer webhook URL, test customer) as the message says';
  else if (kind === 'transport')
    fix = `no connection (${detail}): check --base-url, the host and port, and that the service is up`;
  else if (kind === 'invalid-response')
    fix =
      'the target answered with something that is not JSON (an HTML page?): check --base-url points at the service API';
  const status = f.httpStatus !== undefined ? ` (HTTP ${f.httpStatus})` : '';
  return `every request to ${where} failed the same way${status} before any was answered (${f.records} request${f.records === 1 ? '' : 's'}): ${f.error.message}; ${fix}`;
}

/** Once the target is open: say where it is and what it needs, warm up, measure a remote target's round trip. */
export async function announceTarget(
  config: JobConfig,
  target: Target,
  suites: readonly Suite[],
  signal: AbortSignal | undefined,
  log: (line: string) => void,
): Promise<NetworkEstimate | undefined> {
  if (config.target.kind === 'remote') {
    log(`droidcheck: target ${target.baseUrl} (droid ${config.target.droidId})`);
    if (target.deliveries)
      log(
        `droidcheck: deliveries from stream ${target.deliveries.stream} at ${target.deliveries.redis} (shard ${target.deliveries.shardId}); the service's webhooks must point at \`droidcheck receive\``,
      );
    else log(`droidcheck: configure the service's answer webhook URL as ${target.webhookUrl}`);
    const waiting = suites.flatMap((s) => s.scenarios).filter(waitsForReply).length;
    if (waiting > 0) {
      const where = target.deliveries
        ? "`droidcheck receive`'s /messages"
        : (target.messagesUrl ?? '/messages of the receiver');
      log(
        `droidcheck: ${waiting} scenario(s) wait for the bot's reply (waitForReply, noReplyWithin): the service's message webhook must point at ${where}${config.verifyToken === null ? ' (set DROID_VERIFY_TOKEN to its verify token)' : ', with DROID_VERIFY_TOKEN as its verify token'}, or those steps fail after the message-webhook check (${formatMs(config.messageWebhookCheckMs)}, --message-webhook-check)`,
      );
    }
    if (config.webhookSecret === null && !target.deliveries)
      log('droidcheck: no DROID_WEBHOOK_SECRET set: deliveries are accepted without a secret');
  } else {
    // Two lines: one with both URLs is wider than the 100 columns the quick start keeps to.
    log(`droidcheck: embedded emulator at ${target.baseUrl} (${target.emulator?.thread ?? 'inline'} thread)`);
    log(`droidcheck: receiver at ${target.webhookUrl}`);
  }
  if (config.warmUp) await warmUpConnections(target.client, config.concurrency, signal, config.traceContext);
  if (config.target.kind !== 'remote') return undefined;
  try {
    const network = await measureRoundTrip(target.baseUrl, { signal });
    log(
      `droidcheck: network round trip ${formatMs(network.rttMs)} (fastest of ${network.samples} TCP connects): the ack limit is judged on ack minus it (ackServer)`,
    );
    return network;
  } catch (err) {
    log(
      `droidcheck: could not measure the network round trip (${(err as Error).message}): the ack limit is judged on the client-side ack`,
    );
    return undefined;
  }
}
