/**
 * The closed model: `concurrency` workers, each starting its next request when the previous one
 * ended (k6's constant-vus, autocannon's connections). A plan source hands out chains (plan.ts),
 * which a worker runs back to back; a mix hands out one draw at a time. Latency is measured from
 * the actual start, so a stalled target slows the sending (coordinated omission: use the open
 * model to see it). Bounded by the source, `durationMs` and `maxRequests`; after the duration,
 * in-flight requests get `drainTimeoutMs` before they are cancelled. A worker waits for slow
 * sinks (backpressure) before its next request.
 */
import type { EngineRun } from './engine-run.js';

export interface ClosedOptions {
  concurrency: number;
  durationMs?: number | undefined;
  maxRequests?: number | undefined;
  warmupMs: number;
  drainTimeoutMs: number;
}

/** Runs the workers to the end; resolves the measured sending time, ms. */
export async function runClosed(run: EngineRun, o: ClosedOptions): Promise<{ measuredMs: number }> {
  const { clock, source } = run;
  const t0 = run.t0;
  const end = o.durationMs === undefined ? Number.POSITIVE_INFINITY : t0 + o.durationMs;
  const maxRequests = o.maxRequests ?? Number.POSITIVE_INFINITY;
  let warmupEnd = t0;
  let lastSend = t0;
  const drainTimer =
    o.durationMs === undefined ? undefined : setTimeout(() => run.abort.abort(), o.durationMs + o.drainTimeoutMs);
  drainTimer?.unref();
  const over = (now: number): boolean => run.stopped || now >= end || run.sent + run.warmupSent >= maxRequests;

  const worker = async (): Promise<void> => {
    for (;;) {
      if (over(clock.now())) return;
      const chain = source.take();
      if (!chain) return;
      if (chain.length === 0) {
        // Every draw's state lane is busy: wait for a request to end (or the run to stop).
        if (run.inFlight === 0) return;
        await run.released();
        continue;
      }
      for (let i = 0; i < chain.length; i++) {
        const now = clock.now();
        if (over(now)) {
          source.giveBack(chain.slice(i));
          return;
        }
        const warm = now - t0 < o.warmupMs;
        if (warm) warmupEnd = now;
        lastSend = now;
        await run.launchAndWait(chain[i]!, warm);
        const draining = run.drained();
        if (draining) await draining;
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  } finally {
    if (drainTimer) clearTimeout(drainTimer);
  }
  const measuredFrom = o.warmupMs > 0 ? Math.max(o.warmupMs, warmupEnd - t0) : 0;
  const sendingMs =
    o.durationMs === undefined ? clock.now() - t0 : Math.min(Math.max(lastSend, clock.now()) - t0, o.durationMs);
  return { measuredMs: Math.max(0, sendingMs - measuredFrom) };
}
