/**
 * Intent webhooks (docs thirdparty/intent-webhook.mdx) against a real sink on 127.0.0.1:0: a
 * detected intent with a webhook POSTs the documented IntentWebhookRequest (secret in the body,
 * customer_id a string, cart lines as numbers) for sync and async answers and bot replies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkContract, CONTRACTS, type IntentWebhookRequest } from '../../src/contract/index.js';
import {
  createEmulator,
  loadProfile,
  parseProfile,
  type Emulator,
  type EmulatorOptions,
  type EmulatorProfile,
} from '../../src/emulator/index.js';
import { ScenarioError } from '../../src/errors.js';
import { createJsonClient, injectClient, startSink, type Sink } from './helpers.js';

const SECRET = 'intent-secret-0123456789abcdefghijklmnop';
const BUY = 'I want to buy 2 Oxford shirts, pay by bank transfer, send to 99 Sukhumvit Rd, Bangkok 10110';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0).reverse()) await s.close();
});

function profileWithHook(url: string): EmulatorProfile {
  const base = loadProfile();
  return {
    ...base,
    intents: base.intents.map((i) => (i.name === 'purchase' ? { ...i, webhook: { url, secret: SECRET } } : i)),
  };
}

async function setUp(options: (sinkUrl: string) => EmulatorOptions): Promise<{ emulator: Emulator; sink: Sink }> {
  const sink = await startSink(undefined, '/intents');
  started.push(sink);
  const emulator = await createEmulator({ answerDelayMs: 0, ...options(sink.url) });
  started.push(emulator);
  return { emulator, sink };
}

describe('intent webhooks', () => {
  it('POSTs the documented IntentWebhookRequest for a sync answer (mid = requestId)', async () => {
    const { emulator, sink } = await setUp((url) => ({ profile: profileWithHook(url) }));
    await emulator.listen();
    const res = await injectClient(emulator).call('POST', '/api/droids/1/endpoint/get-droid-answer', {
      humanMessage: BUY,
    });
    const [d] = await sink.waitFor(1);
    const check = checkContract(CONTRACTS['intent-webhook'], d!.body);
    expect(check.violations).toEqual([]);
    expect(check.unknownFields).toEqual([]);
    const body = d!.body as IntentWebhookRequest;
    expect(body).toMatchObject({
      mid: res.body.requestId,
      customer_id: '1001',
      intent: 'purchase',
      secret: SECRET,
      payment_method: 'bank_transfer',
      address_parsing: {
        street_address: '99 Sukhumvit Rd',
        city: 'Bangkok',
        postal_code: '10110',
        country: 'Thailand',
      },
      contact_info: { language: 'en', languageName: 'English', zipcode: '10110' },
    });
    expect(body.shopping_cart).toEqual({
      products: [{ code: 'OXFORD-SHIRT', name: 'Oxford shirt', price: 1290, count: 2, total: 2580, available: true }],
      shippingFee: '0',
      grandTotal: '2,580.00 THB',
      unavailableCount: 0,
    });
    expect(emulator.stats().intentWebhooks).toBe(1);
  });

  it('fires for an async answer and for a bot reply to send (customer_id of that customer, mid of the reply)', async () => {
    const messages = await startSink(undefined, '/messages');
    started.push(messages);
    const { emulator, sink } = await setUp((url) => ({
      profile: profileWithHook(url),
      webhookUrl: messages.url,
      messageWebhookUrl: messages.url,
    }));
    const client = createJsonClient(await emulator.listen(), emulator.token);
    started.push(client);
    const ack = await client.call('POST', '/api/droids/1/endpoint/get-droid-answer-async', {
      humanMessage: { content: BUY },
    });
    const [fromAsync] = await sink.waitFor(1);
    expect(fromAsync!.body).toMatchObject({ mid: ack.body.requestId, customer_id: '1001', intent: 'purchase' });
    await client.call('POST', '/api/droids/1/endpoint/send', {
      customerId: 2003,
      humanMessage: 'I want to buy a leather belt',
    });
    const got = await sink.waitFor(2);
    await expect
      .poll(() => messages.deliveries.filter((m) => (m.body as { type?: string }).type === 'ai').length)
      .toBe(1);
    const reply = messages.deliveries.find((m) => (m.body as { type?: string }).type === 'ai')!.body as { mid: string };
    expect(got[1]!.body).toMatchObject({ customer_id: '2003', intent: 'purchase', mid: reply.mid });
    expect((got[1]!.body as IntentWebhookRequest).shopping_cart.products).toEqual([
      { code: 'LEATHER-BELT', name: 'Leather belt', price: 690, count: 1, total: 690, available: true },
    ]);
  });

  it('sends nothing for intents without a webhook; the intentWebhook option covers every (or named) intents', async () => {
    const { emulator, sink } = await setUp((url) => ({
      intentWebhook: { url, secret: SECRET, intents: ['greeting'] },
    }));
    const c = injectClient(emulator);
    await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: BUY });
    expect(emulator.stats().intentWebhooks).toBe(0);
    await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: 'Hello there!' });
    const [d] = await sink.waitFor(1);
    expect(d!.body).toMatchObject({ intent: 'greeting', secret: SECRET, payment_method: 'other' });
    emulator.setIntentWebhook(null);
    await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: 'Hello again!' });
    expect(emulator.stats().intentWebhooks).toBe(1);
    const put = await c.call('PUT', '/__emulator/intent-webhook', { url: sink.url, intents: ['nope'] });
    expect(put.status).toBe(400);
    expect(put.body.message).toContain('unknown intent(s) nope');
  });

  it('applies intent faults: a wrong body secret', async () => {
    const { emulator, sink } = await setUp((url) => ({
      profile: profileWithHook(url),
      faults: { webhooks: [{ target: 'intent', action: 'wrong-secret' }] },
    }));
    await injectClient(emulator).call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: BUY });
    const [d] = await sink.waitFor(1);
    expect((d!.body as IntentWebhookRequest).secret).toMatch(/^wrong-/);
    expect(emulator.stats().badSecret).toBe(1);
  });
});

describe('profile intents', () => {
  it('reports the droid intent names the profile gives, from detectors and keywords', async () => {
    const base = loadProfile();
    const emulator = await createEmulator({
      profile: {
        ...base,
        intents: [
          { name: 'Price Question', detects: ['price_inquiry'], keywords: [] },
          { name: 'Gift', detects: [], keywords: ['gift', 'ของขวัญ'] },
        ],
      },
    });
    started.push(emulator);
    const c = injectClient(emulator);
    const price = await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', {
      humanMessage: 'How much is the belt? It is a gift',
    });
    expect(price.body.intents).toEqual(['Price Question', 'Gift']);
    expect(price.body.customerInsight.user_intent).toBe('Asking about product pricing');
    const gift = await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: 'Any GIFT ideas?' });
    expect(gift.body.intents).toEqual(['Gift']);
    expect(gift.body.customerInsight.user_intent).toBe('Talking about Gift');
    const none = await c.call('POST', '/api/droids/1/endpoint/get-droid-answer', { humanMessage: 'Hello' });
    expect(none.body.intents).toEqual([]);
  });

  it('validates intents with file:line:col: a bad webhook URL, an unknown detector, a duplicate name', () => {
    const text = [
      'droid: { id: 1, testCustomerId: 1 }',
      'catalogue: { currency: THB, shippingFee: 10, freeShippingThreshold: 100, products: [{ name: A, price: 1, keywords: [a] }] }',
      'intents:',
      '  - { name: purchase, detects: [purchase], webhook: { url: "not a url", secret: s } }',
      '  - { name: purchase, detects: [purchse] }',
      '  - { name: empty }',
    ].join('\n');
    let err: unknown;
    try {
      parseProfile(text, 'p.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const issues = (err as ScenarioError).issues.map(
      (i) => `${i.location.file}:${i.location.line}:${i.location.col} ${i.message}`,
    );
    expect(
      issues.some((i) => i.startsWith('p.yaml:4:') && i.includes('intents.0.webhook.url') && i.includes('http(s) URL')),
    ).toBe(true);
    expect(issues.some((i) => i.startsWith('p.yaml:5:') && i.includes('intents.1.detects.0'))).toBe(true);
    expect(issues.some((i) => i.startsWith('p.yaml:6:') && i.includes('needs "detects" or "keywords"'))).toBe(true);
  });
});
