/**
 * Endpoints 1-7 and 10 through `app.inject()` (no socket needed), stateful, seeded from the
 * default profile (scenarios/emulator-profile.yaml). Each body is checked against both contract
 * tiers: no violation of what the spec shows, and the emulator's own choice exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContract, CONTRACTS, errorBodySchema, type ContractName } from '../../src/contract/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { injectClient } from './helpers.js';

const P = '/api/droids/1/endpoint';
let emulator: Emulator;
let c: ReturnType<typeof injectClient>;

beforeAll(async () => {
  emulator = await createEmulator({ answerDelayMs: 20 });
  c = injectClient(emulator);
});
afterAll(async () => {
  await emulator.close();
});

/** Both tiers: no violation, nothing unverified, no unknown field. */
function expectContract(name: ContractName, body: unknown): void {
  const check = checkContract(CONTRACTS[name], body);
  expect({ violations: check.violations, unverified: check.unverified, unknown: check.unknownFields }).toEqual({
    violations: [],
    unverified: [],
    unknown: [],
  });
}

describe('channels, customer, conversations, messages', () => {
  it('lists the four channels of the profile', async () => {
    const res = await c.call('GET', `${P}/channels`);
    expect(res.status).toBe(200);
    expectContract('channels', res.body);
    expect(res.body.channels.map((ch: { type: string }) => ch.type)).toEqual([
      'line',
      'facebook',
      'whatsapp',
      'webchat',
    ]);
    expect(res.body.total).toBe(4);
  });

  it('returns a customer with every field the spec names', async () => {
    const res = await c.call('GET', `${P}/customer/2001`);
    expect(res.status).toBe(200);
    expectContract('customer', res.body);
    expect(res.body).toMatchObject({
      customerId: 2001,
      botEnabled: true,
      zipcode: '10110',
      city: 'Bangkok',
      language: 'th',
    });
    expect(res.body).not.toHaveProperty('conversations');
  });

  it('returns conversations newest first with offset timestamps, image alt and an admin message', async () => {
    const res = await c.call('GET', `${P}/customer/2001/conversations`);
    expectContract('conversations', res.body);
    const ids = res.body.conversations.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(res.body.total).toBe(ids.length);
    expect(res.body.conversations[0].createdAt).toMatch(/\+07:00$/);
    const image = res.body.conversations.find((m: { contentType: string }) => m.contentType === 'image');
    expect(image.alt).toContain('Oxford shirt');
    const messages = await c.call('GET', `${P}/messages/2001`);
    expectContract('messages', messages.body);
    expect(messages.body.messages).toEqual(res.body.conversations);
    const agent = await c.call('GET', `${P}/customer/2002/conversations`);
    expect(agent.body.conversations[0]).toMatchObject({ type: 'admin', contentType: 'text' });
  });

  it('403 for an unknown or malformed customer id on every customer endpoint', async () => {
    for (const [method, path, body] of [
      ['GET', `${P}/customer/999999`],
      ['GET', `${P}/customer/abc/conversations`],
      ['GET', `${P}/messages/999999`],
      ['POST', `${P}/customer/999999`, { botEnabled: true }],
      ['POST', `${P}/customer/999999/ask`, { prompt: 'summary' }],
      ['POST', `${P}/send`, { customerId: 999999, humanMessage: 'hi' }],
    ] as const) {
      const res = await c.call(method, path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('Forbidden');
      expect(errorBodySchema.safeParse(res.body).success).toBe(true);
    }
  });
});

describe('bot switch and send', () => {
  it('switches the bot off and on; 400 for a non-boolean', async () => {
    let res = await c.call('POST', `${P}/customer/2003`, { botEnabled: false });
    expect(res.status).toBe(200);
    expectContract('customer-update', res.body);
    expect((await c.call('GET', `${P}/customer/2003`)).body.botEnabled).toBe(false);
    res = await c.call('POST', `${P}/customer/2003`, { botEnabled: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    res = await c.call('POST', `${P}/customer/2003`, { botEnabled: true });
    expect(res.body).toEqual({ success: true, customerId: 2003, botEnabled: true });
  });

  it('answers {success, mid} at once and stores the bot reply after the answer delay (bot on)', async () => {
    const before = (await c.call('GET', `${P}/customer/2003/conversations`)).body.total;
    const res = await c.call('POST', `${P}/send`, { customerId: 2003, humanMessage: 'I want to buy 2 Oxford shirts' });
    expect(res.status).toBe(200);
    expectContract('send', res.body);
    expect(res.body).toEqual({ success: true, mid: expect.stringMatching(/^ddtp-[a-z0-9]{20}$/) });
    const now = (await c.call('GET', `${P}/customer/2003/conversations`)).body;
    expect(now.conversations[0]).toMatchObject({
      type: 'human',
      content: 'I want to buy 2 Oxford shirts',
      contentType: 'text',
    });
    await expect
      .poll(async () => (await c.call('GET', `${P}/customer/2003/conversations`)).body.total)
      .toBe(before + 2);
    const conv = (await c.call('GET', `${P}/customer/2003/conversations`)).body;
    expect(conv.conversations[0].type).toBe('ai');
    expect(conv.conversations[0].content).toContain('2,580.00 THB');
    expect(conv.conversations[1].content).toBe('I want to buy 2 Oxford shirts');
  });

  it('stores an image URL as an image with alt text; no reply with the bot off', async () => {
    await c.call('POST', `${P}/customer/2003`, { botEnabled: false });
    const before = emulator.stats().botReplies;
    const res = await c.call('POST', `${P}/send`, {
      customerId: '2003',
      humanMessage: 'https://cdn.example.com/p/silk-scarf.webp',
    });
    expect(res.status).toBe(200);
    expect(emulator.stats().scheduled).toBe(0); // no reply was scheduled
    const conv = (await c.call('GET', `${P}/customer/2003/conversations`)).body;
    expect(conv.conversations[0]).toMatchObject({
      type: 'human',
      contentType: 'image',
      alt: expect.stringContaining('Silk scarf'),
    });
    expect(emulator.stats().botReplies).toBe(before);
    await c.call('POST', `${P}/customer/2003`, { botEnabled: true });
  });

  it('drops a scheduled reply when the bot is switched off before it is due (human takeover)', async () => {
    const slow = await createEmulator({ answerDelayMs: 80 });
    try {
      const s = injectClient(slow);
      const before = (await s.call('GET', `${P}/customer/2003/conversations`)).body.total;
      await s.call('POST', `${P}/send`, { customerId: 2003, humanMessage: 'Hello' });
      expect(slow.stats().scheduled).toBe(1);
      await s.call('POST', `${P}/customer/2003`, { botEnabled: false });
      await expect.poll(() => slow.stats().scheduled).toBe(0); // the reply came due
      expect(slow.stats().botReplies).toBe(0);
      expect((await s.call('GET', `${P}/customer/2003/conversations`)).body.total).toBe(before + 1);
    } finally {
      await slow.close();
    }
  });

  it('400 for a send without a string humanMessage', async () => {
    const res = await c.call('POST', `${P}/send`, { customerId: 2003, humanMessage: { content: 'x' } });
    expect(res.status).toBe(400);
  });
});

describe('ask', () => {
  it('answers JSON text when the prompt asks for JSON, from the history', async () => {
    const res = await c.call('POST', `${P}/customer/2002/ask`, {
      prompt: 'Classify the sentiment and list product interest as JSON',
    });
    expect(res.status).toBe(200);
    expectContract('ask', res.body);
    expect(JSON.parse(res.body.answer)).toEqual({ sentiment: 'negative', productInterest: ['Denim jacket'] });
  });

  it("fills exactly the keys of a JSON template written in the prompt (the docs' example)", async () => {
    const prompt =
      'Analyze user sentiment. Respond ONLY with valid JSON: { "status": "positive" | "negative" | "neutral", "reason": "brief explanation" }';
    const res = await c.call('POST', `${P}/customer/2002/ask`, { prompt });
    const parsed = JSON.parse(res.body.answer);
    expect(Object.keys(parsed)).toEqual(['status', 'reason']);
    expect(parsed.status).toBe('negative');
    expect(parsed.reason).toMatch(/customer message/);
  });

  it('answers plain text otherwise', async () => {
    const res = await c.call('POST', `${P}/customer/2002/ask`, { prompt: 'What is the next sales step?' });
    expect(() => JSON.parse(res.body.answer)).toThrow();
    expect(res.body.answer).toMatch(/^Next step: .*return or replacement/);
  });

  it('400 for a missing prompt or one over 500 characters; 500 is accepted', async () => {
    expect((await c.call('POST', `${P}/customer/2002/ask`, {})).status).toBe(400);
    const long = await c.call('POST', `${P}/customer/2002/ask`, { prompt: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('500');
    expect((await c.call('POST', `${P}/customer/2002/ask`, { prompt: 'x'.repeat(500) })).status).toBe(200);
  });
});

describe('get-image-alt', () => {
  it('returns altText, executionTime and trackingId for each supported extension', async () => {
    for (const ext of ['jpg', 'jpeg', 'png', 'gif', 'webp', 'JPG']) {
      const res = await c.call('POST', `${P}/get-image-alt`, {
        imageUrl: `https://cdn.example.com/denim-jacket.${ext}?v=2`,
      });
      expect(res.status, ext).toBe(200);
      expectContract('get-image-alt', res.body);
      expect(res.body.altText).toContain('Denim jacket');
    }
  });

  it('400 for other extensions or a missing URL', async () => {
    for (const body of [
      { imageUrl: 'https://cdn.example.com/a.bmp' },
      { imageUrl: 'https://cdn.example.com/a.jpg.exe' },
      {},
      { imageUrl: 'not a url.jpg' },
    ]) {
      const res = await c.call('POST', `${P}/get-image-alt`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('Bad Request');
    }
  });
});
