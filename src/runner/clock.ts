/**
 * Injected time source (docs/interfaces.md, Clock).
 * `now()` is monotonic milliseconds (performance.now()); `wallNow()` is the wall clock for reports.
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
