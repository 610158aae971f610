/**
 * The message-forwarding webhook (docs: receiving-webhook.mdx) and the intent webhook (docs:
 * intent-webhook.mdx) on the receiver: real HTTP on loopback where the socket matters,
 * app.inject() elsewhere; absences proven with a test clock.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createReceiver,
  receiverAccountingGap,
  type Receiver,
  type ReceiverOptions,
} from '../../src/receiver/index.js';
import { intentPayload, messagePayload } from './payloads.js';
import { testClock, type TestClock } from './test-clock.js';

const TOKEN = 'verify-0123456789abcdef0123456789abcdef';
const INTENT_SECRET = 'intent-0123456789abcdef0123456789abcdef';
let receiver: Receiver | undefined;
let dispatcher: Agent | undefined;

afterEach(async () => {
  if (receiver)
    expect(receiverAccountingGap(receiver.stats(), receiver.parkedCount(), receiver.inboundStats())).toBeUndefined();
  await receiver?.close();
  await dispatcher?.close();
  receiver = undefined;
  dispatcher = undefined;
});

function build(options: ReceiverOptions = {}): Receiver {
  receiver = createReceiver({ verifyToken: TOKEN, intentSecret: INTENT_SECRET, ...options });
  return receiver;
}

async function inject(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await (receiver as Receiver).app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, text: res.body };
}

const toMessages = (body: unknown, token: string | null = TOKEN) =>
  inject(token === null ? '/messages' : `/messages?verify_token=${encodeURIComponent(token)}`, body);

describe('message-forwarding webhook over HTTP (docs: receiving-webhook.mdx)', () => {
  it('403 for a wrong or missing verify_token, 200 for the right one; the token is never echoed', async () => {
    const r = build();
    await r.listen();
    const urls = r.urls();
    expect(urls?.messages).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/messages$/);
    expect(urls?.intents).toMatch(/\/intents$/);
    dispatcher = new Agent();
    const post = async (query: string) => {
      const res = await request(`${urls?.messages}${query}`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(messagePayload(1001)),
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const wrong = await post('?verify_token=not-the-token');
    const missing = await post('');
    const right = await post(`?verify_token=${TOKEN}`);
    expect([wrong.status, missing.status, right.status]).toEqual([403, 403, 200]);
    expect(wrong.text).not.toContain(TOKEN);
    expect(r.inboundStats().messages).toMatchObject({ received: 3, accepted: 1, badSecret: 2, malformed: 0 });
    expect(r.messagesOf(1001)).toHaveLength(1);
    expect(r.stats().received).toBe(0); // the answer route saw nothing
  });

  it('keeps a body that breaks the documented schema, with its violations; 400 only for a non-object', async () => {
    const r = build();
    const odd = { ...messagePayload(1001), customerId: '1001', type: 'bot', surprise: 1 };
    expect((await toMessages(odd)).status).toBe(200);
    for (const bad of ['[1]', '"text"', '', '{"customerId":']) expect((await toMessages(bad)).status).toBe(400);
    const kept = r.messagesOf(1001);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.contract.ok).toBe(false);
    expect(kept[0]?.contract.violations.map((v) => v.path).sort()).toEqual(['customerId', 'type']);
    expect(kept[0]?.contract.unknownFields).toEqual(['surprise']);
    expect(r.inboundStats().messages).toMatchObject({ received: 5, accepted: 1, malformed: 4 });
  });

  it('accepts any message when no verify token is configured', async () => {
    const r = build({ verifyToken: null });
    expect((await toMessages(messagePayload(7), null)).status).toBe(200);
    expect(r.messagesOf('7')).toHaveLength(1);
  });

  it('413 for a body over the limit, counted malformed on the message route', async () => {
    const r = build({ bodyLimitBytes: 512 });
    expect((await toMessages(messagePayload(1001, 'ai', 'x'.repeat(2048)))).status).toBe(413);
    expect(r.inboundStats().messages).toMatchObject({ received: 1, malformed: 1 });
    expect(r.stats().malformed).toBe(0);
  });
});

describe('waitForMessage', () => {
  let clock: TestClock;
  const start = (options: ReceiverOptions = {}): Receiver => {
    clock = testClock();
    return build({ clock, ...options });
  };

  it('resolves with a message that arrives after the call, with its arrival time and contract check', async () => {
    const r = start();
    const after = clock.now();
    const waiting = r.waitForMessage({ customerId: 1001, after, match: { type: 'ai' } }, after + 30_000);
    clock.advance(250);
    await toMessages(messagePayload(1001, 'human', 'I would like 2 shirts'));
    await toMessages(messagePayload(1002, 'ai'));
    await toMessages(messagePayload(1001, 'ai', 'Sure, 2 shirts'));
    const m = await waiting;
    expect(m.kind).toBe('message');
    if (m.kind !== 'message') return;
    expect(m.payload.content.value).toBe('Sure, 2 shirts');
    expect(m.receivedAt).toBe(after + 250);
    expect(m.contract.ok).toBe(true);
    expect(r.inboundStats().messages).toMatchObject({ accepted: 3, claimed: 1 });
  });

  it('finds at once a message that arrived before the call but at or after `after`; claims it once', async () => {
    const r = start();
    await toMessages(messagePayload(1001, 'ai', 'too early'));
    const after = clock.advance(100);
    await toMessages(messagePayload(1001, 'ai', 'first'));
    await toMessages(messagePayload(1001, 'ai', 'second'));
    const a = await r.waitForMessage({ customerId: 1001, after }, after + 1);
    const b = await r.waitForMessage({ customerId: '1001', after, match: (p) => p.type === 'ai' }, after + 1);
    const c = await r.waitForMessage({ customerId: 1001, after }, after); // deadline now: nothing left
    expect([a, b].map((m) => (m.kind === 'message' ? m.payload.content.value : m.kind))).toEqual(['first', 'second']);
    expect(c).toEqual({ kind: 'timeout' });
    expect(r.messagesOf(1001).map((m) => m.claimed)).toEqual([false, true, true]);
  });

  it('a predicate that throws matches nothing (the wait never rejects, the delivery is still accepted)', async () => {
    const r = start();
    const waiting = r.waitForMessage(
      {
        customerId: 1001,
        after: 0,
        match: () => {
          throw new Error('bad matcher');
        },
      },
      clock.now() + 1_000,
    );
    expect((await toMessages(messagePayload(1001))).status).toBe(200);
    r.housekeep(clock.advance(1_000));
    expect(await waiting).toEqual({ kind: 'timeout' });
  });

  it('matches dotted paths (content.type)', async () => {
    const r = start();
    await toMessages(messagePayload(1001, 'ai', 'plain'));
    await toMessages(messagePayload(1001, 'ai', ['Apple', 'Orange']));
    const m = await r.waitForMessage(
      { customerId: 1001, after: 0, match: { 'content.type': 'button' } },
      clock.now() + 1,
    );
    expect(m.kind === 'message' && m.payload.content.value).toEqual(['Apple', 'Orange']);
  });

  it('times out at the deadline of the test clock (noReplyWithin), not before; a later message stays unclaimed', async () => {
    const r = start();
    const after = clock.now();
    const waiting = r.waitForMessage({ customerId: 1001, after }, after + 5_000);
    let settled = false;
    void waiting.then(() => (settled = true));
    r.housekeep(clock.advance(4_999));
    await Promise.resolve();
    expect(settled).toBe(false);
    r.housekeep(clock.advance(1));
    expect(await waiting).toEqual({ kind: 'timeout' });
    await toMessages(messagePayload(1001));
    expect(r.inboundStats().messages).toMatchObject({ accepted: 1, claimed: 0 });
  });

  it('resolves timeout on abort and at close(); never rejects', async () => {
    const r = start();
    const controller = new AbortController();
    const aborted = r.waitForMessage({ customerId: 1, after: 0 }, clock.now() + 60_000, controller.signal);
    const closed = r.waitForIntent({ after: 0, intent: 'purchase' }, clock.now() + 60_000);
    controller.abort();
    expect(await aborted).toEqual({ kind: 'timeout' });
    await r.close();
    expect(await closed).toEqual({ kind: 'timeout' });
  });

  it('keeps at most maxMessagesPerCustomer per customer and maxMessages in all, dropping the oldest', async () => {
    const r = start({ maxMessagesPerCustomer: 3, maxMessages: 5 });
    for (let i = 0; i < 5; i++) await toMessages(messagePayload(1, 'ai', `one-${i}`));
    expect(r.messagesOf(1).map((m) => m.payload.content.value)).toEqual(['one-2', 'one-3', 'one-4']);
    for (let i = 0; i < 3; i++) await toMessages(messagePayload(2, 'ai', `two-${i}`));
    expect(r.messagesOf(1).map((m) => m.payload.content.value)).toEqual(['one-3', 'one-4']);
    expect(r.messagesOf(2)).toHaveLength(3);
    expect(r.inboundStats().messages).toMatchObject({ accepted: 8, dropped: 3, claimed: 0 });
  });
});

describe('intent webhook (docs: intent-webhook.mdx)', () => {
  const toIntents = (body: unknown) => inject('/intents', body);

  it('403 {"error":"Forbidden"} for a wrong or missing body secret; 200 [] for the right one', async () => {
    const r = build();
    const wrong = await toIntents(intentPayload('nope'));
    const { secret: _omit, ...noSecret } = intentPayload(INTENT_SECRET);
    const missing = await toIntents(noSecret);
    const right = await toIntents(intentPayload(INTENT_SECRET));
    expect([wrong, missing]).toEqual([
      { status: 403, text: '{"error":"Forbidden"}' },
      { status: 403, text: '{"error":"Forbidden"}' },
    ]);
    expect(right).toEqual({ status: 200, text: '[]' });
    expect((await toIntents('[]')).status).toBe(400);
    expect(r.inboundStats().intents).toMatchObject({ received: 4, accepted: 1, badSecret: 2, malformed: 1 });
  });

  it('waitForIntent by intent and customer_id; the kept body has its secret redacted', async () => {
    const clock = testClock();
    const r = build({ clock });
    const after = clock.now();
    const waiting = r.waitForIntent({ after, intent: 'purchase', customerId: 'cust-2' }, after + 30_000);
    await toIntents(intentPayload(INTENT_SECRET, 'purchase', 'cust-1'));
    await toIntents(intentPayload(INTENT_SECRET, 'address', 'cust-2'));
    await toIntents({ ...intentPayload(INTENT_SECRET, 'purchase', 'cust-2'), payment_method: 'barter' });
    const m = await waiting;
    expect(m.kind).toBe('intent');
    if (m.kind !== 'intent') return;
    expect(m.customerId).toBe('cust-2');
    expect(m.payload.secret).toBe('[REDACTED]');
    expect(JSON.stringify(m)).not.toContain(INTENT_SECRET);
    expect(m.contract.violations.map((v) => v.path)).toEqual(['payment_method']);
    expect(m.payload.shopping_cart.products[0]?.count).toBe(2);
    const other = await r.waitForIntent(
      { after, customerId: 'cust-1', match: { 'shopping_cart.products.0.count': 2 } },
      after,
    );
    expect(other.kind).toBe('intent');
  });

  it('accepts any intent when no secret is configured', async () => {
    build({ intentSecret: null });
    expect((await toIntents(intentPayload('anything'))).status).toBe(200);
  });
});

describe('health route', () => {
  it('GET /healthz answers 200 without Redis', async () => {
    const r = build();
    const res = await r.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
  });
});
