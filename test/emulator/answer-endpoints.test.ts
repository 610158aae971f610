/**
 * get-droid-answer and get-droid-answer-async on a real emulator (127.0.0.1:0) with a real
 * webhook sink: happy paths, every 400/401/403 word for word, retries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerPayloadSchema, asyncAckSchema, errorBodySchema, syncAnswerResponseSchema } from '../../src/contract/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { createJsonClient, startSink, type Sink } from './helpers.js';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const ANSWER = '/api/droids/1/endpoint/get-droid-answer';
const ASYNC = '/api/droids/1/endpoint/get-droid-answer-async';
const BUY = { humanMessage: { content: 'I want to buy 2 Oxford shirts, please send to 99 Sukhumvit Rd, Bangkok 10110' }, chatHistory: [] };

let emulator: Emulator | undefined;
let sink: Sink | undefined;
let client: ReturnType<typeof createJsonClient> | undefined;

async function start(options: EmulatorOptions = {}, token?: string) {
  emulator = await createEmulator({ answerDelayMs: 5, ...options });
  const url = await emulator.listen();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  client = createJsonClient(url, token ?? emulator.token);
  return client;
}

afterEach(async () => {
  await emulator?.close();
  await sink?.close();
  await client?.close();
  emulator = sink = client = undefined;
});

describe('get-droid-answer (sync)', () => {
  it('returns a contract-valid answer payload with a tpa- requestId after answerDelayMs', async () => {
    const c = await start({ answerDelayMs: 60 });
    const t0 = performance.now();
    const res = await c.call('POST', ANSWER, BUY);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(res.status).toBe(200);
    expect(syncAnswerResponseSchema.safeParse(res.body).success).toBe(true);
    expect(answerPayloadSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.requestId).toMatch(/^tpa-/);
    expect(res.body.customerId).toBe(1001);
    expect(res.body.droidId).toBe(1);
    expect(res.body.shoppingCart.grandTotal).toBe('2,580.00 THB');
    expect(res.body.addressParsing.postal_code).toBe('10110');
    expect(res.body.intents).toContain('purchase');
    expect(emulator!.stats().syncAnswered).toBe(1);
  });

  it('400 Invalid humanMessage format for a humanMessage without string content', async () => {
    const c = await start();
    for (const body of [{ humanMessage: { content: 42 } }, {}, { humanMessage: null }]) {
      const res = await c.call('POST', ANSWER, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid humanMessage format' });
    }
  });
});

describe('get-droid-answer-async', () => {
  it('acknowledges, then POSTs the answer payload to the webhook with ?secret= (existing query kept)', async () => {
    sink = await startSink();
    const c = await start({ webhookUrl: `${sink.url}?tenant=qa`, webhookSecret: SECRET, answerDelayMs: 30 });
    const t0 = performance.now();
    const ack = await c.call('POST', ASYNC, BUY);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(ack.status).toBe(200);
    expect(asyncAckSchema.safeParse(ack.body).success).toBe(true);
    expect(ack.body).toEqual({ success: true, requestId: expect.stringMatching(/^tpa-.+/), message: 'Request queued. The answer will be sent to the configured webhook.' });
    const [delivery] = await sink.waitFor(1);
    expect(delivery!.query).toEqual({ tenant: 'qa', secret: SECRET });
    const parsed = answerPayloadSchema.safeParse(delivery!.body);
    expect(parsed.success).toBe(true);
    expect(parsed.data!.requestId).toBe(ack.body.requestId);
    expect(parsed.data!.customerId).toBe(1001);
    expect(parsed.data!.executionTime).toBeGreaterThanOrEqual(25);
    expect(parsed.data!.responses.length).toBe(parsed.data!.answer.split('\n\n').length);
    await expect.poll(() => emulator!.stats().delivered).toBe(1);
    expect(emulator!.stats()).toMatchObject({ accepted: 1, deliveryAttempts: 1 });
  });

  it('gives every request its own requestId', async () => {
    sink = await startSink();
    const c = await start({ webhookUrl: sink.url });
    const acks = await Promise.all(Array.from({ length: 20 }, () => c.call('POST', ASYNC, BUY)));
    expect(new Set(acks.map((a) => a.body.requestId)).size).toBe(20);
    await sink.waitFor(20);
  });

  it('waits ackDelayMs before acknowledging', async () => {
    sink = await startSink();
    const c = await start({ webhookUrl: sink.url, ackDelayMs: 40 });
    const t0 = performance.now();
    const ack = await c.call('POST', ASYNC, BUY);
    expect(ack.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });

  it('400 with the spec texts, checked in order humanMessage, webhook, test customer', async () => {
    let c = await start({ webhookUrl: null, testCustomerId: null });
    let res = await c.call('POST', ASYNC, { humanMessage: 'not an object' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid humanMessage format' });
    res = await c.call('POST', ASYNC, BUY);
    expect(res.body).toEqual({
      error: 'Bad Request',
      message: 'Webhook URL is not configured. Please set up the webhook in the integration settings first.',
    });
    emulator!.setWebhook('http://127.0.0.1:9/hook');
    res = await c.call('POST', ASYNC, BUY);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Droid Missing Test Customer Id' });
    expect(errorBodySchema.safeParse(res.body).success).toBe(true);
    expect(emulator!.stats()).toMatchObject({ accepted: 0, rejected: 3 });
    await c.close();
    client = undefined;
  });

  it('401 Invalid API key for a missing or wrong token, on every endpoint', async () => {
    const c = await start({ webhookUrl: 'http://127.0.0.1:9/hook' }, 'wrong-token');
    for (const path of [ASYNC, ANSWER, '/api/droids/1/endpoint/channels']) {
      const res = await c.call(path.endsWith('channels') ? 'GET' : 'POST', path, path.endsWith('channels') ? undefined : BUY);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
    }
    const bare = createJsonClient(`http://127.0.0.1:${(emulator!.app.server.address() as { port: number }).port}`, '');
    const res = await bare.call('POST', ASYNC, BUY);
    await bare.close();
    expect(res.body).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
  });

  it('403 Forbidden for another droid, before looking at the body', async () => {
    const c = await start({ webhookUrl: 'http://127.0.0.1:9/hook' });
    const res = await c.call('POST', '/api/droids/2/endpoint/get-droid-answer-async', { humanMessage: 7 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Forbidden');
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses the old token at once after rotateToken()', async () => {
    const c = await start();
    const old = emulator!.token;
    const fresh = emulator!.rotateToken();
    expect(fresh).not.toBe(old);
    const res = await c.call('POST', ANSWER, BUY);
    expect(res.status).toBe(401);
  });
});

describe('webhook delivery retries', () => {
  it('retries a 500-answering receiver, then succeeds', async () => {
    sink = await startSink((n) => (n < 3 ? 500 : 200));
    const c = await start({ webhookUrl: sink.url, delivery: { attempts: 3, backoffMs: 10 } });
    const ack = await c.call('POST', ASYNC, BUY);
    const deliveries = await sink.waitFor(3);
    expect(deliveries.every((d) => (d.body as { requestId: string }).requestId === ack.body.requestId)).toBe(true);
    await expect.poll(() => emulator!.stats().delivered).toBe(1);
    expect(emulator!.stats()).toMatchObject({ deliveryAttempts: 3, attemptFailures: 2, retries: 2, deliveryFailures: 0 });
  });

  it('gives up after the configured attempts and counts a failure', async () => {
    sink = await startSink(() => 503);
    const c = await start({ webhookUrl: sink.url, delivery: { attempts: 2, backoffMs: 5 } });
    await c.call('POST', ASYNC, BUY);
    await sink.waitFor(2);
    await expect.poll(() => emulator!.stats().deliveryFailures).toBe(1);
    expect(emulator!.stats()).toMatchObject({ deliveryAttempts: 2, delivered: 0, pending: 0 });
    expect(sink.deliveries).toHaveLength(2);
  });

  it('treats a receiver slower than timeoutMs as failed and retries', async () => {
    let calls = 0;
    const slow = (await import('fastify')).default();
    slow.post('/hook', async () => {
      calls += 1;
      if (calls === 1) await new Promise((r) => setTimeout(r, 300));
      return { ok: true };
    });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (slow.server.address() as { port: number }).port;
      const c = await start({ webhookUrl: `http://127.0.0.1:${port}/hook`, delivery: { attempts: 2, backoffMs: 5, timeoutMs: 80 } });
      await c.call('POST', ASYNC, BUY);
      await expect.poll(() => emulator!.stats().delivered, { timeout: 2_000 }).toBe(1);
      expect(emulator!.stats().attemptFailures).toBe(1);
      expect(calls).toBe(2);
    } finally {
      await emulator?.close();
      await slow.close();
    }
  });

  it('close() cancels a pending answer: nothing is delivered afterwards', async () => {
    sink = await startSink();
    const c = await start({ webhookUrl: sink.url, answerDelayMs: 100 });
    const ack = await c.call('POST', ASYNC, BUY);
    expect(ack.status).toBe(200);
    await emulator!.close();
    await new Promise((r) => setTimeout(r, 150));
    expect(sink.deliveries).toHaveLength(0);
  });
});
