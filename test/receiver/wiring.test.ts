/**
 * The wiring rule of the receiver (src/receiver/wiring.ts), through real HTTP POSTs to a real
 * receiver on 127.0.0.1 port 0 and a clock moved by hand: 3 answer webhooks of one kind that
 * cannot be matched (wrong secret, not an answer, another droid's) with none matched make it
 * `miswired`; one matched (or late) answer makes it `working` for good; fewer than 3 strays, and
 * unknown requestIds of the run's own droid, never do.
 */
import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createReceiver,
  ORPHAN_SUSPECT_MS,
  receiverAccountingGap,
  WIRING_THRESHOLD,
  type Receiver,
} from '../../src/receiver/index.js';
import { answerPayload } from './payloads.js';
import { testClock, type TestClock } from './test-clock.js';

const SECRET = 'wiring-secret-0123456789abcdefghijklmnop';
const WRONG = 'wiring-wrong-value-0123456789abcdefghijk';
let dispatcher: Agent;
let receiver: Receiver;
let clock: TestClock;
let url = '';

beforeEach(async () => {
  dispatcher = new Agent({ connections: 16 });
  clock = testClock();
  receiver = createReceiver({ secret: SECRET, clock });
  url = await receiver.listen();
});
afterEach(async () => {
  await receiver.close();
  expect(receiverAccountingGap(receiver.stats(), receiver.parkedCount(), receiver.inboundStats())).toBeUndefined();
  await dispatcher.close();
});

async function post(body: unknown, secret = SECRET): Promise<number> {
  const res = await request(`${url}?secret=${encodeURIComponent(secret)}`, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  await res.body.dump();
  return res.statusCode;
}

const ofDroid = (requestId: string, droidId: number): Record<string, unknown> => ({
  ...answerPayload(requestId),
  droidId,
});

describe('receiver wiring verdict (wiring.ts)', () => {
  it('is unknown before anything arrives, and below the threshold', async () => {
    expect(WIRING_THRESHOLD).toBe(3);
    expect(receiver.wiring()).toEqual({ state: 'unknown' });
    expect(await post(answerPayload('tpa-stray-1'), WRONG)).toBe(401);
    expect(await post(answerPayload('tpa-stray-2'), WRONG)).toBe(401);
    expect(receiver.wiring()).toEqual({ state: 'unknown' });
  });

  it('3 refused for a wrong secret, none matched: miswired (bad-secret), counting every attempt', async () => {
    for (let i = 0; i < 3; i++) expect(await post(answerPayload(`tpa-ours-${i}`), WRONG)).toBe(401);
    expect(receiver.wiring()).toEqual({
      state: 'miswired',
      fault: { kind: 'bad-secret', deliveries: 3, droidIds: [] },
    });
    expect(JSON.stringify(receiver.wiring())).not.toContain(WRONG);
  });

  it('3 bodies that are not answer payloads, none matched: miswired (malformed)', async () => {
    expect(await post('not json')).toBe(400);
    expect(await post({ customerId: 5, type: 'human', content: { type: 'text', value: 'hi' } })).toBe(400);
    expect(receiver.wiring().state).toBe('unknown');
    expect(await post([1, 2])).toBe(400);
    expect(receiver.wiring()).toEqual({ state: 'miswired', fault: { kind: 'malformed', deliveries: 3, droidIds: [] } });
  });

  it('one matched answer disarms it for good: strays before and after never make it miswired', async () => {
    expect(await post(answerPayload('tpa-stray-1'), WRONG)).toBe(401);
    expect(await post('not json')).toBe(400);
    const waiting = receiver.waitFor('tpa-ours', clock.now() + 60_000);
    expect(await post(answerPayload('tpa-ours'))).toBe(200);
    expect((await waiting).kind).toBe('answered');
    for (let i = 0; i < 5; i++) await post(answerPayload(`tpa-stray-${i + 2}`), WRONG);
    for (let i = 0; i < 5; i++) await post('not json');
    expect(receiver.wiring({ droidId: 1 })).toEqual({ state: 'working' });
  });

  it('a late answer (its waiter timed out) shows the wiring works too', async () => {
    const waiting = receiver.waitFor('tpa-slow', clock.now() + 1_000);
    receiver.housekeep(clock.advance(1_001));
    expect((await waiting).kind).toBe('timeout');
    expect(await post(answerPayload('tpa-slow'))).toBe(200);
    for (let i = 0; i < 3; i++) await post(answerPayload(`tpa-x-${i}`), WRONG);
    expect(receiver.wiring()).toEqual({ state: 'working' });
  });

  it("another droid's answers, parked unclaimed for 2 s: miswired (other-droid), naming the droid", async () => {
    for (let i = 0; i < 3; i++) expect(await post(ofDroid(`tpa-other-${i}`, 8))).toBe(200);
    // Within 2 s a webhook may still be beating its acknowledgement.
    expect(receiver.wiring({ droidId: 7 })).toEqual({ state: 'unknown' });
    clock.advance(ORPHAN_SUSPECT_MS);
    expect(receiver.wiring({ droidId: 7 })).toEqual({
      state: 'miswired',
      fault: { kind: 'other-droid', deliveries: 3, droidIds: [8] },
    });
    // The droid id may be a string (a flag's value); without it, no droid is "another".
    expect(receiver.wiring({ droidId: '7' }).state).toBe('miswired');
    expect(receiver.wiring()).toEqual({ state: 'unknown' });
  });

  it("unknown requestIds of the run's own droid never count (a previous run's retried webhooks)", async () => {
    for (let i = 0; i < 5; i++) expect(await post(ofDroid(`tpa-old-${i}`, 7))).toBe(200);
    clock.advance(ORPHAN_SUSPECT_MS);
    expect(receiver.wiring({ droidId: 7 })).toEqual({ state: 'unknown' });
    receiver.housekeep(clock.advance(60_000)); // counted orphans now
    expect(receiver.stats().orphans).toBe(5);
    expect(receiver.wiring({ droidId: 7 })).toEqual({ state: 'unknown' });
  });

  it('a parked answer claimed by its (slow) acknowledgement is not a suspect', async () => {
    await post(ofDroid('tpa-race', 8));
    await post(ofDroid('tpa-other-1', 8));
    const claimed = receiver.waitFor('tpa-race', clock.now() + 60_000);
    expect((await claimed).kind).toBe('answered');
    await post(ofDroid('tpa-other-2', 8));
    clock.advance(ORPHAN_SUSPECT_MS);
    expect(receiver.wiring({ droidId: 7 })).toEqual({ state: 'working' });
  });
});
