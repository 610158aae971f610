import { describe, expect, it } from 'vitest';
import {
  answerPayloadSchema,
  asyncAckSchema,
  checkContract,
  errorBodySchema,
  errorPayloadSchema,
  moneySchema,
  webhookSchemaFor,
} from '../../src/contract/index.js';

const aiMessage = (content: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', 'AIMessage'],
  kwargs: { content, additional_kwargs: {}, tool_calls: [], invalid_tool_calls: [], response_metadata: {} },
});

const answer = {
  requestId: 'tpa-abc123',
  droidId: 1,
  customerId: 1001,
  responses: [aiMessage('Hello'), aiMessage('Anything else?')],
  addressParsing: { street_address: '', subdistrict: '', district: '', city: 'Bangkok', postal_code: '10110', country: 'Thailand' },
  customerInsight: {
    forbidden_topics: 'no',
    user_intent: 'purchase',
    intents: ['purchase'],
    product_keyword: ['shirt'],
    user_language: 'en',
    contact_info: { name: '', phone: '', email: '' },
    has_extractable_info: true,
  },
  shoppingCart: { products: [{ name: 'Oxford shirt', quantity: 1 }], shippingFee: '0.00 THB', grandTotal: '1,290.00 THB' },
  customExtractedInfo: {},
  answer: 'Hello\n\nAnything else?',
  intents: ['purchase'],
  executionTime: 1234,
  timestamp: '2026-11-21T10:00:00.000Z',
};

describe('contract schemas (spec: Resources, Events, Errors)', () => {
  it('accepts a full answer payload and reports unknown fields as warnings', () => {
    const check = checkContract(answerPayloadSchema, { ...answer, sentiment: 'happy', shoppingCart: { ...answer.shoppingCart, coupon: 'X' } });
    expect(check.ok).toBe(true);
    expect(check.unknownFields.sort()).toEqual(['sentiment', 'shoppingCart.coupon']);
  });

  it('names the path and value of each violation', () => {
    const bad = { ...answer, requestId: 'req-1', customerInsight: { ...answer.customerInsight, has_extractable_info: 'yes' } };
    const check = checkContract(answerPayloadSchema, bad);
    expect(check.ok).toBe(false);
    const paths = check.violations.map((v) => v.path);
    expect(paths).toContain('requestId');
    expect(paths).toContain('customerInsight.has_extractable_info');
    expect(check.violations.find((v) => v.path === 'requestId')?.value).toBe('req-1');
  });

  it('requires an empty answer and an error string in the error payload', () => {
    const failure = { requestId: 'tpa-1', droidId: 1, customerId: 2, answer: '', error: 'failed to generate AI response: timeout', executionTime: 5, timestamp: '2026-11-21T10:00:00Z' };
    expect(webhookSchemaFor(failure)).toBe(errorPayloadSchema);
    expect(webhookSchemaFor(answer)).toBe(answerPayloadSchema);
    expect(checkContract(errorPayloadSchema, failure).ok).toBe(true);
    expect(checkContract(errorPayloadSchema, { ...failure, answer: 'x' }).ok).toBe(false);
  });

  it('checks the acknowledgement and the error body', () => {
    expect(checkContract(asyncAckSchema, { success: true, requestId: 'tpa-9', message: 'queued' }).ok).toBe(true);
    expect(checkContract(asyncAckSchema, { success: true, requestId: '9', message: 'queued' }).ok).toBe(false);
    expect(checkContract(errorBodySchema, { error: 'Unauthorized', message: 'Invalid API key' }).ok).toBe(true);
    expect(checkContract(errorBodySchema, { error: 'Unauthorized' }).ok).toBe(false);
  });

  it('parses money strings as amount and currency code', () => {
    for (const ok of ['1,290.00 THB', '50.00 THB', '0 USD', '12345.5 EUR']) expect(moneySchema.safeParse(ok).success).toBe(true);
    for (const bad of ['1,290.00', 'THB 1,290.00', '1,29,0.00 THB', '12 thb']) expect(moneySchema.safeParse(bad).success).toBe(false);
  });
});
