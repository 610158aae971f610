/**
 * Shards reading deliveries from a Redis Stream (docs/scale.md): two publishing HTTP
 * receivers behind "one URL", two stream receivers each matching only their own requestIds,
 * the ownership rule of stream-ownership.ts, counts per shard and summed. Real redis-server.
 */
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { ConfigError } from '../../src/errors.js';
import {
  createRelay,
  createStreamReceiver,
  receiverAccountingGap,
  type Relay,
  type ReceiverStats,
  type StreamReceiver,
  type StreamReceiverOptions,
} from '../../src/receiver/index.js';
import { answerPayload, errorPayload, intentPayload, messagePayload } from './payloads.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { testClock, type TestClock } from './test-clock.js';

const SECRET = 'whsec-shards-0123456789abcdef0123456789a';
const GRACE = 30_000;
let redis: RedisServer;
let dispatcher: Agent;
let streamNo = 0;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  dispatcher = new Agent({ connections: 64 });
});
afterAll(async () => {
  await dispatcher.close();
  await redis.dispose();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function relays(stream: string, n: number): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const r: Relay = createRelay({
      secret: SECRET,
      publish: { redisUrl: redis.url, stream, receiverId: `relay-${i}` },
    });
    closers.push(() => r.close());
    urls.push(await r.listen());
  }
  return urls;
}

async function shard(
  stream: string,
  name: string,
  options: Partial<StreamReceiverOptions> = {},
): Promise<StreamReceiver> {
  const s = await createStreamReceiver({
    redisUrl: redis.url,
    stream,
    shardId: name,
    orphanGraceMs: GRACE,
    closeSettleMs: 50,
    ...options,
  });
  closers.push(() => s.close());
  return s;
}

let turn = 0;
/** Posts to the relays in turn (a load balancer). */
async function deliver(urls: string[], body: unknown, secret = SECRET): Promise<number> {
  const url = urls[turn++ % urls.length] as string;
  const res = await request(`${url}?secret=${secret}`, { dispatcher, method: 'POST', body: JSON.stringify(body) });
  await res.body.dump();
  return res.statusCode;
}

function expectAddsUp(s: StreamReceiver): ReceiverStats {
  const stats = s.stats();
  expect(receiverAccountingGap(stats, s.parkedCount(), s.inboundStats())).toBeUndefined();
  return stats;
}

function sum(a: ReceiverStats, b: ReceiverStats): ReceiverStats {
  return Object.fromEntries(
    Object.keys(a).map((k) => [k, a[k as keyof ReceiverStats] + b[k as keyof ReceiverStats]]),
  ) as unknown as ReceiverStats;
}

const nextStream = (): string => `test:shards:${++streamNo}`;

