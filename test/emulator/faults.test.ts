/**
 * Fault injection: request faults, webhook faults, runtime control, determinism.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { errorPayloadSchema } from '../../src/contract/index.js';
import {
  createEmulator,
  FaultProfileError,
  parseFaultProfile,
  type FaultProfileInput,
} from '../../src/emulator/index.js';
import { createJsonClient, injectClient, startSink, type Sink } from './helpers.js';

const SECRET = 'fault-secret-0123456789abcdef0123456789';
const SYNC = '/api/droids/1/endpoint/get-droid-answer';
const ASYNC = '/api/droids/1/endpoint/get-droid-answer-async';
const BODY = { humanMessage: { content: 'Hello' } };

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.close();
});

async function start(faults: FaultProfileInput, extra: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = await createEmulator({ faults, ...extra });
  const url = await emulator.listen();
  started.push(emulator);
  const client = createJsonClient(url, emulator.token);
  started.push(client);
  return { emulator, client, url };
}

async function sink(): Promise<Sink> {
  const s = await startSink();
  started.push(s);
  return s;
}

/** An emulator that is not listening, driven through inject() (for what needs no socket). */
async function startInject(faults: FaultProfileInput, extra: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = await createEmulator({ faults, ...extra });
  started.push(emulator);
  return { emulator, client: injectClient(emulator) };
}

async function statusSequence(faults: FaultProfileInput, n: number): Promise<number[]> {
  const { client } = await startInject(faults);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await client.call('POST', SYNC, BODY)).status);
  return out;
}

