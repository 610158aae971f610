/**
 * The injected time source, and the one way src/ sleeps (leaf module: imports nothing of ours).
 * `now()` is monotonic milliseconds (performance.now()); `wallNow()` is the wall clock for
 * timestamps in records and reports; `sleep(ms)` waits `ms` of this clock's time, so a part
 * that measures a deadline with `now()` waits for it on the same clock (a test's clock moves
 * both at once, and nothing sleeps for real).
 */
import { setTimeout as timer } from 'node:timers/promises';

export interface Clock {
  /** Monotonic time in ms; only differences are meaningful. */
  now(): number;
  /** Wall-clock time, for ISO timestamps in records and reports. */
  wallNow(): Date;
  /** Resolves after `ms` of this clock's time, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface SleepOptions {
  /** Ends the sleep early (it then resolves, it does not reject). */
  signal?: AbortSignal | undefined;
  /** False: the timer alone does not keep the process alive (a server that listens does). Default true. */
  ref?: boolean;
}

/**
 * The one sleep of src/ (node:timers/promises): resolves after `ms`, or at once when
 * `o.signal` aborts or `ms` <= 0; never rejects. A part with an injected clock sleeps through
 * `clock.sleep` instead, which is this for the system clock.
 */
export function sleep(ms: number, o: SleepOptions = {}): Promise<void> {
  if (o.signal?.aborted || ms <= 0) return Promise.resolve();
  return timer(ms, undefined, { ...(o.signal && { signal: o.signal }), ...(o.ref === false && { ref: false }) }).catch(
    () => undefined,
  );
}

/** The real clock: performance.now(), new Date() and a timer. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => new Date(),
  sleep: (ms, signal) => sleep(ms, { signal }),
};
