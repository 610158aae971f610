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

  it('holds waiters beside finished ids: a waiter is not counted, not bounded, and settles in place', () => {
    const ids = new FinishedIds<{ name: string }>(1000, 2);
    const w = { name: 'waiter' };
    ids.wait('w', w);
    expect([ids.entry('w'), ids.get('w'), ids.size]).toEqual([w, undefined, 0]);
    for (let i = 0; i < 5; i++) ids.add(`f${i}`, FINISHED.MATCHED, i); // the bound drops finished ids only
    expect([ids.entry('w'), ids.size, ids.get('f2'), ids.get('f4')]).toEqual([w, 2, undefined, FINISHED.MATCHED]);
    ids.settle('w', FINISHED.TIMED_OUT, 10);
    expect([ids.get('w'), ids.size, ids.get('f3')]).toEqual([FINISHED.TIMED_OUT, 2, undefined]);
    const e = ids.entry('w');
    expect(typeof e === 'number' && ids.stateOf(e)).toBe(FINISHED.TIMED_OUT);
    ids.expire(1011);
    expect([ids.entry('w'), ids.size]).toEqual([undefined, 0]);
  });
});
