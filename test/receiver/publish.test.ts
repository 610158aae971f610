/**
 * The relay (createRelay): HTTP receivers that XADD every delivery to a Redis Stream before
 * acknowledging it, against a real redis-server started by the test.
 */
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import {
  createRelay,
  receiverAccountingGap,
  ResponsePlan,
  status,
  type Relay,
  type RelayOptions,
} from '../../src/receiver/index.js';
import { decodeEntry, type StreamEntry } from '../../src/receiver/stream-entry.js';
import { answerPayload, intentPayload, messagePayload } from './payloads.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const SECRET = 'whsec-publish-0123456789abcdef0123456789';
const TOKEN = 'verify-publish-0123456789abcdef012345678';
const INTENT_SECRET = 'intent-publish-0123456789abcdef01234567';
let redis: RedisServer;
let client: Redis;
let dispatcher: Agent;
const receivers: Relay[] = [];
let streamNo = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.url, { lazyConnect: true });
  await client.connect();
  dispatcher = new Agent({ connections: 64 });
});
afterAll(async () => {
  client.disconnect();
  await dispatcher.close();
  await redis.dispose();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function publishing(stream: string, options: Partial<RelayOptions> = {}): Promise<{ r: Relay; url: string }> {
  const r = createRelay({
    secret: SECRET,
    verifyToken: TOKEN,
    intentSecret: INTENT_SECRET,
    publish: { redisUrl: redis.url, stream, commandTimeoutMs: 500, receiverId: `rcv-${receivers.length}` },
    ...options,
  });
  receivers.push(r);
  await r.listen();
  return { r, url: r.urls()?.answer.replace(/\/webhook$/, '') ?? '' };
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await request(url, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  await res.body.dump();
  return res.statusCode;
}

async function entries(stream: string): Promise<StreamEntry[]> {
  const raw = await client.xrange(stream, '-', '+');
  return raw.map(([id, fields]) => decodeEntry(id, fields) as StreamEntry);
}

const nextStream = (): string => `test:deliveries:${++streamNo}`;

describe('publish mode: every delivery goes to the stream before it is acknowledged', () => {
  it('two receivers publish answer, message and intent deliveries (and refused ones) to one stream', async () => {
    const stream = nextStream();
    const a = await publishing(stream);
    const b = await publishing(stream);
    const before = Date.now() * 1000;
    expect(await post(`${a.url}/webhook?secret=${SECRET}`, answerPayload('tpa-a1'))).toBe(200);
    expect(await post(`${b.url}/webhook?secret=${SECRET}`, answerPayload('tpa-b1'))).toBe(200);
    expect(await post(`${a.url}/webhook?secret=wrong`, answerPayload('tpa-bad'))).toBe(401);
    expect(await post(`${a.url}/webhook?secret=${SECRET}`, '{"no":"requestId"}')).toBe(400);
    expect(await post(`${b.url}/messages?verify_token=${TOKEN}`, messagePayload(1001))).toBe(200);
    expect(await post(`${b.url}/messages?verify_token=nope`, messagePayload(1001))).toBe(403);
    expect(await post(`${a.url}/intents`, intentPayload(INTENT_SECRET))).toBe(200);
    expect(await post(`${a.url}/intents`, intentPayload('wrong-intent-secret'))).toBe(403);
    const after = Date.now() * 1000 + 1000;

    const got = await entries(stream);
    expect(got.map((e) => [e.route, e.verdict, e.requestId ?? e.customerId])).toEqual([
      ['answer', 'ok', 'tpa-a1'],
      ['answer', 'ok', 'tpa-b1'],
      ['answer', 'bad-secret', 'tpa-bad'],
      ['message', 'ok', '1001'],
      ['message', 'bad-secret', '1001'],
      ['intent', 'ok', 'b9d35283-131d-4c85-9d66-c43d830daec0'],
      ['intent', 'bad-secret', 'b9d35283-131d-4c85-9d66-c43d830daec0'],
    ]);
    expect(got.map((e) => e.receiverId)).toEqual(['rcv-0', 'rcv-1', 'rcv-0', 'rcv-1', 'rcv-1', 'rcv-0', 'rcv-0']);
    for (const e of got) {
      expect(e.atUs).toBeGreaterThanOrEqual(before - 50_000); // wall clock, us (same machine)
      expect(e.atUs).toBeLessThanOrEqual(after + 50_000);
      expect(Math.abs(e.skewUs)).toBeLessThan(50_000);
    }
    expect(JSON.parse(got[0]?.body ?? '')).toEqual(answerPayload('tpa-a1'));
    const raw = JSON.stringify(await client.xrange(stream, '-', '+'));
    for (const secret of [SECRET, TOKEN, INTENT_SECRET]) expect(raw).not.toContain(secret);
    expect(JSON.parse(got[5]?.body ?? '').secret).toBe('[REDACTED]');

    const sa = a.r.stats();
    expect(sa).toMatchObject({ received: 3, published: 1, badSecret: 1, malformed: 1, matched: 0, unavailable: 0 });
    expect(b.r.stats()).toMatchObject({ received: 1, published: 1 });
    expect(b.r.inboundStats().messages).toMatchObject({ received: 2, accepted: 1, badSecret: 1 });
    expect(a.r.inboundStats().intents).toMatchObject({ received: 2, accepted: 1, badSecret: 1 });
    for (const { r } of [a, b])
      expect(receiverAccountingGap(r.stats(), r.parkedCount(), r.inboundStats())).toBeUndefined();
    expect(a.r.clockSkew()?.rttUs).toBeGreaterThan(0);
  });

  it('correlates nothing itself: a relay has no waitFor (the shards read the stream)', async () => {
    const { r } = await publishing(nextStream());
    expect('waitFor' in r).toBe(false);
    expect('waitForMessage' in r).toBe(false);
    expect(r.parkedCount()).toBe(0);
  });

  it('a response plan in front of the publisher: a 503 attempt is not published, its retry is', async () => {
    const stream = nextStream();
    const plan = new ResponsePlan();
    plan.set('tpa-plan', [status(503)]);
    const { r, url } = await publishing(stream, { responsePlan: plan });
    expect(await post(`${url}/webhook?secret=${SECRET}`, answerPayload('tpa-plan'))).toBe(503);
    expect(await post(`${url}/webhook?secret=${SECRET}`, answerPayload('tpa-plan'))).toBe(200);
    expect((await entries(stream)).map((e) => e.requestId)).toEqual(['tpa-plan']);
    expect(plan.attempts('tpa-plan').map((a) => a.status)).toEqual([503, 200]);
    expect(r.stats()).toMatchObject({ received: 2, unavailable: 1, published: 1 });
  });

  it('trims the stream to about maxLen entries', async () => {
    const stream = nextStream();
    const { url } = await publishing(stream, { publish: { redisUrl: redis.url, stream, maxLen: 10 } });
    const limit = pLimit(8);
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        limit(() => post(`${url}/webhook?secret=${SECRET}`, answerPayload(`tpa-t${i}`))),
      ),
    );
    const len = await client.xlen(stream);
    expect(len).toBeLessThan(300);
    expect(len).toBeGreaterThanOrEqual(10);
  });

  it('listen() throws ConfigError naming the URL without its password when Redis is unreachable', async () => {
    const r = createRelay({
      publish: { redisUrl: 'redis://:hunter2@127.0.0.1:1/0', stream: 's', connectTimeoutMs: 500 },
    });
    receivers.push(r);
    const err = await r.listen().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe('DROIDCHECK_ERR_CONFIG');
    expect((err as Error).message).toContain('127.0.0.1:1');
    expect((err as Error).message).not.toContain('hunter2');
  });
});

describe('publish mode: Redis down, close mid-stream', () => {
  it('answers 503 (counted unavailable) and /healthz 503 while Redis is down, and recovers', async () => {
    const stream = nextStream();
    const { r, url } = await publishing(stream);
    const health = async (): Promise<number> => (await r.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
    expect(await health()).toBe(200);
    await redis.stop();
    try {
      expect(await post(`${url}/webhook?secret=${SECRET}`, answerPayload('tpa-down'))).toBe(503);
      expect(await post(`${url}/messages?verify_token=${TOKEN}`, messagePayload(5))).toBe(503);
      expect(await post(`${url}/webhook?secret=wrong`, answerPayload('tpa-down-bad'))).toBe(503);
      expect(await health()).toBe(503);
    } finally {
      await redis.start();
    }
    await expect.poll(health, { interval: 100 }).toBe(200);
    expect(await post(`${url}/webhook?secret=${SECRET}`, answerPayload('tpa-up'))).toBe(200);
    expect(r.stats()).toMatchObject({ received: 3, unavailable: 2, published: 1, badSecret: 0 });
    expect(r.inboundStats().messages).toMatchObject({ received: 1, unavailable: 1 });
    expect(receiverAccountingGap(r.stats(), 0, r.inboundStats())).toBeUndefined();
    expect((await entries(stream)).map((e) => e.requestId)).toEqual(['tpa-up']);
  });

  it('a receiver closed mid-stream loses nothing it acknowledged', async () => {
    const stream = nextStream();
    const { r, url } = await publishing(stream);
    const ids = Array.from({ length: 600 }, (_, i) => `tpa-close-${i}`);
    const acked: string[] = [];
    const refused: string[] = [];
    const limit = pLimit(32);
    let sent = 0;
    let closing: Promise<void> | undefined;
    await Promise.all(
      ids.map((id) =>
        limit(async () => {
          if (++sent === 200) closing = r.close(); // mid-stream
          const status = await post(`${url}/webhook?secret=${SECRET}`, answerPayload(id)).catch(() => 0);
          (status === 200 ? acked : refused).push(id);
        }),
      ),
    );
    await closing;
    expect(acked.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const inStream = new Set((await entries(stream)).map((e) => e.requestId));
    expect(acked.filter((id) => !inStream.has(id))).toEqual([]);
    expect(r.stats().published).toBe(acked.length);
  });
});
