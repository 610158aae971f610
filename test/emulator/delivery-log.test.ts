/**
 * Webhook delivery log: the ring buffer alone (no socket), retention sweep (injected clock),
 * debug page and echo receiver against real deliveries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerPayloadSchema } from '../../src/contract/index.js';
import { DeliveryLog, type NewDeliveryLogEntry } from '../../src/emulator/delivery-log.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createJsonClient, startSink, type Sink } from './helpers.js';

const T0 = Date.parse('2025-01-15T00:00:00Z');
const entry = (i: number, over: Partial<NewDeliveryLogEntry> = {}): NewDeliveryLogEntry => ({
  kind: 'answer',
  requestId: `tpa-${i}`,
  attempt: 1,
  targetUrl: 'http://127.0.0.1:9/hook',
  status: 200,
  ok: true,
  durationMs: 1,
  error: '',
  startedAtMs: T0 + i * 1000,
  requestBody: `{"requestId":"tpa-${i}"}`,
  responseBody: '',
  ...over,
});

describe('DeliveryLog ring buffer', () => {
  it('keeps the newest maxEntries, newest first, with increasing ids', () => {
    const log = new DeliveryLog(7 * 86_400_000, () => new Date(T0), 5);
    for (let i = 1; i <= 12; i++) log.add(entry(i));
    expect(log.size).toBe(5);
    const all = log.query();
    expect(all.map((e) => e.requestId)).toEqual(['tpa-12', 'tpa-11', 'tpa-10', 'tpa-9', 'tpa-8']);
    expect(all.map((e) => e.id)).toEqual([12, 11, 10, 9, 8]);
    expect(all[0]).not.toHaveProperty('startedAtMs');
    expect(all[0]).not.toHaveProperty('requestBody');
    expect(all[0]!.timestamp).toBe(new Date(T0 + 12_000).toISOString());
    expect(all[0]!.requestPayload).toEqual({ requestId: 'tpa-12' });
  });

  it('filters by status, kind, date range and limit', () => {
    const log = new DeliveryLog(7 * 86_400_000, () => new Date(T0), 100);
    log.add(entry(1));
    log.add(entry(2, { ok: false, status: 500, error: 'HTTP 500' }));
    log.add(entry(3, { kind: 'message' }));
    log.add(entry(4, { kind: 'intent', ok: false, status: null, error: 'ECONNREFUSED' }));
    expect(log.query({ status: 'failed' }).map((e) => e.requestId)).toEqual(['tpa-4', 'tpa-2']);
    expect(log.query({ status: 500 }).map((e) => e.requestId)).toEqual(['tpa-2']);
    expect(log.query({ kind: 'message' }).map((e) => e.requestId)).toEqual(['tpa-3']);
    expect(log.query({ from: new Date(T0 + 2000), to: new Date(T0 + 3000) }).map((e) => e.requestId)).toEqual([
      'tpa-3',
      'tpa-2',
    ]);
    expect(log.query({ limit: 1 }).map((e) => e.requestId)).toEqual(['tpa-4']);
  });

  it('sweeps by retention with the injected clock, then keeps adding in order', () => {
    let now = new Date(T0 + 10_000);
    const log = new DeliveryLog(5_000, () => now, 4);
    for (let i = 1; i <= 6; i++) log.add(entry(i)); // holds 3..6, ring wrapped
    expect(log.sweep()).toBe(2); // 3 and 4 are older than now - 5 s
    expect(log.query().map((e) => e.requestId)).toEqual(['tpa-6', 'tpa-5']);
    log.add(entry(7));
    log.add(entry(8));
    log.add(entry(9));
    expect(log.query().map((e) => e.requestId)).toEqual(['tpa-9', 'tpa-8', 'tpa-7', 'tpa-6']);
    now = new Date(T0 + 60_000);
    expect(log.sweep()).toBe(4);
    expect(log.size).toBe(0);
    expect(log.query()).toEqual([]);
  });
});

const SECRET = 'log-secret-0123456789abcdef0123456789';
const BUY = { humanMessage: { content: 'I want to buy a belt' } };

let emulator: Emulator | undefined;
let sink: Sink | undefined;
let client: ReturnType<typeof createJsonClient> | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  await sink?.close();
  emulator = sink = client = undefined;
});

describe('delivery log and debug page', () => {
  it('logs every attempt without the secret and filters by status', async () => {
    sink = await startSink((n) => (n === 1 ? 500 : 200));
    emulator = await createEmulator({ webhookUrl: sink.url, webhookSecret: SECRET, delivery: { backoffMs: 5 } });
    const base = await emulator.listen();
    client = createJsonClient(base, emulator.token);
    const ack = await client.call('POST', '/api/droids/1/endpoint/get-droid-answer-async', BUY);
    await expect.poll(() => emulator!.stats().delivered).toBe(1);

    const all = await client.call('GET', '/droids/1/debug/webhooks?format=json');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    const [second, first] = all.body.deliveries;
    expect(first).toMatchObject({
      kind: 'answer',
      requestId: ack.body.requestId,
      attempt: 1,
      status: 500,
      ok: false,
      targetUrl: sink.url,
    });
    expect(second).toMatchObject({ attempt: 2, status: 200, ok: true, error: '' });
    expect(first.error).toBe('HTTP 500');
    expect(typeof first.durationMs).toBe('number');
    expect(answerPayloadSchema.safeParse(second.requestPayload).success).toBe(true);
    expect(JSON.stringify(all.body)).not.toContain(SECRET);

    const failed = await client.call('GET', '/droids/1/debug/webhooks?format=json&status=failed');
    expect(failed.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([1]);
    const future = await client.call(
      'GET',
      `/droids/1/debug/webhooks?format=json&from=${encodeURIComponent('2999-01-01T00:00:00Z')}`,
    );
    expect(future.body.total).toBe(0);

    const html = await client.call('GET', '/droids/1/debug/webhooks?status=success');
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.text).toContain(ack.body.requestId);
    expect(html.text).toContain('<option value="success" selected>');
    expect(html.text).not.toContain(SECRET);
    expect((await client.call('GET', '/droids/1/debug/webhooks?status=maybe')).status).toBe(400);
    expect((await client.call('GET', '/droids/1/debug/webhooks?kind=other')).status).toBe(400);
    expect((await client.call('GET', '/droids/7/debug/webhooks')).status).toBe(403);
  });

  it('sweeps entries older than the retention (7 days by default) using the injected clock', async () => {
    let now = new Date('2025-01-15T03:30:00Z');
    sink = await startSink();
    emulator = await createEmulator({ webhookUrl: sink.url, clock: { wallNow: () => now } });
    client = createJsonClient(await emulator.listen(), emulator.token);
    await client.call('POST', '/api/droids/1/endpoint/get-droid-answer-async', BUY);
    await expect.poll(() => emulator!.stats().delivered).toBe(1);
    now = new Date('2025-01-22T03:29:00Z'); // 6 days 23h59m later
    expect(emulator.sweepDeliveryLog()).toBe(0);
    now = new Date('2025-01-22T03:31:00Z'); // just over 7 days
    expect(emulator.sweepDeliveryLog()).toBe(1);
    expect((await client.call('GET', '/droids/1/debug/webhooks?format=json')).body.total).toBe(0);
  });
});

describe('dev echo receiver', () => {
  it('accepts the emulator own deliveries and lists them', async () => {
    emulator = await createEmulator({ webhookSecret: SECRET });
    const base = await emulator.listen();
    emulator.setWebhook(`${base}/api/droids/1/test-async-answer-webhook`);
    client = createJsonClient(base, emulator.token);
    const ack = await client.call('POST', '/api/droids/1/endpoint/get-droid-answer-async', BUY);
    await expect.poll(() => emulator!.stats().delivered).toBe(1);
    const echo = await client.call('GET', '/api/droids/1/test-async-answer-webhook');
    expect(echo.body.total).toBe(1);
    expect(echo.body.received[0]).toMatchObject({ secretPresent: true, body: { requestId: ack.body.requestId } });
  });
});
