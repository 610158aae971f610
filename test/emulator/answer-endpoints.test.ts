/**
 * get-droid-answer and get-droid-answer-async: request checks and texts word for word through
 * `app.inject()` (no socket needed); webhook delivery, retries and timeouts against a real sink
 * on 127.0.0.1:0 (a socket matters there).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerPayloadSchema,
  asyncAckSchema,
  checkContract,
  CONTRACTS,
  errorBodySchema,
  syncAnswerResponseSchema,
} from '../../src/contract/index.js';
import {
  ACK_MESSAGE,
  createEmulator,
  MSG_WEBHOOK_NOT_CONFIGURED,
  type Emulator,
  type EmulatorOptions,
} from '../../src/emulator/index.js';
import { createJsonClient, injectClient, startSink, type Sink } from './helpers.js';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const ANSWER = '/api/droids/1/endpoint/get-droid-answer';
const ASYNC = '/api/droids/1/endpoint/get-droid-answer-async';
const BUY = {
  humanMessage: { content: 'I want to buy 2 Oxford shirts, please send to 99 Sukhumvit Rd, Bangkok 10110' },
  chatHistory: [],
};
const REQUEST_ID = /^tpa-[a-z0-9]{24}$/;

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.close();
});

async function emulatorWith(options: EmulatorOptions = {}): Promise<Emulator> {
  const emulator = await createEmulator({ answerDelayMs: 5, ...options });
  started.push(emulator);
  return emulator;
}

async function sink(status?: (n: number) => number): Promise<Sink> {
  const s = await startSink(status);
  started.push(s);
  return s;
}

/** A listening emulator and a socket client (for tests about webhook delivery). */
async function listening(options: EmulatorOptions = {}) {
  const emulator = await emulatorWith(options);
  const client = createJsonClient(await emulator.listen(), emulator.token);
  started.push(client);
  return { emulator, client };
}

describe('get-droid-answer (sync), through inject()', () => {
  it('answers after answerDelayMs with the answer payload, as the service speaks', async () => {
    const emulator = await emulatorWith({ answerDelayMs: 60 });
    const c = injectClient(emulator);
    const t0 = performance.now();
    const res = await c.call('POST', ANSWER, BUY);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(res.status).toBe(200);
    expect(checkContract(CONTRACTS['get-droid-answer'], res.body).unverified).toEqual([]);
    expect(syncAnswerResponseSchema.safeParse(res.body).success).toBe(true);
    expect(answerPayloadSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ customerId: 1001, droidId: 1, intents: expect.arrayContaining(['purchase']) });
    expect(res.body.requestId).toMatch(REQUEST_ID);
    expect(res.body.shoppingCart).toMatchObject({ shippingFee: '0', grandTotal: '2,580.00 THB' });
    expect(res.body.customerInsight).toMatchObject({ user_language: 'English', user_intent: 'Wants to buy products' });
    expect(res.body.addressParsing.postal_code).toBe('10110');
    expect(emulator.stats().syncAnswered).toBe(1);
  });

  it('accepts humanMessage as a string (endpoint page) and as {content, type?} (async page)', async () => {
    const c = injectClient(await emulatorWith());
    const asString = await c.call('POST', ANSWER, { humanMessage: 'How much is the leather belt?' });
    const asObject = await c.call('POST', ANSWER, {
      humanMessage: { content: 'How much is the leather belt?', type: 'human' },
    });
    expect([asString.status, asObject.status]).toEqual([200, 200]);
    expect(asString.body.answer).toBe(asObject.body.answer);
    expect(asString.body.intents).toEqual(['product_inquiry']);
    expect(asString.body.customerInsight.user_intent).toBe('Asking about product pricing');
  });

  it('400 Invalid humanMessage format for a humanMessage without string content', async () => {
    const c = injectClient(await emulatorWith());
    for (const body of [{ humanMessage: { content: 42 } }, {}, { humanMessage: null }, { humanMessage: 7 }]) {
      const res = await c.call('POST', ANSWER, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid humanMessage format' });
    }
  });
});

