/**
 * `droidcheck doctor --round-trip`: one real `get-droid-answer-async` request (spec 9) whose
 * answer webhook must reach droidcheck's receiver, through `--public-url` when a tunnel is in
 * front, within the deadline. Cost on a real service: one AI answer (a short greeting, no
 * history: the cheapest message), billed and possibly with the droid's side effects.
 *
 * It settles the two checks the cheap probe may leave open: an acknowledged request proves a
 * test customer and an answer webhook are configured (spec: States, "valid token, webhook
 * configured, droid has a test customer, humanMessage valid"); a refusal names which is missing.
 *
 * The message webhook: the service forwards every message of its conversations to the
 * Automation Panel's message webhook (docs receiving-webhook.mdx), so while the answer is on its
 * way the receiver's /messages is watched too, for at least `messages.withinMs` from the
 * request's start: a forwarded message passes, one refused for its verify_token fails, none
 * warns. Only a warning: whether the service forwards the async endpoint's test conversation
 * is not documented; run's first reply wait settles it for `send` (runner/step-waits.ts).
 */
import { newTraceparent } from '../../runner/index.js';
import type { DroidClient } from '../../client/index.js';
import { ApiError } from '../../errors.js';
import { sleep, type Clock } from '../../clock.js';
import type { DeliverySource, WebhookMatch } from '../../receiver/index.js';
import { formatMs } from '../../units.js';
import { answerWebhookFix, bothChecks, check, refusalChecks, refusalKind, type DoctorCheck } from './checks.js';
import { ROUND_TRIP_MESSAGE } from './probe.js';

export interface RoundTripOptions {
  client: DroidClient;
  receiver: DeliverySource;
  /** The URL the service must POST to (the public one behind a tunnel). */
  webhookUrl: string;
  /** Where the receiver listens. */
  localUrl: string;
  baseUrl: string;
  droidId: string | number;
  /** Webhook deadline from the request's start, ms. */
  timeoutMs: number;
  /** The network round trip, ms, to show the ack's server-side estimate. */
  rttMs: number | undefined;
  signal?: AbortSignal | undefined;
  /** The receiver's clock: the request's start and the webhook's deadline are on it. */
  clock: Clock;
  log(line: string): void;
  /** The message-webhook check: how long to watch and the URL to configure, or why it is not made. */
  messages?: { withinMs: number; url: string } | { skip: string };
}

type Status = DoctorCheck['status'];

/** The round trip's verdict, and the test-customer / answer-webhook checks it settles (when it does). */
export interface RoundTripResult {
  roundTrip: DoctorCheck;
  settled: DoctorCheck[];
  /** The message-webhook check, when `messages` asked for it. */
  messageWebhook?: DoctorCheck;
}

/**
 * How long after the answer arrived the check still waits for a forwarded message, ms: the
 * service forwards the customer's own message as it stores it, before it answers, so a message
 * webhook that is set up has delivered by then, give or take a retry; one nobody set up is not
 * waited for the whole `--message-webhook-check`.
 */
const AFTER_ANSWER_MS = 2_000;

/**
 * Watches the receiver's /messages from `t0` (the receiver's clock, ms) until `t0 + withinMs`,
 * or {@link AFTER_ANSWER_MS} after the answer arrived (`answeredAt`) when that is sooner: a
 * message of `customerId` (the test customer, from the answer) ends the wait at once. Without a
 * customer (no answer came: the round trip already waited its deadline) the route's counters
 * since the request tell, with no further wait.
 */
async function messageWebhookCheck(
  o: RoundTripOptions,
  t0: number,
  answer: { customerId: number; answeredAt: number } | undefined,
  before: { accepted: number; badSecret: number },
): Promise<DoctorCheck | undefined> {
  const customerId = answer?.customerId;
  const m = o.messages;
  const say = (status: Status, detail: string, fix?: string) => check('message-webhook', status, detail, fix);
  if (!m) return undefined;
  if ('skip' in m) return say('skip', m.skip);
  let waitedMs = m.withinMs;
  if (answer !== undefined) {
    const until = Math.min(t0 + m.withinMs, answer.answeredAt + AFTER_ANSWER_MS);
    waitedMs = Math.max(0, until - t0);
    o.log(
      `droidcheck doctor: message webhook: watching the receiver's /messages for a forwarded message, up to ${formatMs(waitedMs)} from the request (${formatMs(AFTER_ANSWER_MS)} after the answer at most: the customer's own message is forwarded before it)`,
    );
    const got = await o.receiver.waitForMessage(
      { customerId: answer.customerId, after: t0, match: () => true },
      until,
      o.signal,
    );
    if (got.kind === 'message')
      return say(
        'pass',
        `a forwarded message of customer ${customerId} (type ${String(got.payload.type)}) reached the receiver ${formatMs(Math.max(0, got.receivedAt - t0))} after the request`,
      );
  }
  const now = o.receiver.inboundStats().messages;
  if (now.accepted > before.accepted)
    return say(
      'pass',
      `${now.accepted - before.accepted} forwarded message(s) reached the receiver during the round trip`,
    );
  const fix = `configure the Automation Panel's message webhook as ${m.url} with the verify token (the value of DROID_VERIFY_TOKEN): send steps that wait for the bot's reply need it`;
  if (now.badSecret > before.badSecret)
    return say(
      'fail',
      `the receiver refused ${now.badSecret - before.badSecret} forwarded message(s) for a wrong verify_token`,
      `set the service's Verify Token (the Automation Panel's message webhook) to the value of DROID_VERIFY_TOKEN`,
    );
  return say(
    'warn',
    `no message webhook delivery within ${formatMs(waitedMs)} of the request${answer ? ` (${formatMs(AFTER_ANSWER_MS)} after its answer)` : ''}: none is set up, or the service does not forward the async endpoint's test conversation; run's first reply wait tells for sure`,
    fix,
  );
}

