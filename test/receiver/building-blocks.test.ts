import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { AnswerPayload } from '../../src/contract/index.js';
import { Correlator } from '../../src/receiver/correlator.js';
import { DeadlineHeap } from '../../src/receiver/deadline-heap.js';
import type { DeliveredMatch } from '../../src/receiver/types.js';
import { FINISHED, FinishedIds } from '../../src/receiver/finished-ids.js';
import { Inbox } from '../../src/receiver/inbox.js';
import { redactRedisUrl } from '../../src/redact.js';
import { createSecretCheck, redactSecretParam } from '../../src/receiver/secret.js';
import { decodeEntry, encodeEntry } from '../../src/receiver/stream-entry.js';
import { compareStreamIds } from '../../src/receiver/stream-reader.js';
import { testClock } from './test-clock.js';

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
    expect([ok('s3cret'), ok('s3cret '), ok(''), ok(undefined), ok(['s3cret'])]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    // The secret repeated, a prefix of it, one character off: the comparison cycles the secret
    // over the provided value's length, so each must still fail on content or length.
    expect([ok('s3crets3cret'), ok('s3cre'), ok('s3creT'), ok('S3cret'), ok(12)]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('redacts the secret and verify_token query parameters for logs', () => {
    expect(redactSecretParam('/webhook?a=1&secret=abc&b=2')).toBe('/webhook?a=1&secret=[REDACTED]&b=2');
    expect(redactSecretParam('/messages?verify_token=abc')).toBe('/messages?verify_token=[REDACTED]');
  });

  it('redacts the password of a Redis URL', () => {
    expect(redactRedisUrl('redis://user:hunter2@redis.internal:6379/2')).toBe('redis://user:***@redis.internal:6379/2');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactRedisUrl('not a url')).toBe('<redis url>');
  });
});

describe('Inbox bounds', () => {
  it('one busy customer past its ring keeps memory bounded and the global order right', () => {
    const clock = testClock();
    const inbox = new Inbox<{ receivedAt: number; claimed: boolean; n: number }>(clock, { perKey: 3, max: 5 });
    for (let n = 0; n < 20_000; n++) inbox.add('busy', { receivedAt: n, claimed: false, n });
    expect(inbox.size).toBe(3);
    inbox.add('a', { receivedAt: 1, claimed: false, n: -1 });
    inbox.add('b', { receivedAt: 1, claimed: false, n: -2 });
    inbox.add('c', { receivedAt: 1, claimed: false, n: -3 });
    expect(inbox.list('busy').map((i) => i.n)).toEqual([19_998, 19_999]);
    expect(inbox.size).toBe(5);
    expect(inbox.counts.dropped).toBe(20_000 - 2);
  });
});

describe('stream entry', () => {
  it('round-trips through the flat XADD field list', () => {
    const fields = {
      route: 'answer' as const,
      verdict: 'ok' as const,
      atUs: 1_767_225_600_123_456,
      skewUs: -42,
      rttUs: 180,
      receiverId: 'h:1',
      requestId: 'tpa-1',
      customerId: undefined,
      body: '{"requestId":"tpa-1"}',
    };
    expect(decodeEntry('1-0', encodeEntry(fields))).toEqual({ id: '1-0', ...fields });
  });

  it('does not decode another format or version', () => {
    expect(decodeEntry('1-0', ['v', '2', 'route', 'answer', 'verdict', 'ok', 'at', '1', 'body', '{}'])).toBeUndefined();
    expect(
      decodeEntry('1-0', ['v', '1', 'route', 'answer', 'verdict', 'maybe', 'at', '1', 'body', '{}']),
    ).toBeUndefined();
    expect(decodeEntry('1-0', ['hello', 'world'])).toBeUndefined();
  });

  it('orders stream IDs numerically', () => {
    expect(compareStreamIds('10-0', '9-5')).toBe(1);
    expect(compareStreamIds('9-10', '9-9')).toBe(1);
    expect(compareStreamIds('9-9', '9-9')).toBe(0);
    expect(compareStreamIds('1767225600000-0', '1767225600001-0')).toBe(-1);
  });
});

describe('Correlator', () => {
  const make = (clock = testClock()) => ({
    clock,
    c: new Correlator({ clock, orphanGraceMs: 1_000, maxParked: 100, rememberMs: 600_000, maxRemembered: 100_000 }),
  });
  const match = (at: number, payload = {} as AnswerPayload): DeliveredMatch => ({
    kind: 'answered',
    payload,
    receivedAt: at,
    contract: { ok: true, value: undefined, violations: [], unverified: [], unknownFields: [] },
  });

  it('an abort times out exactly the waiters of that signal, whether it has a few (listed) or many (walked)', async () => {
    const { clock, c } = make();
    const few = new AbortController();
    const many = new AbortController();
    const other = new AbortController();
    const deadline = clock.now() + 60_000;
    const fewWaits = ['f1', 'f2', 'f3'].map((id) => c.waitFor(id, deadline, few.signal));
    const manyIds = Array.from({ length: 50 }, (_, i) => `m${i}`);
    const manyWaits = manyIds.map((id) => c.waitFor(id, deadline, many.signal));
    const otherWait = c.waitFor('o1', deadline, other.signal);
    c.deliver('f2', match(clock.now()), clock.now()); // matched before the abort: its list slot is stale
    c.deliver('m7', match(clock.now()), clock.now());
    few.abort();
    many.abort();
    expect((await Promise.all(fewWaits)).map((m) => m.kind)).toEqual(['timeout', 'answered', 'timeout']);
    const kinds = (await Promise.all(manyWaits)).map((m) => m.kind);
    expect(kinds.filter((k) => k === 'answered')).toHaveLength(1);
    expect(kinds[7]).toBe('answered');
    expect(c.pending).toBe(1);
    c.deliver('o1', match(clock.now()), clock.now());
    expect((await otherWait).kind).toBe('answered');
    c.deliver('m3', match(clock.now()), clock.now());
    expect(c.counts).toMatchObject({ matched: 3, late: 1 }); // m3 timed out by the abort
  });

  it('a matched waiter keeps nothing of its match alive, though its deadline slot stays until due', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { clock, c } = make();
    const delivered = await (async () => {
      const payload = { answer: 'x'.repeat(10_000) } as unknown as AnswerPayload;
      const w = c.waitFor('tpa-1', clock.now() + 60_000);
      c.deliver('tpa-1', match(clock.now(), payload), clock.now());
      expect((await w).kind).toBe('answered');
      return new WeakRef(payload);
    })();
    expect([c.pending, c.deadlineSlots]).toEqual([0, 1]);
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef's target lives to the end of the job that made it
    gc();
    expect(delivered.deref()).toBeUndefined();
  });

  it('deadline slots of matched waiters are rebuilt away, and pending deadlines still fire on time', async () => {
    const { clock, c } = make();
    const long = c.waitFor('long', clock.now() + 10_000);
    for (let i = 0; i < 5_000; i++) {
      const id = `tpa-${i}`;
      const w = c.waitFor(id, clock.now() + 5_000);
      c.deliver(id, match(clock.now()), clock.now());
      expect((await w).kind).toBe('answered');
    }
    expect(c.deadlineSlots).toBeLessThanOrEqual(2 * c.pending + 64);
    const short = c.waitFor('short', clock.now() + 5_000);
    c.housekeep(clock.advance(5_000));
    expect((await short).kind).toBe('timeout');
    expect(c.pending).toBe(1);
    c.housekeep(clock.advance(5_000));
    expect((await long).kind).toBe('timeout');
    expect(c.counts).toMatchObject({ matched: 5_000, late: 0 });
  });
});
