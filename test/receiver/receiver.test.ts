import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import {
  createReceiver,
  receiverAccountingGap,
  type Receiver,
  type ReceiverOptions,
} from '../../src/receiver/index.js';
import { answerPayload, errorPayload } from './payloads.js';
import { testClock } from './test-clock.js';

const SECRET = 'whsec-0123456789abcdef0123456789abcdef';
let dispatcher: Agent;
let receiver: Receiver | undefined;
let url = '';

beforeEach(() => {
  dispatcher = new Agent({ connections: 64 });
});
afterEach(async () => {
  if (receiver) expectInvariant(receiver);
  await receiver?.close();
  receiver = undefined;
  await dispatcher.close();
});

async function start(options: ReceiverOptions = {}): Promise<Receiver> {
  receiver = createReceiver({ secret: SECRET, ...options });
  url = await receiver.listen();
  return receiver;
}

async function post(body: unknown, secret: string | null = SECRET): Promise<{ status: number; text: string }> {
  const target = secret === null ? url : `${url}?secret=${encodeURIComponent(secret)}`;
  const res = await request(target, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

function expectInvariant(r: Receiver): void {
  const s = r.stats();
  expect(s.received).toBe(s.matched + s.duplicates + s.late + s.orphans + s.badSecret + s.malformed + r.parkedCount());
  expect(s.foreign + s.published + s.unavailable).toBe(0);
  expect(receiverAccountingGap(s, r.parkedCount(), r.inboundStats())).toBeUndefined();
}

const soon = (ms = 5_000): number => systemClock.now() + ms;

describe('receiver: correlation by requestId (spec: Events rule 2)', () => {
  it('listens on 127.0.0.1:0 and returns the webhook URL without the secret', async () => {
    await start({ path: '/hooks/answer' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/answer$/);
    expect(url).not.toContain(SECRET);
  });

  it('matches a delivery to its waiter and answers 200 {ok:true}', async () => {
    const r = await start();
    const before = systemClock.now();
    const waiting = r.waitFor('tpa-1', soon());
    expect(r.pendingCount()).toBe(1);
    const res = await post(answerPayload('tpa-1'));
    expect(res).toEqual({ status: 200, text: '{"ok":true}' });
    const match = await waiting;
    expect(match.kind).toBe('answered');
    if (match.kind !== 'answered') return;
    expect(match.payload.answer).toBe('Hello');
    expect(match.contract.ok).toBe(true);
    expect(match.receivedAt).toBeGreaterThanOrEqual(before);
    expect(match.receivedAt).toBeLessThanOrEqual(systemClock.now());
    expect(r.stats()).toMatchObject({ received: 1, matched: 1 });
    expect(r.pendingCount()).toBe(0);
  });

  it('parks a delivery that beats waitFor and hands it to the later waitFor', async () => {
    const r = await start();
    await post(answerPayload('tpa-early'));
    expect(r.parkedCount()).toBe(1);
    const match = await r.waitFor('tpa-early', soon());
    expect(match.kind).toBe('answered');
    expect(r.parkedCount()).toBe(0);
    expect(r.stats()).toMatchObject({ received: 1, matched: 1, orphans: 0 });
  });

  it('an error payload ends as failed (spec: Events rule 1)', async () => {
    const r = await start();
    const waiting = r.waitFor('tpa-bad', soon());
    await post(errorPayload('tpa-bad'));
    const match = await waiting;
    expect(match.kind).toBe('failed');
    if (match.kind === 'failed') expect(match.payload.error).toContain('failed to generate');
  });

  it('passes contract violations along with a matched payload', async () => {
    const r = await start();
    const waiting = r.waitFor('tpa-odd', soon());
    await post({ ...answerPayload('tpa-odd'), intents: 'greeting', surprise: true });
    const match = await waiting;
    expect(match.kind).toBe('answered');
    if (match.kind !== 'answered') return;
    expect(match.contract.ok).toBe(false);
    expect(match.contract.violations.map((v) => v.path)).toEqual(['intents']);
    expect(match.contract.unknownFields).toEqual(['surprise']);
  });

  it('counts a repeated delivery once as matched, then as duplicate (spec: Events rule 3)', async () => {
    const r = await start();
    const waiting = r.waitFor('tpa-dup', soon());
    expect((await post(answerPayload('tpa-dup'))).status).toBe(200);
    expect((await post(answerPayload('tpa-dup'))).status).toBe(200);
    expect((await waiting).kind).toBe('answered');
    await post(answerPayload('tpa-dup-parked'));
    await post(answerPayload('tpa-dup-parked'));
    expect((await r.waitFor('tpa-dup-parked', soon())).kind).toBe('answered');
    expect(r.stats()).toMatchObject({ received: 4, matched: 2, duplicates: 2 });
  });

  it('resolves timeout at the deadline by its own timer, and counts a later delivery as late', async () => {
    const r = await start();
    const t0 = systemClock.now();
    const match = await r.waitFor('tpa-slow', t0 + 50);
    expect(match).toEqual({ kind: 'timeout' });
    expect(systemClock.now() - t0).toBeGreaterThanOrEqual(49);
    await post(answerPayload('tpa-slow'));
    expect(r.stats()).toMatchObject({ received: 1, matched: 0, late: 1 });
  });

  it('resolves timeout when the signal aborts; a later delivery is late', async () => {
    const r = await start();
    const controller = new AbortController();
    const a = r.waitFor('tpa-a', soon(), controller.signal);
    const b = r.waitFor('tpa-b', soon(), controller.signal);
    controller.abort();
    expect(await a).toEqual({ kind: 'timeout' });
    expect(await b).toEqual({ kind: 'timeout' });
    expect(r.pendingCount()).toBe(0);
    await post(answerPayload('tpa-a'));
    expect(r.stats().late).toBe(1);
  });

  it('resolves timeout at the deadline of a test clock (housekeep), not before', async () => {
    const clock = testClock();
    const r = await start({ clock });
    const waiting = r.waitFor('tpa-clock', clock.now() + 60_000);
    let done = false;
    void waiting.then(() => (done = true));
    r.housekeep(clock.advance(59_999));
    await Promise.resolve();
    expect(done).toBe(false);
    r.housekeep(clock.advance(1));
    expect(await waiting).toEqual({ kind: 'timeout' });
    expect(r.pendingCount()).toBe(0);
  });

  it('turns a delivery nobody claims into an orphan after the grace period (test clock), or at close()', async () => {
    const clock = testClock();
    const r = await start({ orphanGraceMs: 30_000, clock });
    await post(answerPayload('tpa-nobody'));
    r.housekeep(clock.advance(29_999));
    expect(r.parkedCount()).toBe(1);
    r.housekeep(clock.advance(1));
    expect(r.parkedCount()).toBe(0);
    expect(r.stats().orphans).toBe(1);
    await post(answerPayload('tpa-unclaimed'));
    expect(r.parkedCount()).toBe(1);
    const pending = r.waitFor('tpa-never', soon());
    await r.close();
    expect(await pending).toEqual({ kind: 'timeout' });
    expect(r.stats()).toMatchObject({ received: 2, orphans: 2 });
  });

  it('matches 1,000 concurrent waiters', async () => {
    const r = await start();
    const ids = Array.from({ length: 1000 }, (_, i) => `tpa-c${i}`);
    const waits = ids.map((id) => r.waitFor(id, soon(20_000)));
    const statuses = await Promise.all(
      ids.map((id, i) => post(i % 2 ? answerPayload(id) : errorPayload(id)).then((x) => x.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const matches = await Promise.all(waits);
    expect(matches.filter((m) => m.kind === 'answered')).toHaveLength(500);
    expect(matches.filter((m) => m.kind === 'failed')).toHaveLength(500);
    expect(r.stats()).toMatchObject({ received: 1000, matched: 1000 });
    expect(r.pendingCount()).toBe(0);
  });
});

describe('receiver: rejected deliveries', () => {
  it('401 for a wrong or missing secret, counted badSecret, secret never echoed', async () => {
    const r = await start();
    const wrong = await post(answerPayload('tpa-s'), 'not-the-secret');
    const missing = await post(answerPayload('tpa-s'), null);
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    expect(wrong.text).not.toContain(SECRET);
    const res = await request(`${url}?secret=${SECRET}&secret=${SECRET}`, { dispatcher, method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
    expect(r.stats()).toMatchObject({ received: 3, badSecret: 3, matched: 0 });
    expect(r.parkedCount()).toBe(0);
  });

  it('accepts any delivery when no secret is configured', async () => {
    receiver = createReceiver();
    url = await receiver.listen();
    expect((await post(answerPayload('tpa-open'), null)).status).toBe(200);
  });

  it('400 malformed: not JSON, empty, no requestId, an array', async () => {
    const r = await start();
    const bodies = [
      '{"requestId": "tpa-x"',
      '',
      JSON.stringify({ answer: 'x' }),
      JSON.stringify({ requestId: 7 }),
      '[1]',
      'null',
    ];
    for (const body of bodies) expect((await post(body)).status).toBe(400);
    expect(r.stats()).toMatchObject({ received: bodies.length, malformed: bodies.length, matched: 0 });
  });

  it('413 for a body over the limit, counted malformed', async () => {
    const r = await start({ bodyLimitBytes: 1024 });
    const res = await post({ ...answerPayload('tpa-big'), answer: 'x'.repeat(4096) });
    expect(res.status).toBe(413);
    expect(r.stats()).toMatchObject({ received: 1, malformed: 1 });
  });
});
