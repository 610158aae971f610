/**
 * Closed model: `concurrency` workers, each sending its next request when the previous one
 * ends (fixed concurrency, like autocannon's connections or k6's constant-vus). Latency is
 * measured from the actual start; a stalled target slows the sending (coordinated omission),
 * which is why the open model exists. Bounded by `durationMs` and `maxRequests`; after the
 * duration, in-flight requests get `drainTimeoutMs` before they are cancelled.
 * Backpressure: a worker waits for the NDJSON writer to drain before its next request.
 */
import type { ScenarioMix } from './mix.js';
import type { LoadSession, ModelResult } from './session.js';

export interface ClosedModelOptions {
  session: LoadSession;
  mix: ScenarioMix;
  /** Requests in flight (workers). */
  concurrency: number;
  /** Sending stops after this long, ms. */
  durationMs: number;
  /** Requests started before this (ms from start) are excluded from the figures. */
  warmupMs?: number;
  /** At most this many requests (warm-up included). Default unbounded. */
  maxRequests?: number;
  drainTimeoutMs: number;
  /** Aborted: no new requests. */
  stopSignal?: AbortSignal | undefined;
}

/** Runs the workers to the end of the duration and waits for every request sent. */
export async function runClosedModel(o: ClosedModelOptions): Promise<ModelResult> {
  const { session, mix } = o;
  const { clock, stats } = session;
  const warmupMs = o.warmupMs ?? 0;
  const maxRequests = o.maxRequests ?? Number.POSITIVE_INFINITY;
  const startedAt = clock.wallNow();
  const t0 = clock.now();
  const end = t0 + o.durationMs;
  let seq = 0;
  let lastSend = t0;
  let warmupEnd = t0;

  const drainTimer = setTimeout(() => session.abort.abort(), o.durationMs + o.drainTimeoutMs);
  drainTimer.unref();

  const worker = async (): Promise<void> => {
    while (!o.stopSignal?.aborted && !session.abort.signal.aborted && seq < maxRequests) {
      const now = clock.now();
      if (now >= end) return;
      const warm = now - t0 < warmupMs;
      lastSend = now;
      if (warm) {
        stats.warmupSent += 1;
        warmupEnd = now;
      } else stats.sent += 1;
      stats.inFlight += 1;
      const record = await session.execute(mix.pick(seq++), warm ? session.warmupCtx : session.ctx);
      stats.inFlight -= 1;
      if (!session.finish(record, warm) && session.writer) await session.writer.drained();
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  } finally {
    clearTimeout(drainTimer);
  }
  const generationMs = Math.min(lastSend - t0, o.durationMs);
  const measuredFrom = warmupMs > 0 ? Math.max(warmupMs, warmupEnd - t0) : 0;
  return {
    model: 'closed',
    startedAt,
    elapsedMs: clock.now() - t0,
    generationMs,
    measuredMs: Math.max(0, clock.now() - t0 - measuredFrom),
    interrupted: Boolean(o.stopSignal?.aborted) || session.abort.signal.aborted,
  };
}