describe('two relays, two shards', () => {
  it('each shard matches only its own requestIds, exactly once; counts add up per shard and summed', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 2);
    const clockA = testClock();
    const clockB = testClock();
    const a = await shard(stream, 'shard-a', { clock: clockA });
    const b = await shard(stream, 'shard-b', { clock: clockB });
    const idsA = Array.from({ length: 40 }, (_, i) => `tpa-a${i}`);
    const idsB = Array.from({ length: 40 }, (_, i) => `tpa-b${i}`);
    const waitsA = idsA.map((id) => a.waitFor(id, clockA.now() + 60_000));
    const waitsB = idsB.map((id) => b.waitFor(id, clockB.now() + 60_000));
    for (let i = 0; i < 40; i++) {
      expect(
        await deliver(urls, i % 5 === 0 ? errorPayload(idsA[i] as string) : answerPayload(idsA[i] as string)),
      ).toBe(200);
      expect(await deliver(urls, answerPayload(idsB[i] as string))).toBe(200);
    }
    await deliver(urls, answerPayload('tpa-a0')); // a duplicate of shard A's
    expect(await deliver(urls, answerPayload('tpa-a1'), 'wrong')).toBe(401); // bad secret: one shard counts it
    const matchesA = await Promise.all(waitsA);
    const matchesB = await Promise.all(waitsB);
    expect(matchesA.filter((m) => m.kind === 'failed')).toHaveLength(8);
    expect(matchesA.every((m) => m.kind !== 'timeout' && idsA.includes(m.payload.requestId))).toBe(true);
    expect(matchesB.every((m) => m.kind === 'answered' && idsB.includes(m.payload.requestId))).toBe(true);
    await Promise.all([a.drain(), b.drain()]);

    const sa = expectAddsUp(a);
    const sb = expectAddsUp(b);
    expect(sa).toMatchObject({ received: 82, matched: 40, duplicates: 1, foreign: 40 + (sa.badSecret === 1 ? 0 : 1) });
    expect(sb).toMatchObject({ received: 82, matched: 40, duplicates: 0, foreign: 41 + (sb.badSecret === 1 ? 0 : 1) });
    expect(sa.badSecret + sb.badSecret).toBe(1);
    const total = sum(sa, sb);
    expect(receiverAccountingGap(total, a.parkedCount() + b.parkedCount())).toBeUndefined();
    expect(total.received - total.foreign).toBe(82); // every entry counted once as someone's
    expect(total).toMatchObject({ matched: 80, orphans: 0, late: 0 });
  });

  it('2,000 requests over two relays and two shards, webhooks before and after waitFor, with duplicates: each matched once', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 2);
    const shards = [await shard(stream, 'shard-a'), await shard(stream, 'shard-b')];
    const limit = pLimit(32);
    const n = 2_000;
    const matches = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        limit(async () => {
          const id = `tpa-many-${i}`;
          const owner = shards[i % 2] as StreamReceiver;
          const deadline = systemClock.now() + 20_000;
          if (i % 3 === 0) {
            await deliver(urls, answerPayload(id)); // the webhook beats the acknowledgement
            return owner.waitFor(id, deadline);
          }
          const waiting = owner.waitFor(id, deadline);
          await deliver(urls, answerPayload(id));
          if (i % 10 === 1) await deliver(urls, answerPayload(id));
          return waiting;
        }),
      ),
    );
    expect(matches.filter((m) => m.kind === 'answered')).toHaveLength(n);
    await Promise.all(shards.map((s) => s.drain()));
    await expect.poll(() => shards.map((s) => (s.housekeep(), s.parkedCount()))).toEqual([0, 0]);
    const [sa, sb] = shards.map(expectAddsUp) as [ReceiverStats, ReceiverStats];
    const dups = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 0 && i % 10 === 1).length; // all shard B's (odd)
    const entries = n + dups;
    expect(sa).toMatchObject({ received: entries, matched: n / 2, duplicates: 0, orphans: 0, late: 0 });
    expect(sb).toMatchObject({ received: entries, matched: n / 2, duplicates: dups, orphans: 0, late: 0 });
    const total = sum(sa, sb);
    expect(total.received - total.foreign).toBe(entries);
  });

  it('a webhook that beats waitFor is held, then matched by its owner; the other shard counts it foreign', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    const clockA = testClock();
    const clockB = testClock();
    const a = await shard(stream, 'shard-a', { clock: clockA });
    const b = await shard(stream, 'shard-b', { clock: clockB });
    await deliver(urls, answerPayload('tpa-early'));
    await Promise.all([a.drain(), b.drain()]);
    expect([a.parkedCount(), b.parkedCount()]).toEqual([1, 1]);
    const match = await a.waitFor('tpa-early', clockA.now() + 60_000);
    expect(match.kind).toBe('answered');
    clockB.advance(GRACE); // B claims it as an orphan, loses to A: foreign
    await expect.poll(() => (b.housekeep(), b.parkedCount())).toBe(0);
    expect(expectAddsUp(a)).toMatchObject({ received: 1, matched: 1, foreign: 0 });
    expect(expectAddsUp(b)).toMatchObject({ received: 1, matched: 0, orphans: 0, foreign: 1 });
  });

  it('a held entry is settled before the grace period once its owner registered (housekeeping asks again)', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    const clockA = testClock();
    const clockB = testClock();
    const a = await shard(stream, 'shard-a', { clock: clockA });
    const b = await shard(stream, 'shard-b', { clock: clockB });
    await deliver(urls, answerPayload('tpa-quick'));
    await Promise.all([a.drain(), b.drain()]);
    expect((await a.waitFor('tpa-quick', clockA.now() + 60_000)).kind).toBe('answered');
    await expect.poll(() => (b.housekeep(), b.parkedCount())).toBe(0); // the test clock never moved
    expect(expectAddsUp(b)).toMatchObject({ received: 1, foreign: 1, orphans: 0 });
  });

  it('an entry nobody owns is an orphan of exactly one shard; its duplicates too; a later waitFor times out', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 2);
    const clocks: TestClock[] = [testClock(), testClock()];
    const shards = [
      await shard(stream, 'shard-a', { clock: clocks[0] }),
      await shard(stream, 'shard-b', { clock: clocks[1] }),
    ];
    await deliver(urls, answerPayload('tpa-nobody'));
    await deliver(urls, answerPayload('tpa-nobody'));
    await Promise.all(shards.map((s) => s.drain()));
    shards.forEach((s, i) => s.housekeep(clocks[i]?.advance(GRACE - 1)));
    expect(shards.map((s) => s.parkedCount())).toEqual([2, 2]); // not before the grace period
    clocks.forEach((c) => c.advance(1));
    await expect.poll(() => shards.map((s) => (s.housekeep(), s.parkedCount()))).toEqual([0, 0]);
    await deliver(urls, answerPayload('tpa-nobody')); // after the claim
    await Promise.all(shards.map((s) => s.drain()));
    const stats = shards.map(expectAddsUp);
    const total = sum(stats[0] as ReceiverStats, stats[1] as ReceiverStats);
    expect(total).toMatchObject({ received: 6, orphans: 1, duplicates: 2, foreign: 3, matched: 0 });
    const owner = stats.findIndex((s) => s.orphans === 1);
    expect(await shards[owner]?.waitFor('tpa-nobody', (clocks[owner] as TestClock).now() + 1000)).toEqual({
      kind: 'timeout',
    });
  });

  it('a delivery after its owner timed out is late for the owner and foreign for the other', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    const clockA = testClock();
    const a = await shard(stream, 'shard-a', { clock: clockA });
    const b = await shard(stream, 'shard-b', { clock: testClock() });
    const waiting = a.waitFor('tpa-slow', clockA.now() + 5_000);
    a.housekeep(clockA.advance(5_000));
    expect(await waiting).toEqual({ kind: 'timeout' });
    await deliver(urls, answerPayload('tpa-slow'));
    await Promise.all([a.drain(), b.drain()]);
    await expect.poll(() => b.stats().foreign).toBe(1);
    expect(expectAddsUp(a)).toMatchObject({ received: 1, late: 1 });
    expect(expectAddsUp(b)).toMatchObject({ received: 1, foreign: 1 });
  });

  it('close() reads to the end of the stream and settles what it holds', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    const a = await shard(stream, 'shard-a');
    const waiting = a.waitFor('tpa-mine', systemClock.now() + 60_000);
    await deliver(urls, answerPayload('tpa-mine'));
    await deliver(urls, answerPayload('tpa-stray'));
    await a.close();
    expect((await waiting).kind).toBe('answered');
    expect(a.parkedCount()).toBe(0);
    expect(expectAddsUp(a)).toMatchObject({ received: 2, matched: 1, orphans: 1 });
  });
});

