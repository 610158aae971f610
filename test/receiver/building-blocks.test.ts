import { describe, expect, it } from 'vitest';
import { DeadlineHeap } from '../../src/receiver/deadline-heap.js';
import { FINISHED, FinishedIds } from '../../src/receiver/finished-ids.js';
import { createSecretCheck, redactSecretParam } from '../../src/receiver/secret.js';

describe('DeadlineHeap', () => {
  it('pops ids in deadline order', () => {
    const heap = new DeadlineHeap();
    const deadlines = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    deadlines.forEach((d, i) => heap.push(d, `id${i}`));
    const out: number[] = [];
    while (heap.size > 0) {
      out.push(heap.peek());
      heap.pop();
    }
    expect(out).toEqual([...deadlines].sort((a, b) => a - b));
    expect(heap.peek()).toBe(Infinity);
  });
});

describe('FinishedIds', () => {
  it('remembers the state and forgets after rememberMs', () => {
    const ids = new FinishedIds(1000, 10);
    ids.add('a', FINISHED.MATCHED, 100);
    ids.add('b', FINISHED.TIMED_OUT, 600.7);
    ids.add('c', FINISHED.ORPHANED, 900);
    expect([ids.get('a'), ids.get('b'), ids.get('c'), ids.get('z')]).toEqual([0, 1, 2, undefined]);
    ids.expire(1200);
    expect([ids.get('a'), ids.get('b')]).toEqual([undefined, FINISHED.TIMED_OUT]);
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const ids = new FinishedIds(60_000, 3);
    for (let i = 0; i < 5; i++) ids.add(`id${i}`, FINISHED.MATCHED, i);
    expect(ids.size).toBe(3);
    expect(ids.get('id1')).toBeUndefined();
    expect(ids.get('id4')).toBe(FINISHED.MATCHED);
  });
});

describe('webhook secret', () => {
  it('compares exactly and rejects non-strings', () => {
    const ok = createSecretCheck('s3cret');
    expect([ok('s3cret'), ok('s3cret '), ok(''), ok(undefined), ok(['s3cret'])]).toEqual([true, false, false, false, false]);
  });

  it('redacts the secret query parameter for logs', () => {
    expect(redactSecretParam('/webhook?a=1&secret=abc&b=2')).toBe('/webhook?a=1&secret=[REDACTED]&b=2');
  });
});