describe('request faults', () => {
  const flaky = (seed: number): FaultProfileInput => ({
    seed,
    requests: [{ endpoint: 'get-droid-answer', probability: 0.5, action: 'error', status: 503 }],
  });

  it('same seed => same fault sequence; another seed => another one', async () => {
    const a = await statusSequence(flaky(7), 24);
    const b = await statusSequence(flaky(7), 24);
    const c = await statusSequence(flaky(8), 24);
    expect(a).toEqual(b);
    expect(new Set(a)).toEqual(new Set([200, 503]));
    expect(c).not.toEqual(a);
  });

  it('injects 429 with Retry-After only on the named endpoint', async () => {
    const { client, emulator } = await startInject({
      requests: [{ endpoint: ['get-droid-answer'], action: 'rate-limit', retryAfterS: 3 }],
    });
    const res = await client.call('POST', SYNC, BODY);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.body.error).toBe('Too Many Requests');
    expect((await client.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(200);
    expect(emulator.stats().injectedFaults).toBe(1);
  });

  it('resets the connection, and a hung request does not stop close()', async () => {
    const { url, emulator } = await start({
      requests: [
        { endpoint: 'get-droid-answer', action: 'reset' },
        { endpoint: 'channels', action: 'hang' },
      ],
    });
    const agent = new Agent();
    try {
      const headers = { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' };
      await expect(
        request(`${url}${SYNC}`, { method: 'POST', headers, body: JSON.stringify(BODY), dispatcher: agent }),
      ).rejects.toThrow();
      const hung = request(`${url}/api/droids/1/endpoint/channels`, { headers, dispatcher: agent });
      hung.catch(() => {}); // rejects at close(); awaited below
      await expect.poll(() => emulator.stats().injectedFaults).toBe(2); // the hang is in place
      // A close() that waited for the held request would wait for ever (a hang holds until its
      // socket is destroyed): the test's timeout, not a bound in seconds, catches that.
      await emulator.close();
      await expect(hung).rejects.toThrow();
    } finally {
      await agent.destroy();
    }
  });

  it('delays the acknowledgement by the ackDelay distribution', async () => {
    const s = await sink();
    const { client } = await start({ ackDelay: { kind: 'fixed', ms: 40 } }, { webhookUrl: s.url });
    const t0 = performance.now();
    expect((await client.call('POST', ASYNC, BODY)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });
});

describe('webhook faults', () => {
  it('drops a delivery', async () => {
    const s = await sink();
    const { client, emulator } = await start({ webhooks: [{ action: 'drop' }] }, { webhookUrl: s.url });
    await client.call('POST', ASYNC, BODY);
    await expect.poll(() => emulator.stats().dropped).toBe(1);
    // Nothing waits to be sent: no timer, no delivery in flight.
    expect(emulator.stats()).toMatchObject({ scheduled: 0, pending: 0, deliveryAttempts: 0 });
    expect(s.deliveries).toHaveLength(0);
  });

  it('duplicates a delivery N times with the same requestId', async () => {
    const s = await sink();
    const { client, emulator } = await start({ webhooks: [{ action: 'duplicate', copies: 3 }] }, { webhookUrl: s.url });
    const ack = await client.call('POST', ASYNC, BODY);
    const got = await s.waitFor(3);
    expect(got.map((d) => (d.body as { requestId: string }).requestId)).toEqual([
      ack.body.requestId,
      ack.body.requestId,
      ack.body.requestId,
    ]);
    expect(emulator.stats().duplicated).toBe(2);
  });

  it('delivers late', async () => {
    const s = await sink();
    const { client } = await start({ webhooks: [{ action: 'late', delayMs: 120 }] }, { webhookUrl: s.url });
    const t0 = Date.now();
    await client.call('POST', ASYNC, BODY);
    const [d] = await s.waitFor(1);
    expect(d!.at - t0).toBeGreaterThanOrEqual(110);
  });

  it('sends the error payload instead of an answer (default text as on the async docs page)', async () => {
    const s = await sink();
    const { client } = await start(
      { webhooks: [{ action: 'error-payload', error: 'Failed to generate AI response: model overloaded' }] },
      { webhookUrl: s.url },
    );
    const ack = await client.call('POST', ASYNC, BODY);
    const [d] = await s.waitFor(1);
    const parsed = errorPayloadSchema.safeParse(d!.body);
    expect(parsed.success).toBe(true);
    expect(d!.body).toMatchObject({
      requestId: ack.body.requestId,
      answer: '',
      error: 'Failed to generate AI response: model overloaded',
    });
    expect(d!.body).not.toHaveProperty('shoppingCart');
    expect(parseFaultProfile({ webhooks: [{ action: 'error-payload' }] }).webhooks[0]).toMatchObject({
      error: 'Failed to generate AI response: timeout',
    });
  });

  it('sends a wrong or a missing secret', async () => {
    const s = await sink();
    const { client, emulator } = await start(
      { webhooks: [{ action: 'wrong-secret' }] },
      { webhookUrl: s.url, webhookSecret: SECRET },
    );
    await client.call('POST', ASYNC, BODY);
    emulator.setFaults({ webhooks: [{ action: 'missing-secret' }] });
    await client.call('POST', ASYNC, BODY);
    await s.waitFor(2);
    const secrets = s.deliveries.map((d) => d.query.secret);
    expect(secrets).toContain(undefined);
    expect(secrets.find((x) => x !== undefined)).toMatch(/^wrong-/);
    expect(emulator.stats().badSecret).toBe(2);
  });
});

describe('runtime control', () => {
  it('GET/PUT /__emulator/faults with YAML or JSON, 400 for an invalid profile, 401 without token', async () => {
    const { client, emulator } = await startInject(undefined as unknown as FaultProfileInput);
    expect((await client.call('GET', '/__emulator/faults')).body).toEqual({ requests: [], webhooks: [] });
    const yaml = 'seed: 3\nrequests:\n  - { endpoint: get-droid-answer, action: error, status: 502 }\n';
    const put = await client.call('PUT', '/__emulator/faults', yaml, { 'content-type': 'application/yaml' });
    expect(put.status).toBe(200);
    expect(put.body.requests[0]).toMatchObject({
      endpoint: 'get-droid-answer',
      action: 'error',
      status: 502,
      probability: 1,
    });
    expect((await client.call('POST', SYNC, BODY)).status).toBe(502);
    const bad = await client.call('PUT', '/__emulator/faults', { requests: [{ action: 'explode' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('requests.0.action');
    expect((await client.call('PUT', '/__emulator/faults', {})).status).toBe(200);
    expect((await client.call('POST', SYNC, BODY)).status).toBe(200);
    const stats = await client.call('GET', '/__emulator/stats');
    expect(stats.body).toMatchObject({ syncAnswered: 1, injectedFaults: 1 });
    expect((await injectClient(emulator, '').call('GET', '/__emulator/stats')).status).toBe(401);
  });

  it('webhook rules apply to the answer webhook unless a target says otherwise; error-payload is answer-only', () => {
    expect(parseFaultProfile({ webhooks: [{ action: 'drop' }] }).webhooks[0]!.target).toBe('answer');
    expect(parseFaultProfile({ webhooks: [{ target: 'message', action: 'duplicate' }] }).webhooks[0]!.target).toBe(
      'message',
    );
    // @ts-expect-error: the schema's type already refuses it; the parser refuses it at run time too (YAML, PUT)
    expect(() => parseFaultProfile({ webhooks: [{ target: 'intent', action: 'error-payload' }] })).toThrow(
      /webhooks\.0\.target: error-payload applies to the answer webhook only/,
    );
    // A field of another action is refused, not ignored.
    expect(() => parseFaultProfile('webhooks: [{ action: drop, copies: 3 }]')).toThrow(/webhooks\.0/);
    expect(() => parseFaultProfile('webhooks: [{ target: mail, action: drop }]')).toThrow(FaultProfileError);
  });

  it('parseFaultProfile validates distributions and probabilities', () => {
    expect(() => parseFaultProfile({ requests: [{ action: 'error', probability: 2 }] })).toThrow(FaultProfileError);
    expect(() => parseFaultProfile('answerDelay: { kind: lognormal, medianMs: 0, sigma: 1 }')).toThrow(
      FaultProfileError,
    );
    expect(parseFaultProfile('answerDelay: { kind: uniform, minMs: 1, maxMs: 5 }').answerDelay).toEqual({
      kind: 'uniform',
      minMs: 1,
      maxMs: 5,
    });
  });
});

describe('burst-first-late: a burst answered out of order', () => {
  it('defaults its hold to 1 s and never hides the rules after it', async () => {
    const profile = parseFaultProfile({ requests: [{ action: 'burst-first-late' }, { action: 'error', status: 502 }] });
    expect(profile.requests[0]).toEqual({ endpoint: '*', probability: 1, action: 'burst-first-late', delayMs: 1000 });
    expect(await statusSequence(profile, 3)).toEqual([502, 502, 502]);
  });

  it("holds the first message's answer when a later message of its burst arrives, not any other answer", async () => {
    const hook = await sink();
    const { client, emulator } = await start(
      // Answers slow enough that the later messages come while the first is still being made.
      { answerDelay: { kind: 'fixed', ms: 1000 }, requests: [{ action: 'burst-first-late', delayMs: 600 }] },
      { webhookUrl: hook.url, webhookSecret: SECRET },
    );
    const t0 = performance.now();
    const first = await client.call('POST', ASYNC, { humanMessage: { content: 'I want 2 T-Shirt' } });
    // Another conversation's message, and a message of none: neither is held.
    await client.call('POST', ASYNC, {
      humanMessage: { content: 'I want 2 T-Shirt' },
      chatHistory: [{ type: 'ai', content: 'Hi' }],
    });
    const second = await client.call('POST', ASYNC, {
      humanMessage: { content: 'and 1 Canvas Bag' },
      chatHistory: [{ type: 'human', content: 'I want 2 T-Shirt' }],
    });
    const got = await hook.waitFor(3, 10_000);
    const order = got.map((d) => (d.body as { requestId: string }).requestId);
    expect(order.indexOf(first.body.requestId)).toBe(2);
    expect(order.indexOf(second.body.requestId)).toBeLessThan(2);
    // Held 600 ms past its 1 s answer time.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1600);
    expect(emulator.stats().injectedFaults).toBe(1);
  });
});
