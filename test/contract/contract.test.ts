import { describe, expect, it } from 'vitest';
import {
  answerPayloadSchema,
  asyncAckSchema,
  checkContract,
  CONTRACTS,
  describeShape,
  errorBodySchema,
  errorPayloadSchema,
  moneySchema,
  unverifiedNote,
  webhookContractFor,
  webhookSchemaFor,
} from '../../src/contract/index.js';

const aiMessage = (content: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', 'AIMessage'],
  kwargs: { content, additional_kwargs: {}, tool_calls: [], invalid_tool_calls: [], response_metadata: {} },
});

/** The async docs page's "Success Response", field for field. */
const docsAnswer = {
  requestId: 'tpa-d5cacv27v60xfhlqpap1gm76',
  droidId: 5,
  customerId: 5,
  responses: [aiMessage('This product costs $599. We have a 10% discount if you buy 2 or more!')],
  addressParsing: { street_address: '', subdistrict: '', district: '', city: '', postal_code: '', country: '' },
  customerInsight: {
    forbidden_topics: 'no',
    user_intent: 'Asking about product pricing',
    intents: ['product_inquiry'],
    product_keyword: [],
    user_language: 'English',
    contact_info: { name: '', phone: '', email: '' },
    has_extractable_info: false,
  },
  shoppingCart: { products: [], shippingFee: '10', grandTotal: '0.00 THB' },
  customExtractedInfo: {},
  answer: 'This product costs $599. We have a 10% discount if you buy 2 or more!',
  intents: ['product_inquiry'],
  executionTime: 13301,
  timestamp: '2026-02-11T03:20:24.267Z',
};

const message = {
  id: 1,
  type: 'human',
  contentType: 'text',
  content: 'hi',
  alt: '',
  note: null,
  createdAt: '2025-11-25T09:03:29.138+07:00',
  updatedAt: '2025-11-25T09:03:29.138+07:00',
};

describe('contract schemas (spec: Resources, Events, Errors)', () => {
  it("accepts the docs' own example answer on both tiers", () => {
    const check = checkContract(CONTRACTS.webhook, docsAnswer);
    expect([check.ok, check.violations, check.unverified, check.unknownFields]).toEqual([true, [], [], []]);
  });

  it('reports fields neither tier names as unknown fields (on read)', () => {
    const check = checkContract(answerPayloadSchema, {
      ...docsAnswer,
      sentiment: 'happy',
      shoppingCart: { ...docsAnswer.shoppingCart, coupon: 'X' },
    });
    expect(check.ok).toBe(true);
    expect(check.unknownFields.sort()).toEqual(['sentiment', 'shoppingCart.coupon']);
  });

  it('names the path and value of each violation', () => {
    const bad = {
      ...docsAnswer,
      requestId: 'req-1',
      customerInsight: { ...docsAnswer.customerInsight, has_extractable_info: 'yes' },
    };
    const check = checkContract(CONTRACTS.webhook, bad);
    expect(check.ok).toBe(false);
    const paths = check.violations.map((v) => v.path);
    expect(paths).toContain('requestId');
    expect(paths).toContain('customerInsight.has_extractable_info');
    expect(check.violations.find((v) => v.path === 'requestId')?.value).toBe('req-1');
  });

  it('requires an empty answer and an error string in the error payload', () => {
    const failure = {
      requestId: 'tpa-1',
      droidId: 1,
      customerId: 2,
      answer: '',
      error: 'Failed to generate AI response: timeout',
      executionTime: 30000,
      timestamp: '2026-02-07T10:30:30.000Z',
    };
    expect(webhookSchemaFor(failure)).toBe(errorPayloadSchema);
    expect(webhookSchemaFor(docsAnswer)).toBe(answerPayloadSchema);
    expect(webhookContractFor(failure)).toBe(CONTRACTS['webhook-error']);
    expect(checkContract(webhookContractFor(failure), failure).ok).toBe(true);
    expect(checkContract(errorPayloadSchema, { ...failure, answer: 'x' }).ok).toBe(false);
  });

  it('checks the acknowledgement and the error body', () => {
    const docsAck = {
      success: true,
      requestId: 'tpa-cm5xyz123abc456def',
      message: 'Answer request queued. Response will be sent to your configured webhook.',
    };
    expect(checkContract(CONTRACTS['get-droid-answer-async'], docsAck).ok).toBe(true);
    expect(checkContract(asyncAckSchema, { success: true, requestId: '9', message: 'queued' }).ok).toBe(false);
    expect(checkContract(errorBodySchema, { error: 'Unauthorized', message: 'Invalid API key' }).ok).toBe(true);
    expect(checkContract(errorBodySchema, { error: 'Unauthorized' }).ok).toBe(false);
  });

  it('parses money strings as amount and currency code', () => {
    for (const ok of ['1,290.00 THB', '50.00 THB', '0 USD', '12345.5 EUR'])
      expect(moneySchema.safeParse(ok).success).toBe(true);
    for (const bad of ['1,290.00', 'THB 1,290.00', '1,29,0.00 THB', '12 thb'])
      expect(moneySchema.safeParse(bad).success).toBe(false);
  });
});

