/**
 * Webhook delivery log, retention sweep (injected clock), debug page, echo receiver.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerPayloadSchema } from '../../src/contract/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createJsonClient, startSink, type Sink } from './helpers.js';

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
    expect(first).toMatchObject({ requestId: ack.body.requestId, attempt: 1, status: 500, ok: false, targetUrl: sink.url });
    expect(second).toMatchObject({ attempt: 2, status: 200, ok: true, error: '' });
    expect(first.error).toBe('HTTP 500');
    expect(typeof first.durationMs).toBe('number');
    expect(answerPayloadSchema.safeParse(second.requestPayload).success).toBe(true);
    expect(JSON.stringify(all.body)).not.toContain(SECRET);

    const failed = await client.call('GET', '/droids/1/debug/webhooks?format=json&status=failed');
    expect(failed.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([1]);
    const future = await client.call('GET', `/droids/1/debug/webhooks?format=json&from=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(future.body.total).toBe(0);

    const html = await client.call('GET', '/droids/1/debug/webhooks?status=success');
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.text).toContain(ack.body.requestId);
    expect(html.text).toContain('<option value="success" selected>');
    expect(html.text).not.toContain(SECRET);
    expect((await client.call('GET', '/droids/1/debug/webhooks?status=maybe')).status).toBe(400);
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
