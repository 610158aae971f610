/** Webhook bodies of the spec (Answer payload fields; Error payload) for receiver tests. */
export function answerPayload(requestId: string): Record<string, unknown> {
  return {
    requestId,
    droidId: 1,
    customerId: 1001,
    responses: [
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: {
          content: 'Hello',
          additional_kwargs: {},
          tool_calls: [],
          invalid_tool_calls: [],
          response_metadata: {},
        },
      },
    ],
    addressParsing: { street_address: '', subdistrict: '', district: '', city: '', postal_code: '', country: '' },
    customerInsight: {
      forbidden_topics: 'no',
      user_intent: 'greeting',
      intents: ['greeting'],
      product_keyword: [],
      user_language: 'en',
      contact_info: { name: '', phone: '', email: '' },
      has_extractable_info: false,
    },
    shoppingCart: { products: [], shippingFee: '0.00 THB', grandTotal: '0.00 THB' },
    customExtractedInfo: {},
    answer: 'Hello',
    intents: ['greeting'],
    executionTime: 12,
    timestamp: '2026-01-01T00:00:00.000Z',
  };
}

export function errorPayload(requestId: string): Record<string, unknown> {
  return {
    requestId,
    droidId: 1,
    customerId: 1001,
    answer: '',
    error: 'failed to generate AI response: upstream timeout',
    executionTime: 5,
    timestamp: '2026-01-01T00:00:00.000Z',
  };
}

/** docs (receiving-webhook.mdx): the MessageForwarding example, for `customerId` and `type`. */
export function messagePayload(
  customerId: number,
  type = 'ai',
  value: string | string[] = 'Hello, how can I help?',
): Record<string, unknown> {
  return {
    mid: `ddtp-${customerId}-${type}-${String(value).length}`,
    chatId: 12345,
    customerId,
    droidId: 11122,
    channelId: 33445,
    type,
    content: Array.isArray(value) ? { type: 'button', value } : { type: 'text', value },
    note: '',
    createdAt: '2025-08-04T12:30:00.000Z',
  };
}

/** docs (intent-webhook.mdx): an IntentWebhookRequest with `secret` in the body. */
export function intentPayload(
  secret: string,
  intent = 'purchase',
  customerId = 'b9d35283-131d-4c85-9d66-c43d830daec0',
): Record<string, unknown> {
  return {
    mid: 'ddtp-intent-1',
    customer_id: customerId,
    intent,
    address_parsing: {
      street_address: '1 Main Rd',
      village_or_project: '',
      subdistrict: '',
      district: '',
      city: 'Bangkok',
      state: '',
      postal_code: '10110',
      country: 'Thailand',
    },
    payment_method: 'bank_transfer',
    shopping_cart: {
      products: [{ code: 'SH-1', name: 'Shirt', price: 250, count: 2, total: 500, available: true }],
      shippingFee: '10',
      grandTotal: '510.00 THB',
      unavailableCount: 0,
    },
    contact_info: {
      name: 'A',
      phone: '',
      email: '',
      address: '',
      city: '',
      zipcode: '',
      language: 'en',
      languageName: 'English',
    },
    secret,
    folder: '',
    e: '',
    product_type: '',
  };
}
