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
        kwargs: { content: 'Hello', additional_kwargs: {}, tool_calls: [], invalid_tool_calls: [], response_metadata: {} },
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
