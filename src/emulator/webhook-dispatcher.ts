/**
 * Delivers the emulator's outbound webhooks, one machinery for the three kinds:
 * - `answer` (spec: Events): POST to the answer webhook with `?secret=` when a secret is set;
 * - `message` (docs receiving-webhook.mdx): POST a MessageForwarding body with `?verify_token=`;
 * - `intent` (docs intent-webhook.mdx): POST an IntentWebhookRequest (its secret is in the body).
 * Retried when the receiver does not answer 2xx in time (spec: "retried per a retry policy; if
 * still unsuccessful logged as failed"). Policy (spec: "not shown", our choice): `attempts` in
 * total, backoff `backoffMs * 2^(n-1)` capped at `maxBackoffMs`, times a seeded jitter in
 * [1 - jitter, 1 + jitter) (default jitter 0.5; 0: the exact schedule); an attempt fails on non-2xx, a network error, or no headers (or a body stall) within
 * `timeoutMs` (a native timer per attempt, AbortSignal.timeout, for a precise figure; undici's
 * headersTimeout/bodyTimeout as the backstop). One undici Agent for every delivery; `close()` destroys it,
 * which aborts the requests in flight.
 *
 * Several answer-webhook URLs (`emulate --webhook-url A --webhook-url B`, for sharded load:
 * docs/scale.md): the emulator stands in for a load balancer in front of several receivers.
 * Deliveries take the URLs in turn (round robin), and a retry goes to the next URL after the one
 * that failed (like a balancer retrying on another upstream), so one receiver that died does not
 * take every retry with it.
 *
 * Per delivery: the payload serialised once (or given as `body`), each URL parsed once per
 * target, not per request.
 */
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import type { DeliveryKind, DeliveryLog } from './delivery-log.js';
import type { DeliveryTrace } from './tracing.js';
import type { ResolvedEmulatorOptions } from './options.js';
import type { Random } from './random.js';
import type { EmulatorStats } from './stats.js';
import type { TimerSet } from './timers.js';

export interface WebhookTarget {
  /** The configured URL (without secret or verify token): what the delivery log shows. */
  url: string;
  /** The URL actually posted to (with `secret` / `verify_token` when set). */
  postUrl: string;
  /** Several URLs behind one setting (a load balancer's upstreams), taken in turn; absent: only `url`. */
  pool?: readonly { url: string; postUrl: string }[];
}

/** The URL with query parameter `name` set to `value` when value is a non-empty string (existing parameters kept). */
function targetWithParam(url: string, name: string, value: string | null | undefined): WebhookTarget {
  const u = new URL(url);
  if (value !== null && value !== undefined && value !== '') u.searchParams.set(name, value);
  return { url, postUrl: u.toString() };
}

/**
 * The answer webhook: `?secret=` appended when set (spec: Authentication, rule 7). Several URLs:
 * one target whose deliveries take them in turn (the first is `url`). Throws TypeError for a bad URL
 * or an empty list.
 */
export function webhookTarget(url: string | readonly string[], secret: string | null | undefined): WebhookTarget {
  const urls = typeof url === 'string' ? [url] : url;
  if (urls.length === 0) throw new TypeError('webhookTarget: no URL');
  const pool = urls.map((u) => targetWithParam(u, 'secret', secret));
  return pool.length === 1 ? pool[0]! : { ...pool[0]!, pool };
}

/** Every URL of a target (one, or its pool's). */
export function targetUrls(target: WebhookTarget): string[] {
  return target.pool ? target.pool.map((p) => p.url) : [target.url];
}

/** The message-forwarding webhook: `?verify_token=` appended (docs receiving-webhook.mdx, "Request URL Format"). */
export function messageWebhookTarget(url: string, verifyToken: string | null | undefined): WebhookTarget {
  return targetWithParam(url, 'verify_token', verifyToken);
}

export interface DeliveryJob {
  kind: DeliveryKind;
  /** requestId (answer) or mid (message, intent): what the delivery log lists. */
  id: string;
  payload: unknown;
  /** `payload` as JSON when the caller has it already (must equal JSON.stringify(payload)). */
  body?: string;
  target: WebhookTarget;
  /** The answer's delivery trace (tracing.ts): each attempt told, the POST carrying its `traceparent`. */
  trace?: DeliveryTrace | undefined;
}