describe('two tiers: another implementation that chose differently where the spec is silent', () => {
  /** Bodies an independent implementation of the spec might send where the spec says "not shown". */
  const alternatives: [keyof typeof CONTRACTS, unknown][] = [
    ['channels', { data: [{ channelId: 'c-1', platform: 'LINE', displayName: 'Shop OA', connected: true }] }],
    ['channels', [{ id: 'line-1', kind: 'line' }]],
    ['messages', { messages: [{ ...message, id: 9 }] }],
    ['messages', { items: [], page: 1 }],
    ['send', { ok: true }],
    ['send', { success: true, messageId: 77 }],
    ['customer-update', { success: true }],
    ['customer-update', { updated: 1 }],
    ['get-image-alt', { alt: 'A white shirt', executionTime: 812, meta: { id: 'x' } }],
    ['get-image-alt', { description: 'A white shirt' }],
    ['get-droid-answer', { response: 'Hello', insights: {} }],
    [
      'customer',
      {
        customerId: 'c-1001',
        externalId: 5,
        channelId: 'line',
        botEnabled: false,
        avatar: null,
        socialName: null,
        name: 'A',
        phone: null,
        address: null,
        city: null,
        zipcode: null,
        email: null,
        language: 'English',
        tags: [],
      },
    ],
    [
      'webhook',
      {
        ...docsAnswer,
        shoppingCart: {
          products: [{ sku: 'A1', qty: 2, price: '10.00' }],
          shippingFee: '50.00 THB',
          grandTotal: '20 THB',
        },
      },
    ],
  ];

  for (const [name, body] of alternatives) {
    it(`${name}: ${JSON.stringify(body).slice(0, 70)}… gives zero violations, and says what differs`, () => {
      const check = checkContract(CONTRACTS[name], body);
      expect(check.violations).toEqual([]);
      expect(check.ok).toBe(true);
      expect(check.unverified.length).toBeGreaterThan(0);
      expect(unverifiedNote(name, check, body)).toMatch(
        new RegExp(`^unverified shape: ${name} answered .*not a finding\\.$`),
      );
    });
  }

  it('the emulator-shaped bodies are verified (nothing unverified)', () => {
    expect(checkContract(CONTRACTS.send, { success: true, mid: 'ddtp-abc' }).unverified).toEqual([]);
    expect(
      checkContract(CONTRACTS.channels, { channels: [{ id: 1, type: 'line', name: 'x', status: 'active' }], total: 1 })
        .unverified,
    ).toEqual([]);
    expect(
      unverifiedNote('send', checkContract(CONTRACTS.send, { success: true, mid: 'ddtp-abc' }), {}),
    ).toBeUndefined();
  });

  it('still finds what the spec or the docs do show', () => {
    expect(
      checkContract(CONTRACTS.conversations, { conversations: [{ ...message, id: '1' }], total: 1 }).violations.map(
        (v) => v.path,
      ),
    ).toEqual(['conversations.0.id']);
    expect(
      checkContract(CONTRACTS.customer, { customerId: 1, botEnabled: 'yes' }).violations.map((v) => v.path),
    ).toContain('botEnabled');
    expect(checkContract(CONTRACTS.customer, { botEnabled: true }).violations.map((v) => v.path)).toContain(
      'externalId',
    );
    expect(checkContract(CONTRACTS.ask, { reply: 'x' }).violations.map((v) => v.path)).toEqual(['answer']);
    expect(
      checkContract(CONTRACTS.webhook, {
        ...docsAnswer,
        shoppingCart: { products: {}, shippingFee: 10, grandTotal: '0.00 THB' },
      })
        .violations.map((v) => v.path)
        .sort(),
    ).toEqual(['shoppingCart.products', 'shoppingCart.shippingFee']);
    const msg = {
      mid: 'ddtp-1',
      chatId: 1,
      customerId: 2,
      droidId: 3,
      channelId: 4,
      type: 'bot',
      content: { type: 'text', value: 'x' },
      createdAt: '2025-08-04T12:30:00.000Z',
    };
    expect(checkContract(CONTRACTS['message-webhook'], msg).violations.map((v) => v.path)).toEqual(['type']);
  });

  it('computes unknown fields and unverified differences only when read, and once', () => {
    const body = { ...docsAnswer, extra: 1 };
    const check = checkContract(CONTRACTS.webhook, body);
    body.extra = 2; // the check read nothing yet...
    (body as Record<string, unknown>).late = true; // ...so a field added now is seen on first read
    expect(check.unknownFields).toEqual(['extra', 'late']);
    (body as Record<string, unknown>).later = true;
    expect(check.unknownFields).toEqual(['extra', 'late']); // memoised
    expect(JSON.parse(JSON.stringify(check))).toMatchObject({
      ok: true,
      violations: [],
      unverified: [],
      unknownFields: ['extra', 'late'],
    });
  });

  it('lists unknown fields of list elements once, under list[]', () => {
    const body = {
      conversations: [
        { ...message, x: 1 },
        { ...message, x: 2, y: 3 },
      ],
      total: 2,
    };
    expect(checkContract(CONTRACTS.conversations, body).unknownFields.sort()).toEqual([
      'conversations[].x',
      'conversations[].y',
    ]);
  });

  it('describes a shape compactly', () => {
    expect(describeShape({ channels: [{ id: 1, name: 'x' }], total: 1, ok: true, n: null })).toBe(
      '{channels: [{id: number, name: string}], total: number, ok: boolean, n: null}',
    );
    expect(describeShape([])).toBe('[]');
  });
});
