/**
 * `runEngine(options)`: the one engine of `run`, `load` and `capacity`
 * (docs/architecture.md, "One pipeline, many modes"). A request source (plan or mix) says *what* to
 * send, a scheduler (closed: N in flight; open: arrival rate with stages) says *when*,
 * `executeRequest` says *how*, and every ended record goes, in this order, to the tally, the kept
 * records (when asked), the timeline and the sinks (reporters, NDJSON).
 *
 * Guarantees, for every job:
 * - every planned request ends in exactly one outcome; what an interrupt left unsent is
 *   `not-sent` (plan sources), so the outcomes add up to the requests planned;
 * - sinks are called synchronously, outside the request's await chain; a closed-model worker
 *   waits for slow sinks (`drained()`) before its next request (backpressure), the open model
 *   never delays an arrival;
 * - the first stop (SIGINT, or the set-up breaker) sends nothing new; the abort (grace over,
 *   second SIGINT, drain deadline) cancels in-flight requests, which end `interrupted`;
 * - warm-up requests (started before `warmupMs`) reach the sinks flagged, and no figure.
 * Throws InternalError (DROIDCHECK_ERR_INTERNAL) only for a droidcheck bug.
 */
import { InternalError } from '../errors.js';
import type { Stage } from './arrival-schedule.js';
import { JOB_DEFAULTS } from '../defaults.js';
import { runClosed } from './closed.js';
import { EngineRun } from './engine-run.js';
import type { EngineOptions, EngineResult } from './engine-types.js';
import { notSentRecord } from './execute.js';
import { runOpen } from './open.js';

export type { EngineOptions, EngineResult } from './engine-types.js';

/**
 * How long the requests still in flight after the last send may take to end before they are
 * aborted, ms: their deadline and a margin (src/defaults.ts), so one sent at the last moment
 * still gets its whole deadline. The engine's default drain; a job adds what its conversations
 * pause on top.
 */
export const drainTimeoutFor = (timeoutMs: number): number => timeoutMs + JOB_DEFAULTS.drainAfterDeadlineMs;

/** Runs the source through the scheduler to its end (see the module docs). */
export async function runEngine(o: EngineOptions): Promise<EngineResult> {
  if (!o.receiver && !o.ackOnly && o.source.hasAsync())
    throw new InternalError('engine: async requests need a receiver');
  const run = new EngineRun(o);
  const startedAt = run.clock.wallNow();
  const spec = o.scheduler;
  const targetRate = spec.kind === 'open' ? rateAtFn(spec.startRate, spec.stages, spec.segment?.total) : undefined;
  let lastSent = 0;
  const intervalMs = run.timeline.intervalMs;
  const ticker = setInterval(() => {
    const now = run.clock.now();
    const point = run.timeline.tick(now, run.inFlight, targetRate?.(now - run.t0));
    if (o.onTick) {
      const sent = run.sent + run.warmupSent;
      const t = run.tally;
      o.onTick({
        elapsedMs: now - run.t0,
        planned: o.source.planned,
        sent,
        ended: t.requests,
        inFlight: run.inFlight,
        openConversations: run.latency.openConversations,
        dropped: run.dropped,
        outcomes: t.outcomes,
        passed: t.passed,
        failed: t.failed,
        rate: point.durationS > 0 ? (sent - lastSent) / point.durationS : 0,
        targetRate: targetRate?.(now - run.t0),
        ack: { count: run.latency.recorder.count('ack'), p99Ms: run.latency.recorder.percentileMs('ack', 99) },
        histograms: { latency: run.latency.recorder, sendDelay: spec.kind === 'open' ? run.sendDelay : undefined },
      });
      lastSent = sent;
    }
  }, intervalMs);
  ticker.unref();
  const common = { warmupMs: o.warmupMs ?? 0, drainTimeoutMs: o.drainTimeoutMs ?? drainTimeoutFor(o.timeoutMs) };
  let times: { measuredMs: number };
  try {
    times =
      spec.kind === 'open' ? await runOpen(run, { ...spec, ...common }) : await runClosed(run, { ...spec, ...common });
  } finally {
    clearInterval(ticker);
    run.dispose();
  }
  run.assertHealthy();
  const unsent = o.source.unsent();
  const wall = run.clock.wallNow().toISOString();
  for (const planned of unsent) run.record(notSentRecord(planned, wall), false);
  const end = run.clock.now();
  const timeline = run.timeline.close(end, run.inFlight);
  const tally = run.tally.snapshot();
  if (o.source.planned !== undefined && tally.requests !== o.source.planned) {
    throw new InternalError(
      `accounting: ${o.source.planned} requests planned but ${tally.requests} ended with an outcome`,
    );
  }
  return {
    model: spec.kind,
    startedAt: startedAt.toISOString(),
    finishedAt: run.clock.wallNow().toISOString(),
    durationMs: end - run.t0,
    measuredMs: times.measuredMs,
    planned: o.source.planned,
    records: o.keepRecords ? run.records : undefined,
    tally,
    latency: run.latency.recorder,
    sendDelay: spec.kind === 'open' ? run.sendDelay : undefined,
    timeline,
    counts: { sent: run.sent, warmupSent: run.warmupSent, dropped: run.dropped, notSent: unsent.length },
    interrupted: Boolean(o.stopSignal?.aborted || o.abortSignal?.aborted),
    setupFailure: run.breakerFailure(),
    notes: run.notes.list(),
  };
}

/**
 * Intended rate (req/s) at `t` ms of k6-style stages starting at `startRate`; with `shares`
 * (`load --shard i/n`: n), one execution segment's part of it.
 */
export function rateAtFn(startRate: number, stages: readonly Stage[], shares = 1): (t: number) => number {
  return (t) => {
    let from = startRate;
    let at = 0;
    for (const s of stages) {
      if (t <= at + s.durationMs)
        return (s.durationMs === 0 ? s.target : from + ((s.target - from) * (t - at)) / s.durationMs) / shares;
      at += s.durationMs;
      from = s.target;
    }
    return 0;
  };
}
