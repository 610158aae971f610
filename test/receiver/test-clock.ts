/** A clock tests move by hand: now() only changes when the test says so. */
import type { Clock } from '../../src/clock.js';

export interface TestClock extends Clock {
  advance(ms: number): number;
}

export function testClock(startMs = 1_000, epochMs = Date.UTC(2026, 0, 1)): TestClock {
  let now = startMs;
  return {
    now: () => now,
    wallNow: () => new Date(epochMs + now),
    advance(ms) {
      now += ms;
      return now;
    },
  };
}
