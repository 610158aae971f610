/**
 * The wiring rule (src/receiver/wiring.ts) on a shard that reads its deliveries from a Redis
 * Stream (`--deliveries`): a relay (`droidcheck receive`) publishes every delivery, refused ones
 * too; the shard judges what it read. Real redis-server, real HTTP relay on 127.0.0.1 port 0.
 */
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, createStreamReceiver, ORPHAN_SUSPECT_MS, type StreamReceiver } from '../../src/receiver/index.js';
import { answerPayload } from './payloads.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { testClock } from './test-clock.js';

const SECRET = 'wiring-stream-secret-0123456789abcdefghi';
const WRONG = 'wiring-stream-WRONG-0123456789abcdefghij';
let redis: RedisServer;
let dispatcher: Agent;
let streamNo = 0;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  dispatcher = new Agent({ connections: 8 });
});
afterAll(async () => {
  await dispatcher.close();
  await redis.dispose();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A relay and a shard on a fresh stream; `post` delivers through the relay. */
async function rig(): Promise<{
  shard: StreamReceiver;
  post: (body: unknown, secret?: string) => Promise<number>;
  clock: ReturnType<typeof testClock>;
}> {
  const stream = `droidcheck:wiring:${process.pid}:${++streamNo}`;
  const relay = createRelay({ secret: SECRET, publish: { redisUrl: redis.url, stream } });
  closers.push(() => relay.close());
  const url = await relay.listen();
  const clock = testClock();
  const shard = await createStreamReceiver({ redisUrl: redis.url, stream, shardId: 'a', clock, closeSettleMs: 50 });
  closers.push(() => shard.close());
  const post = async (body: unknown, secret = SECRET): Promise<number> => {
    const res = await request(`${url}?secret=${encodeURIComponent(secret)}`, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.body.dump();
    return res.statusCode;
  };
  return { shard, post, clock };
}

describe('a shard judges the wiring from the stream', () => {
  it('3 entries refused for a wrong secret at the relay: miswired (bad-secret)', async () => {
    const { shard, post } = await rig();
    for (let i = 0; i < 2; i++) expect(await post(answerPayload(`tpa-w-${i}`), WRONG)).toBe(401);
    await shard.drain();
    expect(shard.wiring()).toEqual({ state: 'unknown' });
    expect(await post(answerPayload('tpa-w-2'), WRONG)).toBe(401);
    await shard.drain();
    expect(shard.wiring()).toEqual({ state: 'miswired', fault: { kind: 'bad-secret', deliveries: 3, droidIds: [] } });
  });

  it("another droid's answers held 2 s with no owner: miswired (other-droid); its own droid's: never", async () => {
    const { shard, post, clock } = await rig();
    for (let i = 0; i < 3; i++) expect(await post({ ...answerPayload(`tpa-o-${i}`), droidId: 8 })).toBe(200);
    await shard.drain();
    expect(shard.wiring({ droidId: 7 })).toEqual({ state: 'unknown' });
    clock.advance(ORPHAN_SUSPECT_MS);
    expect(shard.wiring({ droidId: 7 })).toEqual({
      state: 'miswired',
      fault: { kind: 'other-droid', deliveries: 3, droidIds: [8] },
    });
    expect(shard.wiring({ droidId: 8 })).toEqual({ state: 'unknown' });
  });

  it('one answer of its own matched: working, whatever comes after', async () => {
    const { shard, post, clock } = await rig();
    const waiting = shard.waitFor('tpa-mine', clock.now() + 60_000);
    expect(await post(answerPayload('tpa-mine'))).toBe(200);
    expect((await waiting).kind).toBe('answered');
    for (let i = 0; i < 4; i++) await post(answerPayload(`tpa-w-${i}`), WRONG);
    await shard.drain();
    expect(shard.wiring()).toEqual({ state: 'working' });
  });
});
