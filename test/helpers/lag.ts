/**
 * How late this process's timers fired while a timing test's run went on: the clock a timing test
 * can trust on a machine it shares. A server in this process (the emulator, a target, the
 * receiver) fires its timers late by as much as the event loop is late, and the harness stamps
 * arrivals late by as much; a busy machine (other jobs, four busy loops beside the suite) makes
 * that tens or hundreds of milliseconds. A timing test allows this measured lateness on top of its
 * own tolerance, so an idle machine judges as strictly as before and a busy one judges the harness,
 * not the machine. Measured by perf_hooks.monitorEventLoopDelay, which samples the loop every
 * RESOLUTION_MS.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The sampling period, ms (every sample is at least this late; it is taken off). */
const RESOLUTION_MS = 5;

export interface Lag {
  /** The latest a timer fired, ms past its time. */
  maxMs: number;
  /** The 99th percentile of that lateness, ms (what a p99 or p50 of many requests can suffer). */
  p99Ms: number;
}

/** Runs `run` and returns its result with the lateness of this process's timers meanwhile. */
export async function measuringLag<T>(run: () => Promise<T>): Promise<[T, Lag]> {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  try {
    const result = await run();
    const late = (ns: number): number => Math.max(0, ns / 1e6 - RESOLUTION_MS);
    return [result, { maxMs: late(delay.max), p99Ms: late(delay.percentile(99)) }];
  } finally {
    delay.disable();
  }
}
