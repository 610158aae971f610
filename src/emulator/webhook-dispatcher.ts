/**
 * Delivers answer payloads to the configured webhook (spec: Events): POST JSON to the
 * webhook URL with `?secret=` appended when a secret is set; retried when the receiver does
 * not answer 2xx in time (spec: "retried per a retry policy; if still unsuccessful logged as
 * failed"). Policy (spec: "not shown", our choice): `attempts` in total, backoff
 * `backoffMs * 2^(n-1)` capped at `maxBackoffMs`, times a seeded jitter in [0.5, 1.5).
 * One undici Agent for every delivery; pending timers and in-flight requests end on close().
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { DeliveryLog } from './delivery-log.js';
import type { ResolvedEmulatorOptions } from './options.js';
import type { Random } from './random.js';
import type { EmulatorStats } from './stats.js';
import type { TimerSet } from './timers.js';

export interface WebhookTarget {
  /** The configured URL (without secret). */
  url: string;
  /** The URL actually posted to (with `secret` when set). */
  postUrl: string;
}

/** The URL with `secret` set as a query parameter (existing parameters kept). */
export function webhookTarget(url: string, secret: string | null | undefined): WebhookTarget {
  const u = new URL(url);
  if (secret !== null && secret !== undefined && secret !== '') u.searchParams.set('secret', secret);
  return { url, postUrl: u.toString() };
}

export interface DeliveryJob {
  requestId: string;
  payload: unknown;
  target: WebhookTarget;
}

const RESPONSE_EXCERPT = 1024;

export class WebhookDispatcher {
  private readonly agent: Agent;
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly options: ResolvedEmulatorOptions['delivery'],
    private readonly random: Random,
    private readonly timers: TimerSet,
    private readonly stats: EmulatorStats,
    private readonly log: DeliveryLog,
    private readonly wallNow: () => Date,
  ) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 256, pipelining: 1 });
  }

  /** Starts a delivery (attempt 1 now, retries later); never throws. */
  deliver(job: DeliveryJob): void {
    this.stats.pending += 1;
    const body = JSON.stringify(job.payload);
    void this.attempt(job, body, 1);
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
    return Math.round(base * (0.5 + this.random()));
  }

  private async attempt(job: DeliveryJob, body: string, attempt: number): Promise<void> {
    if (this.timers.isClosed) {
      this.stats.pending -= 1;
      return;
    }
    const startedAt = this.wallNow();
    const t0 = performance.now();
    const controller = new AbortController();
    this.inFlight.add(controller);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    this.stats.deliveryAttempts += 1;
    let status: number | null = null;
    let error = '';
    let responseBody = '';
    try {
      const res = await request(job.target.postUrl, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        dispatcher: this.agent,
        signal: controller.signal,
      });
      status = res.statusCode;
      responseBody = (await res.body.text()).slice(0, RESPONSE_EXCERPT);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      error = timedOut ? `timeout after ${this.options.timeoutMs} ms` : (e.code ?? e.message ?? String(err));
      status = null;
    } finally {
      clearTimeout(deadline);
      this.inFlight.delete(controller);
    }
    const ok = status !== null && status >= 200 && status < 300;
    this.log.add({
      requestId: job.requestId,
      attempt,
      targetUrl: job.target.url,
      status,
      ok,
      durationMs: Math.round((performance.now() - t0) * 100) / 100,
      error: ok ? '' : error || `HTTP ${status}`,
      timestamp: startedAt.toISOString(),
      requestPayload: job.payload,
      responseBody,
    });
    if (ok) {
      this.stats.delivered += 1;
      this.stats.pending -= 1;
      return;
    }
    this.stats.attemptFailures += 1;
    if (attempt >= this.options.attempts || this.timers.isClosed) {
      this.stats.deliveryFailures += 1;
      this.stats.pending -= 1;
      return;
    }
    this.stats.retries += 1;
    const wait = this.backoff(attempt);
    if (this.timers.isClosed) {
      this.stats.pending -= 1;
      return;
    }
    this.timers.after(wait, () => void this.attempt(job, body, attempt + 1));
  }

  /** Aborts in-flight requests and closes the agent. Call after `timers.close()`. */
  async close(): Promise<void> {
    for (const c of this.inFlight) c.abort();
    this.inFlight.clear();
    await this.agent.destroy();
  }
}
