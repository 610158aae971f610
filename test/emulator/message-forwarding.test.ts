/**
 * Message forwarding (docs thirdparty/receiving-webhook.mdx) against a real sink on
 * 127.0.0.1:0: every stored message is POSTed as a documented MessageForwarding body with
 * `?verify_token=`; a bot reply to `send` comes after the answer delay, never in the response.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkContract, CONTRACTS, messageForwardingSchema } from '../../src/contract/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { createJsonClient, startSink, type Sink } from './helpers.js';

const TOKEN = 'verify-token-0123456789abcdefghijklmnop';
const SEND = '/api/droids/1/endpoint/send';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.close();
});

async function setUp(
  options: EmulatorOptions = {},
): Promise<{ emulator: Emulator; sink: Sink; client: ReturnType<typeof createJsonClient> }> {
  const sink = await startSink(undefined, '/messages');
  started.push(sink);
  const emulator = await createEmulator({
    messageWebhookUrl: sink.url,
    verifyToken: TOKEN,
    answerDelayMs: 80,
    ...options,
  });
  started.push(emulator);
  const client = createJsonClient(await emulator.listen(), emulator.token);
  started.push(client);
  return { emulator, sink, client };
}

type Forwarded = {
  mid: string;
  type: string;
  customerId: number;
  content: { type: string; value: unknown; alt?: string };
};

describe('message forwarding', () => {
  it('forwards the human message at once and the bot reply after the answer delay, with ?verify_token=', async () => {
    const { emulator, sink, client } = await setUp();
    const t0 = Date.now();
    const sent = await client.call('POST', SEND, { customerId: 2003, humanMessage: 'I want to buy 2 Oxford shirts' });
    expect(sent.body).toEqual({ success: true, mid: expect.any(String) });
    const [first, second] = await sink.waitFor(2);
    for (const d of [first!, second!]) {
      expect(d.query).toEqual({ verify_token: TOKEN });
      const check = checkContract(CONTRACTS['message-webhook'], d.body);
      expect(check.violations).toEqual([]);
      expect(check.unknownFields).toEqual([]);
    }
    const human = first!.body as Forwarded;
    const reply = second!.body as Forwarded;
    expect(human).toMatchObject({
      mid: sent.body.mid,
      type: 'human',
      customerId: 2003,
      content: { type: 'text', value: 'I want to buy 2 Oxford shirts' },
    });
    expect(messageForwardingSchema.parse(human)).toMatchObject({
      droidId: 1,
      channelId: 3,
      chatId: expect.any(Number),
    });
    expect(reply).toMatchObject({
      type: 'ai',
      customerId: 2003,
      content: { type: 'text', value: expect.stringContaining('2,580.00 THB') },
    });
    expect(reply.mid).not.toBe(human.mid);
    expect(second!.at - t0).toBeGreaterThanOrEqual(75);
    expect(emulator.stats()).toMatchObject({ messagesStored: 2, messagesForwarded: 2, botReplies: 1 });
  });

  it('forwards an image with its alt text, and nothing but the human message when the bot is off', async () => {
    const { emulator, sink, client } = await setUp();
    await client.call('POST', '/api/droids/1/endpoint/customer/2003', { botEnabled: false });
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'https://cdn.example.com/p/silk-scarf.webp' });
    const [d] = await sink.waitFor(1);
    expect((d!.body as Forwarded).content).toEqual({
      type: 'image',
      value: 'https://cdn.example.com/p/silk-scarf.webp',
      alt: expect.stringContaining('Silk scarf'),
    });
    expect(emulator.stats().scheduled).toBe(0);
    await expect.poll(() => emulator.stats().pending).toBe(0);
    expect(sink.deliveries).toHaveLength(1);
  });

  it('forwards injected admin and button messages (API and /__emulator/messages)', async () => {
    const { emulator, sink, client } = await setUp();
    const mid = emulator.addMessage({
      customerId: 2002,
      type: 'admin',
      content: { type: 'text', value: 'A person will call you.' },
    });
    const res = await client.call('POST', '/__emulator/messages', {
      customerId: '2002',
      type: 'system',
      content: { type: 'button', value: ['Yes', 'No'] },
    });
    expect(res.body).toEqual({ success: true, mid: expect.stringMatching(/^ddtp-/) });
    const [a, b] = await sink.waitFor(2);
    expect(a!.body).toMatchObject({ mid, type: 'admin', content: { type: 'text', value: 'A person will call you.' } });
    expect(b!.body).toMatchObject({ type: 'system', content: { type: 'button', value: ['Yes', 'No'] } });
    expect(messageForwardingSchema.safeParse(b!.body).success).toBe(true);
    const conv = await client.call('GET', '/api/droids/1/endpoint/customer/2002/conversations');
    expect(conv.body.conversations[0]).toMatchObject({ type: 'system', contentType: 'button', content: 'Yes\nNo' });
    const bad = await client.call('POST', '/__emulator/messages', {
      customerId: 2002,
      type: 'robot',
      content: { type: 'button', value: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/type/);
    expect(() =>
      emulator.addMessage({ customerId: 999, type: 'admin', content: { type: 'text', value: 'x' } }),
    ).toThrow(/no customer 999/);
  });

  it('forwards nothing without a message webhook; setMessageWebhook and PUT /__emulator/message-webhook turn it on', async () => {
    const sink = await startSink(undefined, '/messages');
    started.push(sink);
    const emulator = await createEmulator({ answerDelayMs: 0 });
    started.push(emulator);
    const client = createJsonClient(await emulator.listen(), emulator.token);
    started.push(client);
    await client.call('POST', '/api/droids/1/endpoint/customer/2003', { botEnabled: false });
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'one' });
    expect(emulator.stats().messagesForwarded).toBe(0);
    const put = await client.call('PUT', '/__emulator/message-webhook', { url: sink.url, verifyToken: TOKEN });
    expect(put.body).toEqual({ messageWebhookConfigured: true });
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'two' });
    emulator.setMessageWebhook(`${sink.url}?x=1`); // keeps the verify token
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'three' });
    const got = await sink.waitFor(2);
    expect(got.map((d) => (d.body as Forwarded).content.value)).toEqual(['two', 'three']);
    expect(got[1]!.query).toEqual({ x: '1', verify_token: TOKEN });
    expect((await client.call('PUT', '/__emulator/message-webhook', { url: 'not a url' })).status).toBe(400);
  });

  it('applies message faults: drop and wrong verify token; the answer webhook is untouched', async () => {
    const { emulator, sink, client } = await setUp({
      faults: { webhooks: [{ target: 'message', action: 'wrong-secret' }] },
    });
    await client.call('POST', '/api/droids/1/endpoint/customer/2003', { botEnabled: false });
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'hello' });
    const [d] = await sink.waitFor(1);
    expect(d!.query.verify_token).toMatch(/^wrong-/);
    emulator.setFaults({ webhooks: [{ target: 'message', action: 'drop' }] });
    await client.call('POST', SEND, { customerId: 2003, humanMessage: 'again' });
    await expect.poll(() => emulator.stats().pending).toBe(0);
    expect(emulator.stats()).toMatchObject({ dropped: 1, badSecret: 1, messagesStored: 2, messagesForwarded: 2 });
    expect(sink.deliveries).toHaveLength(1);
    const log = await client.call('GET', '/droids/1/debug/webhooks?format=json&kind=message');
    expect(log.body.deliveries).toHaveLength(1);
    expect(log.body.deliveries[0]).toMatchObject({ kind: 'message', targetUrl: sink.url });
    expect(JSON.stringify(log.body)).not.toContain(TOKEN);
  });
});