/** The round trip's own check, with the checks it settled (none when it failed before an acknowledgement). */
function verdict(status: Status, detail: string, fix?: string, settled: DoctorCheck[] = []): RoundTripResult {
  return { roundTrip: check('round-trip', status, detail, fix), settled };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

/** True when `url`'s host is this machine (the service can reach a loopback receiver then). */
function isLoopbackUrl(url: string): boolean {
  return LOOPBACK.test(new URL(url).hostname);
}

/** How often the round trip looks for a refused delivery, ms. */
const REFUSAL_POLL_MS = 200;

/**
 * Resolves at the first bad-secret or malformed delivery, checked every 200 ms; `stop()` ends the
 * watch (its promise then never settles: the race it was in is decided).
 */
function watchRefusals(receiver: DeliverySource): { refused: Promise<'bad-secret' | 'malformed'>; stop(): void } {
  const before = receiver.stats();
  const stopped = new AbortController();
  const refused = (async (): Promise<'bad-secret' | 'malformed'> => {
    while (!stopped.signal.aborted) {
      await sleep(REFUSAL_POLL_MS, { signal: stopped.signal, ref: false });
      const now = receiver.stats();
      if (now.badSecret > before.badSecret) return 'bad-secret';
      if (now.malformed > before.malformed) return 'malformed';
    }
    return never;
  })();
  return { refused, stop: () => stopped.abort() };
}

/** A promise that never settles. */
const never = new Promise<never>(() => undefined);

function refusal(err: unknown, o: RoundTripOptions): RoundTripResult {
  if (err instanceof ApiError) {
    const said = err.apiMessage ?? err.error ?? err.bodyExcerpt ?? '';
    const what = `get-droid-answer-async: HTTP ${err.status}${err.error ? ` ${err.error}` : ''}${err.apiMessage ? `: ${err.apiMessage}` : err.error === undefined && said ? `: "${said}"` : ''}`;
    // A 400 names a setting (read by meaning, checks.ts refusalKind); the real message has content, so `Invalid humanMessage format` is a refusal of its own here.
    const kind = err.status === 400 ? refusalKind(said.trim()) : undefined;
    const settled =
      kind === 'answer-webhook' || kind === 'test-customer'
        ? (refusalChecks(kind, what, o.webhookUrl) ?? []).filter((c) => c.status === 'fail')
        : [];
    const fix =
      settled[0]?.fix ??
      (err.status === 429
        ? 'rate limited: try again later'
        : err.status >= 500
          ? 'the service is failing: try again later'
          : err.status === 400
            ? `the service refused the request: do what its message says (the async endpoint needs ${answerWebhookFix(o.webhookUrl).replace(/^set /, '')} and a test customer)`
            : 'see the message; droidcheck doctor without --round-trip checks the token and droid');
    return verdict('fail', `the request was refused (${what})`, fix, settled);
  }
  return verdict(
    'fail',
    `no acknowledgement: ${(err as Error).message}`,
    'check --base-url and the network; droidcheck doctor without --round-trip checks each step',
  );
}

/**
 * Sends the request, waits for its webhook (or a refused delivery, or the deadline), and says
 * what happened. Never throws for the target's behaviour.
 */
export async function roundTrip(o: RoundTripOptions): Promise<RoundTripResult> {
  if (!isLoopbackUrl(o.baseUrl) && isLoopbackUrl(o.webhookUrl)) {
    return verdict(
      'fail',
      `the service cannot reach ${o.webhookUrl}: it is this machine's loopback address`,
      `put a tunnel in front of the receiver (cloudflared tunnel --url ${new URL(o.localUrl).origin}, or ngrok), pass its https URL with /webhook as --public-url, fix --receiver-port, and configure that URL as the service's answer webhook (when the service reaches this machine directly: --receiver-host 0.0.0.0 and --public-url http://<this machine's address>:<port>/webhook)`,
    );
  }
  o.log(
    `droidcheck doctor: round trip: one real request to get-droid-answer-async; its answer must reach ${o.webhookUrl} within ${formatMs(o.timeoutMs)}`,
  );
  const inbound = o.receiver.inboundStats().messages;
  const before = { accepted: inbound.accepted, badSecret: inbound.badSecret };
  const t0 = o.clock.now();
  let requestId: string;
  let ackMs: number;
  let violations: string[];
  try {
    const ack = await o.client.getDroidAnswerAsync(
      { humanMessage: { content: ROUND_TRIP_MESSAGE, type: 'human' } },
      // A trace of its own, as every call to the service carries one (runner/trace.ts).
      { ...(o.signal && { signal: o.signal }), trace: { traceparent: newTraceparent() } },
    );
    ackMs = o.clock.now() - t0;
    violations = ack.contract.violations.map((v) => `${v.path || '(body)'}: ${v.message}`);
    const id = (ack.body as { requestId?: unknown } | null)?.requestId;
    if (typeof id !== 'string' || id === '')
      return verdict(
        'fail',
        'acknowledged without a requestId (spec 9: the ack carries it)',
        'the service does not answer as documented; report it to its operator',
      );
    requestId = id;
  } catch (err) {
    return refusal(err, o);
  }
  const settled = bothChecks('pass', `configured: the async endpoint accepted a request (${requestId})`);
  const server = o.rttMs !== undefined ? ` (ack minus the round trip ${formatMs(Math.max(0, ackMs - o.rttMs))})` : '';
  const watch = watchRefusals(o.receiver);
  let match: WebhookMatch | 'bad-secret' | 'malformed';
  try {
    match = await Promise.race([o.receiver.waitFor(requestId, t0 + o.timeoutMs, o.signal), watch.refused]);
  } finally {
    watch.stop();
  }
  const delivery = deliveryVerdict(o, match, { requestId, ackMs, violations, t0, settled, server });
  const customerId =
    typeof match === 'object' && match.kind !== 'timeout'
      ? (match.payload as { customerId?: unknown }).customerId
      : undefined;
  const answer =
    typeof match === 'object' && match.kind !== 'timeout' && typeof customerId === 'number'
      ? { customerId, answeredAt: match.receivedAt }
      : undefined;
  const messageWebhook = await messageWebhookCheck(o, t0, answer, before);
  return messageWebhook ? { ...delivery, messageWebhook } : delivery;
}

interface Sent {
  requestId: string;
  ackMs: number;
  violations: string[];
  t0: number;
  settled: DoctorCheck[];
  server: string;
}

/** The round trip's verdict from what reached the receiver (or not) after the acknowledgement. */
function deliveryVerdict(
  o: RoundTripOptions,
  match: WebhookMatch | 'bad-secret' | 'malformed',
  sent: Sent,
): RoundTripResult {
  const { requestId, ackMs, violations, t0, settled, server } = sent;
  const say = (status: Status, detail: string, fix?: string) => verdict(status, detail, fix, settled);
  const debug = `${o.baseUrl}/droids/${o.droidId}/debug/webhooks`;
  if (match === 'bad-secret') {
    return say(
      'fail',
      `a delivery reached the receiver with a wrong ?secret= (answered 401)`,
      'set the same value as DROID_WEBHOOK_SECRET and as the webhook secret in Settings > Integrations',
    );
  }
  if (match === 'malformed') {
    return say(
      'fail',
      'a delivery reached the receiver but its body is not a JSON answer payload',
      `see what the service sent on ${debug}`,
    );
  }
  if (match.kind === 'timeout') {
    if (o.signal?.aborted) return say('skip', `interrupted while waiting for ${requestId}'s webhook`);
    return say(
      'fail',
      `acknowledged in ${formatMs(ackMs)}, but no webhook for ${requestId} reached ${o.webhookUrl} within ${formatMs(o.timeoutMs)}`,
      `check that the answer webhook URL in Settings > Integrations is ${o.webhookUrl}, that it reaches ${o.localUrl} (the tunnel is up and forwards there), and the deliveries on ${debug}`,
    );
  }
  const answerMs = match.receivedAt - t0;
  const timing = `acknowledged in ${formatMs(ackMs)}${server}, webhook through ${o.webhookUrl} after ${formatMs(answerMs)}`;
  if (match.kind === 'failed') {
    return say(
      'warn',
      `${timing}, carrying an error payload: ${match.payload.error}`,
      `the delivery path works; the droid failed to answer: see ${debug}`,
    );
  }
  const shapes = [
    ...violations,
    ...match.contract.violations.map((v) => `webhook ${v.path || '(body)'}: ${v.message}`),
  ];
  if (shapes.length > 0)
    return say(
      'warn',
      `${timing}; not as documented: ${shapes.slice(0, 3).join('; ')}`,
      'the delivery path works; the shapes differ from the spec (run reports them as contract violations)',
    );
  return say('pass', `${requestId} ${timing}`);
}