const RESPONSE_EXCERPT = 1024;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const JSON_HEADERS = { 'content-type': 'application/json' };

export class WebhookDispatcher {
  private readonly agent: Agent;
  /** Round robin over a target's pool: the first attempt of the next delivery. */
  private turn = 0;
  private readonly parsed = new WeakMap<{ postUrl: string }, { origin: string; path: string }>();

  constructor(
    private readonly options: ResolvedEmulatorOptions['delivery'],
    private readonly random: Random,
    private readonly timers: TimerSet,
    private readonly stats: EmulatorStats,
    private readonly log: DeliveryLog,
    private readonly wallNow: () => Date,
  ) {
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: 256,
      pipelining: 1,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Starts a delivery (attempt 1 now, retries later); never throws. */
  deliver(job: DeliveryJob): void {
    this.stats.pending += 1;
    const body = job.body ?? JSON.stringify(job.payload);
    void this.attempt(job, body, 1, job.target.pool ? this.turn++ : 0);
  }

  /** Origin and path of a target's post URL, parsed once per target object (not per delivery). */
  private where(target: { postUrl: string }): { origin: string; path: string } {
    let w = this.parsed.get(target);
    if (!w) {
      const u = new URL(target.postUrl);
      w = { origin: u.origin, path: `${u.pathname}${u.search}` };
      this.parsed.set(target, w);
    }
    return w;
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
    const j = this.options.jitter;
    return Math.round(base * (1 - j + 2 * j * this.random()));
  }

  private async attempt(job: DeliveryJob, body: string, attempt: number, turn: number): Promise<void> {
    if (this.timers.isClosed) {
      this.stats.pending -= 1;
      return;
    }
    const pool = job.target.pool;
    const target = pool ? pool[(turn + attempt - 1) % pool.length]! : job.target;
    const startedAt = this.wallNow();
    const t0 = performance.now();
    this.stats.deliveryAttempts += 1;
    let status: number | null = null;
    let error = '';
    let responseBody = '';
    try {
      const { origin, path } = this.where(target);
      // A native timer per attempt: undici's own headers/body timeouts tick every ~0.5 s, so an
      // attempt timeout of 1 s could last 1.5 s, and webhook-policy compares what it measures
      // with the configured figure (undici's timeouts stay as the backstop).
      const res = await this.agent.request({
        origin,
        path,
        method: 'POST',
        body,
        headers: job.trace ? { ...JSON_HEADERS, ...job.trace.headers } : JSON_HEADERS,
        ...(this.options.timeoutMs > 0 && { signal: AbortSignal.timeout(this.options.timeoutMs) }),
      });
      status = res.statusCode;
      responseBody = (await res.body.text()).slice(0, RESPONSE_EXCERPT);
    } catch (err) {
      const e = err as { code?: string; message?: string; name?: string };
      error =
        (e.code !== undefined && TIMEOUT_CODES.has(e.code)) || e.name === 'TimeoutError'
          ? `timeout after ${this.options.timeoutMs} ms`
          : (e.code ?? e.message ?? String(err));
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.log.add({
      kind: job.kind,
      requestId: job.id,
      attempt,
      targetUrl: target.url,
      status,
      ok,
      durationMs: Math.round((performance.now() - t0) * 100) / 100,
      error: ok ? '' : error || `HTTP ${status}`,
      startedAtMs: startedAt.getTime(),
      requestBody: body,
      responseBody,
    });
    if (ok) {
      this.stats.delivered += 1;
      this.stats.pending -= 1;
      job.trace?.attempt(attempt, status, '');
      job.trace?.end(true);
      return;
    }
    this.stats.attemptFailures += 1;
    const failure = error || `HTTP ${status}`;
    if (attempt >= this.options.attempts || this.timers.isClosed) {
      this.stats.deliveryFailures += 1;
      this.stats.pending -= 1;
      job.trace?.attempt(attempt, status, failure);
      job.trace?.end(false);
      return;
    }
    this.stats.retries += 1;
    const wait = this.backoff(attempt);
    job.trace?.attempt(attempt, status, failure, wait);
    this.timers.after(wait, () => void this.attempt(job, body, attempt + 1, turn));
  }

  /** Aborts in-flight requests (destroying the agent) . Call after `timers.close()`. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