describe('stream receiver: times, messages, start', () => {
  it('maps the relay stamp onto the shard clock (answer latency) and reports the skew', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 2);
    const s = await shard(stream, 'shard-t');
    const before = systemClock.now();
    const waiting = s.waitFor('tpa-time', before + 60_000);
    const relay = `relay-${turn % 2}`;
    await deliver(urls, answerPayload('tpa-time'));
    const after = systemClock.now();
    const m = await waiting;
    expect(m.kind).toBe('answered');
    if (m.kind === 'timeout') return;
    // Same machine: the stamp mapped through Redis TIME lands inside [before, after] up to the
    // clocks' ms granularity and the round trips.
    expect(m.receivedAt).toBeGreaterThanOrEqual(before - 5);
    expect(m.receivedAt).toBeLessThanOrEqual(after + 5);
    const skew = s.clockSkew();
    expect(skew?.rttUs).toBeGreaterThan(0);
    expect(skew?.receivers.map((r) => r.receiverId)).toEqual([relay]);
    expect(Math.abs(skew?.receivers[0]?.receiverMinusLocalUs ?? Infinity)).toBeLessThan(5_000);
  });

  it('keeps forwarded messages and intents from the stream for waitForMessage / waitForIntent', async () => {
    const stream = nextStream();
    const relay = createRelay({
      verifyToken: 'tok-0123456789abcdef0123456789abcdef',
      intentSecret: 'int-0123456789abcdef0123456789abcdef',
      publish: { redisUrl: redis.url, stream },
    });
    closers.push(() => relay.close());
    await relay.listen();
    const urls = relay.urls();
    const s = await shard(stream, 'shard-m');
    const after = systemClock.now();
    const reply = s.waitForMessage({ customerId: 1001, after, match: { type: 'ai' } }, after + 60_000);
    const post = async (url: string, body: unknown): Promise<number> => {
      const res = await request(url, { dispatcher, method: 'POST', body: JSON.stringify(body) });
      await res.body.dump();
      return res.statusCode;
    };
    expect(
      await post(`${urls?.messages}?verify_token=tok-0123456789abcdef0123456789abcdef`, messagePayload(1001, 'human')),
    ).toBe(200);
    expect(
      await post(
        `${urls?.messages}?verify_token=tok-0123456789abcdef0123456789abcdef`,
        messagePayload(1001, 'ai', 'hi'),
      ),
    ).toBe(200);
    expect(await post(`${urls?.messages}?verify_token=wrong`, messagePayload(1001, 'ai', 'forged'))).toBe(403);
    expect(await post(urls?.intents ?? '', intentPayload('int-0123456789abcdef0123456789abcdef'))).toBe(200);
    const m = await reply;
    expect(m.kind === 'message' && m.payload.content.value).toBe('hi');
    const i = await s.waitForIntent({ after, intent: 'purchase' }, systemClock.now() + 10_000);
    expect(i.kind === 'intent' && i.payload.secret).toBe('[REDACTED]');
    await s.drain();
    expect(s.inboundStats().messages).toMatchObject({ received: 3, accepted: 2, badSecret: 1, claimed: 1 });
    expect(s.messagesOf(1001)).toHaveLength(2);
    expectAddsUp(s);
  });

  it('reads from its start: entries XADDed before it are not its own', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    await deliver(urls, answerPayload('tpa-before'));
    const s = await shard(stream, 'shard-late');
    await deliver(urls, answerPayload('tpa-after'));
    await s.drain();
    expect(s.stats().received).toBe(1);
    const whole = await shard(stream, 'shard-whole', { from: '0-0' });
    await whole.drain();
    expect(whole.stats().received).toBe(2);
  });

  it('counts an entry that does not decode as malformed, once across shards', async () => {
    const stream = nextStream();
    const a = await shard(stream, 'shard-a');
    const b = await shard(stream, 'shard-b');
    const raw = new Redis(redis.url);
    await raw.xadd(stream, '*', 'v', '9', 'something', 'else');
    raw.disconnect();
    await Promise.all([a.drain(), b.drain()]);
    const total = sum(expectAddsUp(a), expectAddsUp(b));
    expect(total).toMatchObject({ received: 2, malformed: 1, foreign: 1 });
  });

  it('Redis gone at close: what the shard still holds becomes its own orphan, and the counts still add up', async () => {
    const stream = nextStream();
    const urls = await relays(stream, 1);
    const s = await shard(stream, 'shard-alone', { connectTimeoutMs: 300, closeSettleMs: 10 });
    await deliver(urls, answerPayload('tpa-stranded'));
    await s.drain();
    expect(s.parkedCount()).toBe(1);
    await redis.stop();
    try {
      await s.close();
    } finally {
      await redis.start();
    }
    expect(s.parkedCount()).toBe(0);
    expect(expectAddsUp(s)).toMatchObject({ received: 1, orphans: 1 });
  });

  it('throws ConfigError when Redis cannot be reached', async () => {
    const err = await createStreamReceiver({
      redisUrl: 'redis://127.0.0.1:1',
      stream: 's',
      connectTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
  });
});
