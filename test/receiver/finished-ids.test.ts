import { describe, expect, it } from 'vitest';
import { FINISHED, FinishedIds } from '../../src/receiver/finished-ids.js';

describe('FinishedIds (FIFO of finishes)', () => {
  it('keeps an id finished again until rememberMs after its latest finish', () => {
    const ids = new FinishedIds(1000, 10);
    ids.add('a', FINISHED.TIMED_OUT, 0);
    ids.add('b', FINISHED.MATCHED, 100);
    ids.add('a', FINISHED.MATCHED, 900);
    ids.expire(1500); // a's first finish (0) and b (100) are over 1000 ms old, a's latest (900) is not
    expect([ids.get('a'), ids.get('b'), ids.size]).toEqual([FINISHED.MATCHED, undefined, 1]);
    ids.expire(1901);
    expect([ids.get('a'), ids.size]).toEqual([undefined, 0]);
  });

  it('holds maxEntries distinct ids across many finishes, oldest first out, and forgets all at clear()', () => {
    const ids = new FinishedIds(600_000, 1000);
    for (let i = 0; i < 20_000; i++) ids.add(`id${i}`, i % 2 === 0 ? FINISHED.MATCHED : FINISHED.ORPHANED, i);
    expect(ids.size).toBe(1000);
    expect([ids.get('id18999'), ids.get('id19000'), ids.get('id19999')]).toEqual([
      undefined,
      FINISHED.MATCHED,
      FINISHED.ORPHANED,
    ]);
    ids.clear();
    expect([ids.size, ids.get('id19999')]).toEqual([0, undefined]);
    ids.add('x', FINISHED.FOREIGN, 1);
    expect(ids.get('x')).toBe(FINISHED.FOREIGN);
  });
});
