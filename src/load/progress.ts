/**
 * Live progress of a load run: every `intervalMs` one plain line with the arrival rate
 * achieved over the interval (req/s), requests in flight, outcomes so far and ack p99 so far
 * (ms). Compute, then render: `progressLine` returns the text; an injected `write` prints it.
 */
import type { Outcome } from '../runner/types.js';
import type { LoadSession } from './session.js';

export interface ProgressSnapshot {
  /** ms since the start. */
  elapsedMs: number;
  /** Requests sent so far (warm-up included). */
  sent: number;
  inFlight: number;
  dropped: number;
  outcomes: Readonly<Record<Outcome, number>>;
  /** ack p99 so far, ms (0 when none). */
  ackP99Ms: number;
  /** Send delay p99 so far, ms. */
  sendDelayP99Ms: number;
  /** Intended arrival rate now, req/s (open model). */
  targetRate?: number | undefined;
}

const SHOWN: readonly Outcome[] = ['answered', 'failed', 'rejected', 'timeout', 'transport-error', 'interrupted'];

/** One progress line (no trailing newline); the rate is achieved between `prev` and `cur`. */
export function progressLine(prev: ProgressSnapshot | undefined, cur: ProgressSnapshot): string {
  const dt = (cur.elapsedMs - (prev?.elapsedMs ?? 0)) / 1000;
  const rate = dt > 0 ? (cur.sent - (prev?.sent ?? 0)) / dt : 0;
  const target = cur.targetRate !== undefined ? ` (target ${round1(cur.targetRate)})` : '';
  const outcomes = SHOWN.filter((o) => o === 'answered' || cur.outcomes[o] > 0)
    .map((o) => `${o} ${cur.outcomes[o]}`)
    .join(' ');
  return (
    `[${(cur.elapsedMs / 1000).toFixed(1).padStart(6)}s] rate ${round1(rate)}/s${target}` +
    ` | in flight ${cur.inFlight} | sent ${cur.sent}${cur.dropped > 0 ? ` dropped ${cur.dropped}` : ''}` +
    ` | ${outcomes} | ack p99 ${cur.ackP99Ms} ms | send delay p99 ${cur.sendDelayP99Ms} ms`
  );
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A snapshot of `session` now; `t0` is the run's start on the session clock. */
export function snapshotOf(session: LoadSession, t0: number, targetRate?: number): ProgressSnapshot {
  const s = session.stats;
  return {
    elapsedMs: session.clock.now() - t0,
    sent: s.sent + s.warmupSent,
    inFlight: s.inFlight,
    dropped: s.dropped,
    outcomes: { ...s.outcomes },
    ackP99Ms: session.ctx.latency.percentileMs('ack', 99),
    sendDelayP99Ms: session.sendDelay.percentileMs(99),
    targetRate,
  };
}

export interface ProgressOptions {
  session: LoadSession;
  /** Default 5000 ms; 0 disables. */
  intervalMs?: number;
  /** Prints one line (the caller adds the newline). */
  write: (line: string) => void;
  /** Intended rate at `elapsedMs` (req/s), for the open model. */
  targetRate?: (elapsedMs: number) => number;
}

/** Starts the ticker (unref'd timer); `stop()` ends it. Also flushes the NDJSON writer each tick. */
export function startProgress(o: ProgressOptions): { stop(): void } {
  const intervalMs = o.intervalMs ?? 5000;
  if (intervalMs <= 0) return { stop: () => undefined };
  const t0 = o.session.clock.now();
  let prev: ProgressSnapshot | undefined;
  const timer = setInterval(() => {
    const elapsed = o.session.clock.now() - t0;
    const cur = snapshotOf(o.session, t0, o.targetRate?.(elapsed));
    o.write(progressLine(prev, cur));
    prev = cur;
    o.session.writer?.flush();
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Intended rate (req/s) at `t` ms of a k6-style stage list starting at `startRate`. */
export function rateAt(startRate: number, stages: readonly { durationMs: number; target: number }[], t: number): number {
  let from = startRate;
  let at = 0;
  for (const s of stages) {
    if (t <= at + s.durationMs) return s.durationMs === 0 ? s.target : from + ((s.target - from) * (t - at)) / s.durationMs;
    at += s.durationMs;
    from = s.target;
  }
  return 0;
}
