/**
 * The open model: requests arrive on an arrival schedule (arrival-schedule.ts) whatever the
 * target does (k6's constant- and ramping-arrival-rate). Each request's latency is measured from
 * its *intended* start, so a stalled target shows in the percentiles (coordinated omission); the
 * actual send delay goes to its own histogram. When `maxInFlight` requests are in flight an
 * arrival is dropped and counted (k6's dropped_iterations), never delayed.
 *
 * Hot path: one timer armed at the next arrival; each tick fires every due arrival (at most
 * {@link MAX_BATCH} before yielding to I/O). Bounded by the schedule, `maxRequests`, and
 * `drainTimeoutMs` after the last arrival.
 */
import { ArrivalSchedule, type Stage } from './arrival-schedule.js';
import type { EngineRun } from './engine-run.js';
import type { Segment } from './segments.js';

/** Most arrivals fired in one tick before yielding to I/O (setImmediate). */
const MAX_BATCH = 512;

export interface OpenOptions {
  startRate: number;
  stages: readonly Stage[];
  maxInFlight: number;
  maxRequests?: number | undefined;
  /** Only this execution segment's arrivals (segments.ts). Default: the whole schedule. */
  segment?: Segment | undefined;
  warmupMs: number;
  drainTimeoutMs: number;
}

/** Runs the schedule to its end and waits for every request sent; resolves the measured sending time, ms. */
export async function runOpen(run: EngineRun, o: OpenOptions): Promise<{ measuredMs: number }> {
  const { clock, source } = run;
  const schedule = new ArrivalSchedule(o.startRate, o.stages, o.segment);
  const maxRequests = o.maxRequests ?? Number.POSITIVE_INFINITY;
  const t0 = run.t0;
  let generationMs = 0;
  let drainTimer: NodeJS.Timeout | undefined;

  await new Promise<void>((resolve) => {
    let next = schedule.next();
    let timer: NodeJS.Timeout | undefined;
    let taken = 0;
    let done = false;
    const end = (): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      run.stop.signal.removeEventListener('abort', end);
      generationMs = Math.min(clock.now() - t0, schedule.durationMs);
      resolve();
    };
    const tick = (): void => {
      timer = undefined;
      if (done) return;
      if (run.stopped) return end();
      let budget = MAX_BATCH;
      while (next !== undefined) {
        if (taken >= maxRequests) {
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
        const warm = next < o.warmupMs;
        if (run.inFlight >= o.maxInFlight) {
          if (!warm) run.dropped += 1;
        } else {
          const chain = source.take();
          if (chain === undefined) {
            next = undefined;
            break;
          }
          const planned = chain[0];
          if (planned === undefined) {
            if (!warm) run.dropped += 1; // every draw's state lane busy (source.ts)
            next = schedule.next();
            continue;
          }
          taken += 1;
          if (!warm) run.sendDelay.recordMs(now - intended);
          run.launch(planned, warm, intended);
        }
        next = schedule.next();
      }
      if (next === undefined) end();
      else timer = setTimeout(tick, Math.max(0, t0 + next - clock.now()));
    };
    if (run.stopped) return end();
    run.stop.signal.addEventListener('abort', end, { once: true });
    tick();
  });
  if (run.inFlight > 0) {
    drainTimer = setTimeout(() => run.abort.abort(), o.drainTimeoutMs);
    drainTimer.unref();
    await run.idle();
    clearTimeout(drainTimer);
  }
  return { measuredMs: Math.max(0, generationMs - o.warmupMs) };
}
