/**
 * The injected time source (leaf module: imports nothing of ours).
 * `now()` is monotonic milliseconds (performance.now()); `wallNow()` is the wall clock for
 * timestamps in records and reports.
 */
export interface Clock {
  /** Monotonic time in ms; only differences are meaningful. */
  now(): number;
  /** Wall-clock time, for ISO timestamps in records and reports. */
  wallNow(): Date;
}

/** The real clock: performance.now() and new Date(). */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => new Date(),
};