describe('get-droid-answer-async: acknowledgement and refusals, through inject()', () => {
  it('acknowledges with the documented message and a tpa- + 24 character requestId', async () => {
    const emulator = await emulatorWith({ webhookUrl: 'http://127.0.0.1:9/hook', answerDelayMs: 60_000 });
    const ack = await injectClient(emulator).call('POST', ASYNC, BUY);
    expect(ack.status).toBe(200);
    expect(asyncAckSchema.safeParse(ack.body).success).toBe(true);
    expect(ack.body).toEqual({
      success: true,
      requestId: expect.stringMatching(REQUEST_ID),
      message: 'Answer request queued. Response will be sent to your configured webhook.',
    });
    expect(ACK_MESSAGE).toBe(ack.body.message);
  });

  it('gives every request its own requestId, unique across emulator instances', async () => {
    const a = injectClient(await emulatorWith({ webhookUrl: 'http://127.0.0.1:9/hook', answerDelayMs: 60_000 }));
    const b = injectClient(await emulatorWith({ webhookUrl: 'http://127.0.0.1:9/hook', answerDelayMs: 60_000 }));
    const ids = (
      await Promise.all([
        ...Array.from({ length: 10 }, () => a.call('POST', ASYNC, BUY)),
        ...Array.from({ length: 10 }, () => b.call('POST', ASYNC, BUY)),
      ])
    ).map((r) => r.body.requestId as string);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
  });

  it('waits ackDelayMs before acknowledging', async () => {
    const emulator = await emulatorWith({
      webhookUrl: 'http://127.0.0.1:9/hook',
      ackDelayMs: 40,
      answerDelayMs: 60_000,
    });
    const t0 = performance.now();
    expect((await injectClient(emulator).call('POST', ASYNC, BUY)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });

  it('400 with the documented texts, word for word, checked in order humanMessage, webhook, test customer', async () => {
    const emulator = await emulatorWith({ webhookUrl: null, testCustomerId: null });
    const c = injectClient(emulator);
    let res = await c.call('POST', ASYNC, { humanMessage: 'not an object' });
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid humanMessage format' });
    res = await c.call('POST', ASYNC, BUY);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      message:
        'thirdPartyAnswerWebhook is not configured. Please set up the webhook URL in Settings > Integrations before using async answer endpoint.',
    });
    expect(MSG_WEBHOOK_NOT_CONFIGURED).toBe(res.body.message);
    emulator.setWebhook('http://127.0.0.1:9/hook');
    res = await c.call('POST', ASYNC, BUY);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Droid Missing Test Customer Id' });
    expect(errorBodySchema.safeParse(res.body).success).toBe(true);
    expect(emulator.stats()).toMatchObject({ accepted: 0, rejected: 3 });
  });

  it('401 Invalid API key for a missing or wrong token, on every endpoint', async () => {
    const emulator = await emulatorWith({ webhookUrl: 'http://127.0.0.1:9/hook' });
    for (const token of ['wrong-token', '']) {
      const c = injectClient(emulator, token);
      for (const [method, path] of [
        ['POST', ASYNC],
        ['POST', ANSWER],
        ['GET', '/api/droids/1/endpoint/channels'],
        ['POST', '/api/droids/1/endpoint/send'],
      ] as const) {
        const res = await c.call(method, path, method === 'POST' ? BUY : undefined);
        expect(res.status, `${token || '(none)'} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
      }
    }
  });

  it('403 Forbidden for another droid, before looking at the body', async () => {
    const c = injectClient(await emulatorWith({ webhookUrl: 'http://127.0.0.1:9/hook' }));
    const res = await c.call('POST', '/api/droids/2/endpoint/get-droid-answer-async', { humanMessage: 7 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Forbidden');
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses the old token at once after rotateToken()', async () => {
    const emulator = await emulatorWith();
    const c = injectClient(emulator);
    const fresh = emulator.rotateToken();
    expect((await c.call('POST', ANSWER, BUY)).status).toBe(401);
    expect((await injectClient(emulator, fresh).call('POST', ANSWER, BUY)).status).toBe(200);
  });
});

describe('answer webhook delivery (real sockets)', () => {
  it('POSTs the answer payload to the webhook with ?secret= (existing query kept)', async () => {
    const s = await sink();
    const { emulator, client } = await listening({
      webhookUrl: `${s.url}?tenant=qa`,
      webhookSecret: SECRET,
      answerDelayMs: 30,
    });
    const ack = await client.call('POST', ASYNC, BUY);
    const [delivery] = await s.waitFor(1);
    expect(delivery!.query).toEqual({ tenant: 'qa', secret: SECRET });
    const check = checkContract(CONTRACTS.webhook, delivery!.body);
    expect(check.violations).toEqual([]);
    expect(check.unverified).toEqual([]);
    expect(check.unknownFields).toEqual([]);
    expect(delivery!.body).toMatchObject({ requestId: ack.body.requestId, customerId: 1001 });
    const body = delivery!.body as { executionTime: number; responses: unknown[]; answer: string };
    expect(body.executionTime).toBeGreaterThanOrEqual(25);
    expect(body.responses.length).toBe(body.answer.split('\n\n').length);
    await expect.poll(() => emulator.stats().delivered).toBe(1);
    expect(emulator.stats()).toMatchObject({ accepted: 1, deliveryAttempts: 1 });
  });

  it('retries a 500-answering receiver, then succeeds', async () => {
    const s = await sink((n) => (n < 3 ? 500 : 200));
    const { emulator, client } = await listening({ webhookUrl: s.url, delivery: { attempts: 3, backoffMs: 10 } });
    const ack = await client.call('POST', ASYNC, BUY);
    const deliveries = await s.waitFor(3);
    expect(deliveries.every((d) => (d.body as { requestId: string }).requestId === ack.body.requestId)).toBe(true);
    await expect.poll(() => emulator.stats().delivered).toBe(1);
    expect(emulator.stats()).toMatchObject({
      deliveryAttempts: 3,
      attemptFailures: 2,
      retries: 2,
      deliveryFailures: 0,
    });
  });

  it('gives up after the configured attempts and counts a failure', async () => {
    const s = await sink(() => 503);
    const { emulator, client } = await listening({ webhookUrl: s.url, delivery: { attempts: 2, backoffMs: 5 } });
    await client.call('POST', ASYNC, BUY);
    await s.waitFor(2);
    await expect.poll(() => emulator.stats().deliveryFailures).toBe(1);
    expect(emulator.stats()).toMatchObject({ deliveryAttempts: 2, delivered: 0, pending: 0, scheduled: 0 });
    expect(s.deliveries).toHaveLength(2);
  });

  it('treats a receiver that sends no headers within timeoutMs as failed and retries (undici timers, ~1 s resolution)', async () => {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = (await import('fastify')).default({ forceCloseConnections: true });
    slow.post('/hook', async () => {
      calls += 1;
      if (calls === 1) await held;
      return { ok: true };
    });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (slow.server.address() as { port: number }).port;
      const { emulator, client } = await listening({
        webhookUrl: `http://127.0.0.1:${port}/hook`,
        delivery: { attempts: 2, backoffMs: 5, timeoutMs: 100 },
      });
      await client.call('POST', ASYNC, BUY);
      await expect.poll(() => emulator.stats().delivered).toBe(1);
      expect(emulator.stats().attemptFailures).toBe(1);
      expect(calls).toBe(2);
      const log = await client.call('GET', '/droids/1/debug/webhooks?format=json&status=failed');
      expect(log.body.deliveries[0].error).toBe('timeout after 100 ms');
    } finally {
      release();
      await slow.close();
    }
  });

  it('close() cancels a pending answer: nothing is left scheduled', async () => {
    const s = await sink();
    const { emulator, client } = await listening({ webhookUrl: s.url, answerDelayMs: 60_000 });
    expect((await client.call('POST', ASYNC, BUY)).status).toBe(200);
    expect(emulator.stats().scheduled).toBe(1);
    await emulator.close();
    expect(emulator.stats()).toMatchObject({ scheduled: 0, deliveryAttempts: 0, pending: 0 });
    expect(s.deliveries).toHaveLength(0);
  });
});
