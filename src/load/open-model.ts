/**
 * Open model: requests arrive on an {@link ArrivalSchedule} whatever the target does (k6's
 * constant- and ramping-arrival-rate). Each request's latency is measured from its *intended*
 * start, so a stalled target shows in the percentiles (coordinated omission); the actual send
 * delay goes to its own histogram. When `maxInFlight` requests are in flight an arrival is
 * dropped and counted (k6's dropped_iterations), never delayed.
 *
 * Hot path: one timer armed at the next arrival; each tick fires every due arrival (at most
 * {@link MAX_BATCH} before yielding to I/O); one shared completion handler, no per-request
 * closure. Bounded by the schedule's duration, `maxRequests`, and `drainTimeoutMs` after it.
 */
import { InternalError } from '../errors.js';
import type { RequestRecord } from '../runner/types.js';
import type { ArrivalSchedule } from './arrival-schedule.js';
import type { ScenarioMix } from './mix.js';
import type { LoadSession, ModelResult } from './session.js';

/** Most arrivals fired in one tick before yielding to I/O (setImmediate). */
export const MAX_BATCH = 512;
/**
 * Timers fire up to ~1 ms late (libuv's ms granularity), which is send delay. With SPIN_MS > 0
 * the timer is armed that much early and the rest is waited with setImmediate (busy, but still
 * serving I/O). Off (0): on a 2-core box the busy wait cost more in event-loop stalls than it
 * saved (measured: p50 send delay 0.7 -> 0.01 ms, p99 worse).
 */
export const SPIN_MS = 0;

export interface OpenModelOptions {
  session: LoadSession;
  mix: ScenarioMix;
  schedule: ArrivalSchedule;
  /** Arrivals intended before this (ms from start) run but are excluded from the figures. */
  warmupMs?: number;
  /** In-flight cap; arrivals beyond it are dropped. Default 100_000. */
  maxInFlight?: number;
  /** At most this many arrivals are sent (warm-up included). Default unbounded. */
  maxRequests?: number;
  /** After the last arrival, in-flight requests get this long before they are cancelled, ms. */
  drainTimeoutMs: number;
  /** Aborted: no new arrivals (in-flight ones still end). */
  stopSignal?: AbortSignal | undefined;
}

/** Runs the schedule to its end and waits for every request sent. Rejects only with InternalError. */
export function runOpenModel(o: OpenModelOptions): Promise<ModelResult> {
  const { session, mix, schedule } = o;
  const { clock, stats } = session;
  const warmupMs = o.warmupMs ?? 0;
  const maxInFlight = o.maxInFlight ?? 100_000;
  const maxRequests = o.maxRequests ?? Number.POSITIVE_INFINITY;
  const startedAt = clock.wallNow();
  const t0 = clock.now();

  return new Promise<ModelResult>((resolve, reject) => {
    let seq = 0;
    let boundary = Number.POSITIVE_INFINITY; // first measured seq
    let next = schedule.next();
    let timer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let generating = true;
    let generationMs = 0;
    let stoppedEarly = false;
    let failure: unknown;

    const finish = (): void => {
      if (drainTimer) clearTimeout(drainTimer);
      o.stopSignal?.removeEventListener('abort', onStop);
      if (failure !== undefined) {
        reject(new InternalError(`open model: ${failure instanceof Error ? failure.message : String(failure)}`));
        return;
      }
      resolve({
        model: 'open',
        startedAt,
        elapsedMs: clock.now() - t0,
        generationMs,
        measuredMs: Math.max(0, generationMs - warmupMs),
        interrupted: stoppedEarly || session.abort.signal.aborted,
      });
    };
    const endGeneration = (): void => {
      if (!generating) return;
      generating = false;
      if (timer) clearTimeout(timer);
      generationMs = Math.min(clock.now() - t0, schedule.durationMs);
      if (stats.inFlight === 0) finish();
      else {
        drainTimer = setTimeout(() => session.abort.abort(), o.drainTimeoutMs);
        drainTimer.unref();
      }
    };
    const onStop = (): void => {
      stoppedEarly = true;
      endGeneration();
    };
    const onEnd = (record: RequestRecord): void => {
      stats.inFlight -= 1;
      session.finish(record, record.seq < boundary);
      if (!generating && stats.inFlight === 0) finish();
    };
    const onError = (err: unknown): void => {
      failure ??= err;
      stats.inFlight -= 1;
      if (!generating && stats.inFlight === 0) finish();
    };
    const tick = (): void => {
      timer = undefined;
      if (!generating) return;
      let budget = MAX_BATCH;
      while (next !== undefined) {
        if (seq >= maxRequests) {
          next = undefined;
          break;
        }
        const now = clock.now();
        const intended = t0 + next;
        if (intended > now) break;
        if (budget-- === 0) {
          setImmediate(tick);
          return;
        }
        const warm = next < warmupMs;
        if (stats.inFlight >= maxInFlight) {
          if (!warm) stats.dropped += 1;
        } else {
          if (warm) stats.warmupSent += 1;
          else {
            if (boundary === Number.POSITIVE_INFINITY) boundary = seq;
            stats.sent += 1;
            session.sendDelay.recordMs(now - intended);
          }
          stats.inFlight += 1;
          session.execute(mix.pick(seq++), warm ? session.warmupCtx : session.ctx, intended).then(onEnd, onError);
        }
        next = schedule.next();
      }
      if (next === undefined) endGeneration();
      else {
        const wait = t0 + next - clock.now();
        if (SPIN_MS === 0 || wait > SPIN_MS) timer = setTimeout(tick, Math.max(0, wait - SPIN_MS));
        else setImmediate(tick);
      }
    };

    if (o.stopSignal?.aborted) {
      stoppedEarly = true;
      endGeneration();
      return;
    }
    o.stopSignal?.addEventListener('abort', onStop, { once: true });
    tick();
  });
}
