/** A clock tests move by hand: now() only changes when the test says so, and a sleep ends when it has been moved far enough. */
import type { Clock } from '../../src/clock.js';

export interface TestClock extends Clock {
  advance(ms: number): number;
}

export function testClock(startMs = 1_000, epochMs = Date.UTC(2026, 0, 1)): TestClock {
  let now = startMs;
  const sleepers = new Set<{ until: number; wake(): void }>();
  return {
    now: () => now,
    wallNow: () => new Date(epochMs + now),
    sleep(ms, signal) {
      if (ms <= 0 || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const sleeper = {
          until: now + ms,
          wake: () => {
            sleepers.delete(sleeper);
            signal?.removeEventListener('abort', sleeper.wake);
            resolve();
          },
        };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', sleeper.wake, { once: true });
      });
    },
    advance(ms) {
      now += ms;
      for (const s of [...sleepers]) if (s.until <= now) s.wake();
      return now;
    },
  };
}
