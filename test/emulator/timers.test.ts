/** TimerSet.sleep: an injected delay (a fault profile's `delay`) is never shorter than asked. */
import { describe, expect, it } from 'vitest';
import { TimerSet } from '../../src/emulator/timers.js';

describe('TimerSet.sleep', () => {
  it('lasts at least the delay, every time (a bare setTimeout fires up to 1 ms early now and then)', async () => {
    const timers = new TimerSet();
    const short: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await timers.sleep(2);
      const slept = performance.now() - t0;
      if (slept < 2) short.push(slept);
    }
    expect(short).toEqual([]);
    timers.close();
  });

  it('resolves false at once when closed', async () => {
    const timers = new TimerSet();
    const slept = timers.sleep(10_000);
    timers.close();
    expect(await slept).toBe(false);
  });
});
