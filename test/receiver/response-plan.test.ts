/**
 * Response plans: deliberate misbehaviour per requestId in front of the receiver's sink, against
 * a real receiver on loopback: 500 to every attempt, 503 then 200, no answer at all, 200 after a
 * delay; every attempt's arrival and status recorded, the counters still adding up.
 */
import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import {
  createReceiver,
  delay,
  receiverAccountingGap,
  ResponsePlan,
  STALL,
  status,
  type Receiver,
  type ReceiverOptions,
} from '../../src/receiver/index.js';
import { answerPayload, messagePayload } from './payloads.js';
import { testClock } from './test-clock.js';

const SECRET = 'whsec-plan-0123456789abcdef0123456789abcd';
let dispatcher: Agent;
let receiver: Receiver | undefined;
let base = '';

beforeEach(() => {
  dispatcher = new Agent({ connections: 16 });
});
afterEach(async () => {
  await receiver?.close();
  if (receiver)
    expect(receiverAccountingGap(receiver.stats(), receiver.parkedCount(), receiver.inboundStats())).toBeUndefined();
  receiver = undefined;
  await dispatcher.close();
});

async function start(plan: ResponsePlan, options: ReceiverOptions = {}): Promise<Receiver> {
  receiver = createReceiver({ secret: SECRET, responsePlan: plan, ...options });
  base = (await receiver.listen()).replace(/\/webhook$/, '');
  return receiver;
}

async function post(body: unknown, path = `/webhook?secret=${SECRET}`): Promise<{ status: number; text: string }> {
  const res = await request(base + path, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

const soon = (): number => systemClock.now() + 60_000;

describe('response plan: misbehaviour per requestId, every attempt recorded', () => {
  it('answers 500 to every attempt of one requestId, and keeps none of them; others get the usual 200', async () => {
    const clock = testClock();
    const plan = new ResponsePlan({ clock });
    plan.set('tpa-500', [], status(500));
    const r = await start(plan, { clock });
    const waiting = r.waitFor('tpa-500', clock.now() + 60_000);
    for (let i = 0; i < 3; i++) {
      expect((await post(answerPayload('tpa-500'))).status).toBe(500);
      clock.advance(1_000);
    }
    expect(await post(answerPayload('tpa-other'))).toEqual({ status: 200, text: '{"ok":true}' });
    expect(plan.attempts('tpa-500').map((a) => [a.n, a.at, a.status, a.step.kind])).toEqual([
      [1, 1_000, 500, 'status'],
      [2, 2_000, 500, 'status'],
      [3, 3_000, 500, 'status'],
    ]);
    expect(plan.attempts('tpa-other')).toEqual([]);
    expect(r.pendingCount()).toBe(1); // never delivered
    expect(r.stats()).toMatchObject({ received: 4, unavailable: 3, matched: 0 });
    expect(r.parkedCount()).toBe(1); // tpa-other, nobody waits for it
    r.housekeep(clock.advance(60_000));
    expect(await waiting).toEqual({ kind: 'timeout' });
  });

  it('503 then 200: the retry is matched, the first attempt counted unavailable', async () => {
    const plan = new ResponsePlan();
    plan.set('tpa-retry', [status(503)]);
    const r = await start(plan);
    const waiting = r.waitFor('tpa-retry', soon());
    const first = await post(answerPayload('tpa-retry'));
    expect(first.status).toBe(503);
    expect(JSON.parse(first.text).error).toBe('Service Unavailable');
    expect((await post(answerPayload('tpa-retry'))).status).toBe(200);
    expect((await waiting).kind).toBe('answered');
    expect(plan.attempts('tpa-retry').map((a) => a.status)).toEqual([503, 200]);
    expect(r.stats()).toMatchObject({ received: 2, unavailable: 1, matched: 1 });
  });

  it('stalls without answering until the receiver closes, then drops the connection', async () => {
    const plan = new ResponsePlan();
    plan.set('tpa-stall', [STALL]);
    const r = await start(plan);
    let settled = false;
    const stalled = post(answerPayload('tpa-stall')).then(
      (res) => ((settled = true), res.status),
      (err: unknown) => ((settled = true), err),
    );
    expect(await post(answerPayload('tpa-fine'))).toEqual({ status: 200, text: '{"ok":true}' }); // served meanwhile
    await expect.poll(() => plan.attempts('tpa-stall').length).toBe(1);
    expect(settled).toBe(false);
    expect(plan.attempts('tpa-stall')[0]?.status).toBeUndefined();
    expect(r.stats().received).toBe(1); // the stalled one is counted once it ends
    await r.close();
    expect(await stalled).toBeInstanceOf(Error); // no answer: the socket closed
    const [attempt] = plan.attempts('tpa-stall');
    expect(attempt?.status).toBeUndefined();
    expect(attempt?.answeredAt).toBeGreaterThanOrEqual(attempt?.at ?? Infinity);
    expect(r.stats()).toMatchObject({ received: 2, unavailable: 1 });
  });

  it('answers 200 after a delay (a step the test releases), keeping the delivery only then', async () => {
    let release: () => void = () => undefined;
    const waits: number[] = [];
    const plan = new ResponsePlan({
      wait: (ms) => (waits.push(ms), new Promise<void>((resolve) => (release = resolve))),
    });
    plan.set('tpa-slow', [delay(6_000)]);
    const r = await start(plan);
    let answered: number | undefined;
    const slow = post(answerPayload('tpa-slow')).then((res) => (answered = res.status));
    await expect.poll(() => waits).toEqual([6_000]);
    expect((await post(answerPayload('tpa-quick'))).status).toBe(200);
    expect(answered).toBeUndefined();
    expect(r.parkedCount()).toBe(1); // tpa-quick only: tpa-slow is not kept before its answer
    release();
    await slow;
    expect(answered).toBe(200);
    expect((await r.waitFor('tpa-slow', soon())).kind).toBe('answered');
    expect(plan.attempts('tpa-slow').map((a) => a.status)).toEqual([200]);
  });

  it('a real delay: the answer comes no sooner than planned', async () => {
    const plan = new ResponsePlan();
    plan.set('tpa-timer', [delay(150)]);
    await start(plan);
    const t0 = performance.now();
    expect((await post(answerPayload('tpa-timer'))).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    const [a] = plan.attempts('tpa-timer');
    expect((a?.answeredAt ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(145);
  });

  it('a default plan applies to every requestId without its own, each counting its own attempts; messages are never planned', async () => {
    const plan = new ResponsePlan();
    plan.setDefault([status(503)]);
    plan.set('tpa-own', []);
    const r = await start(plan);
    for (const id of ['tpa-a', 'tpa-b']) {
      expect((await post(answerPayload(id))).status).toBe(503);
      expect((await post(answerPayload(id))).status).toBe(200);
    }
    expect((await post(answerPayload('tpa-own'))).status).toBe(200);
    expect((await post(messagePayload(7), '/messages')).status).toBe(200);
    expect((await post(answerPayload('tpa-a'), '/webhook?secret=wrong')).status).toBe(401); // refused secrets: not planned
    expect(plan.attempts('tpa-a').map((a) => a.status)).toEqual([503, 200]);
    expect(plan.attempts('tpa-b').map((a) => a.status)).toEqual([503, 200]);
    expect(r.stats()).toMatchObject({ received: 6, unavailable: 2, badSecret: 1 });
    expect(r.inboundStats().messages).toMatchObject({ received: 1, accepted: 1 });
  });
});
