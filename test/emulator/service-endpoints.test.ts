/**
 * Endpoints 1-7 and 10, stateful, seeded from the default profile (scenarios/emulator-profile.yaml).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerSchema,
  customerUpdateResponseSchema,
  errorBodySchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  sendResponseSchema,
} from '../../src/contract/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createJsonClient } from './helpers.js';

const P = '/api/droids/1/endpoint';
let emulator: Emulator;
let c: ReturnType<typeof createJsonClient>;

beforeAll(async () => {
  emulator = await createEmulator();
  c = createJsonClient(await emulator.listen(), emulator.token);
});
afterAll(async () => {
  await c.close();
  await emulator.close();
});

describe('channels, customer, conversations, messages', () => {
  it('lists the four channels of the profile', async () => {
    const res = await c.call('GET', `${P}/channels`);
    expect(res.status).toBe(200);
    expect(channelsResponseSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.channels.map((ch: { type: string }) => ch.type)).toEqual(['line', 'facebook', 'whatsapp', 'webchat']);
    expect(res.body.total).toBe(4);
  });

  it('returns a customer with every field the spec names', async () => {
    const res = await c.call('GET', `${P}/customer/2001`);
    expect(res.status).toBe(200);
    expect(customerSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ customerId: 2001, botEnabled: true, zipcode: '10110', city: 'Bangkok', language: 'th' });
    expect(res.body).not.toHaveProperty('conversations');
  });

  it('returns conversations newest first with offset timestamps and image alt', async () => {
    const res = await c.call('GET', `${P}/customer/2001/conversations`);
    expect(conversationsResponseSchema.safeParse(res.body).success).toBe(true);
    const ids = res.body.conversations.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(res.body.total).toBe(ids.length);
    expect(res.body.conversations[0].createdAt).toMatch(/\+07:00$/);
    const image = res.body.conversations.find((m: { contentType: string }) => m.contentType === 'image');
    expect(image.alt).toContain('Oxford shirt');
    const messages = await c.call('GET', `${P}/messages/2001`);
    expect(messagesResponseSchema.safeParse(messages.body).success).toBe(true);
    expect(messages.body.messages).toEqual(res.body.conversations);
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
    expect(customerUpdateResponseSchema.safeParse(res.body).success).toBe(true);
    expect((await c.call('GET', `${P}/customer/2003`)).body.botEnabled).toBe(false);
    res = await c.call('POST', `${P}/customer/2003`, { botEnabled: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    res = await c.call('POST', `${P}/customer/2003`, { botEnabled: true });
    expect(res.body).toEqual({ success: true, customerId: 2003, botEnabled: true });
  });

  it('appends the message and the bot reply (bot on), only the message (bot off)', async () => {
    const before = (await c.call('GET', `${P}/customer/2003/conversations`)).body.total;
    let res = await c.call('POST', `${P}/send`, { customerId: 2003, humanMessage: 'I want to buy 2 Oxford shirts' });
    expect(res.status).toBe(200);
    expect(sendResponseSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.reply.content).toContain('2,580.00 THB');
    let conv = (await c.call('GET', `${P}/customer/2003/conversations`)).body;
    expect(conv.total).toBe(before + 2);
    expect(conv.conversations[0]).toMatchObject({ type: 'ai', id: res.body.reply.id });
    expect(conv.conversations[1]).toMatchObject({ type: 'human', content: 'I want to buy 2 Oxford shirts', contentType: 'text' });

    await c.call('POST', `${P}/customer/2003`, { botEnabled: false });
    res = await c.call('POST', `${P}/send`, { customerId: '2003', humanMessage: 'https://cdn.example.com/p/silk-scarf.webp' });
    expect(res.body.reply).toBeNull();
    expect(res.body.message).toMatchObject({ contentType: 'image', alt: expect.stringContaining('Silk scarf') });
    conv = (await c.call('GET', `${P}/customer/2003/conversations`)).body;
    expect(conv.total).toBe(before + 3);
    await c.call('POST', `${P}/customer/2003`, { botEnabled: true });
  });

  it('400 for a send without a string humanMessage', async () => {
    const res = await c.call('POST', `${P}/send`, { customerId: 2003, humanMessage: { content: 'x' } });
    expect(res.status).toBe(400);
  });
});

describe('ask', () => {
  it('answers JSON text when the prompt asks for JSON, from the history', async () => {
    const res = await c.call('POST', `${P}/customer/2002/ask`, { prompt: 'Classify the sentiment and list product interest as JSON' });
    expect(res.status).toBe(200);
    expect(askResponseSchema.safeParse(res.body).success).toBe(true);
    const parsed = JSON.parse(res.body.answer);
    expect(parsed).toEqual({ sentiment: 'negative', productInterest: ['Denim jacket'] });
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
      const res = await c.call('POST', `${P}/get-image-alt`, { imageUrl: `https://cdn.example.com/denim-jacket.${ext}?v=2` });
      expect(res.status, ext).toBe(200);
      expect(imageAltResponseSchema.safeParse(res.body).success).toBe(true);
      expect(res.body.altText).toContain('Denim jacket');
    }
  });

  it('400 for other extensions or a missing URL', async () => {
    for (const body of [{ imageUrl: 'https://cdn.example.com/a.bmp' }, { imageUrl: 'https://cdn.example.com/a.jpg.exe' }, {}, { imageUrl: 'not a url.jpg' }]) {
      const res = await c.call('POST', `${P}/get-image-alt`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('Bad Request');
    }
  });
});
