/**
 * The rule engine alone: pure, deterministic, every payload field filled.
 */
import { describe, expect, it } from 'vitest';
import { checkContract, CONTRACTS, MONEY_PATTERN } from '../../src/contract/index.js';
import {
  DEFAULT_CATALOGUE,
  detectLanguage,
  detectPaymentMethod,
  extractAddress,
  extractContact,
  formatAmount,
  formatMoney,
  generateAnswer,
} from '../../src/emulator/ai/index.js';

const ask = (humanMessage: string, history: ['human' | 'ai', string][] = []) =>
  generateAnswer({ humanMessage, chatHistory: history.map(([type, content]) => ({ type, content })) });

describe('money and cart', () => {
  it('formats amounts with thousands separators and the currency code', () => {
    expect(formatMoney(1290, 'THB')).toBe('1,290.00 THB');
    expect(formatMoney(2580, 'THB')).toBe('2,580.00 THB');
    expect(formatMoney(1234567.5, 'THB')).toBe('1,234,567.50 THB');
    expect(formatMoney(0, 'THB')).toBe('0.00 THB');
    expect(MONEY_PATTERN.test(formatMoney(1234567.5, 'THB'))).toBe(true);
  });

  it('writes shippingFee as a bare number string, as the async docs page does ("10")', () => {
    expect([formatAmount(10), formatAmount(50), formatAmount(0), formatAmount(12.5), formatAmount(1234.567)]).toEqual([
      '10',
      '50',
      '0',
      '12.5',
      '1234.57',
    ]);
  });

  it('prices a two-line cart with the shipping fee under the free-shipping threshold', () => {
    const a = ask("I'd like two t-shirts and a belt");
    expect(a.shoppingCart.products).toEqual([
      { code: 'COTTON-T-SHIRT', name: 'Cotton T-shirt', price: 390, count: 2, total: 780, available: true },
      { code: 'LEATHER-BELT', name: 'Leather belt', price: 690, count: 1, total: 690, available: true },
    ]);
    expect(a.shoppingCart.shippingFee).toBe('50');
    expect(a.shoppingCart.grandTotal).toBe('1,520.00 THB');
  });

  it('ships free from 1,500 THB and takes the product from the history for "I\'ll take 2"', () => {
    const a = ask("I'll take 2, please send them to 99 Sukhumvit Rd, Bangkok 10110", [
      ['human', 'Hi, do you sell shirts?'],
      ['ai', 'Yes, we have Oxford shirts for 1,290 THB.'],
    ]);
    expect(a.intents).toContain('purchase');
    expect(a.shoppingCart.products).toEqual([
      { code: 'OXFORD-SHIRT', name: 'Oxford shirt', price: 1290, count: 2, total: 2580, available: true },
    ]);
    expect(a.shoppingCart.shippingFee).toBe('0');
    expect(a.shoppingCart.grandTotal).toBe('2,580.00 THB');
    expect(a.answer).toContain('Oxford shirt');
  });

  it('leaves the cart empty without a purchase; a price question is product_inquiry, as on the docs page', () => {
    const a = ask('How much is the leather belt?');
    expect(a.intents).toEqual(['product_inquiry']);
    expect(a.customerInsight.user_intent).toBe('Asking about product pricing');
    expect(a.shoppingCart).toEqual({ products: [], shippingFee: '50', grandTotal: '0.00 THB' });
    expect(a.customerInsight.product_keyword).toEqual(['Leather belt']);
    expect(a.answer).toContain('690.00 THB');
  });
});

describe('address', () => {
  it('parses an English address with a Bangkok postal code', () => {
    expect(extractAddress('please send to 99 Sukhumvit Rd, Bangkok 10110', 'en')).toEqual({
      street_address: '99 Sukhumvit Rd',
      subdistrict: '',
      district: '',
      city: 'Bangkok',
      postal_code: '10110',
      country: 'Thailand',
    });
  });

  it('parses a Thai address with ตำบล and อำเภอ', () => {
    const a = extractAddress('ส่งที่ 123/4 ถนนนิมมานเหมินท์ ตำบลสุเทพ อำเภอเมืองเชียงใหม่ เชียงใหม่ 50200 ค่ะ', 'th');
    expect(a).toEqual({
      street_address: '123/4 ถนนนิมมานเหมินท์',
      subdistrict: 'สุเทพ',
      district: 'เมืองเชียงใหม่',
      city: 'เชียงใหม่',
      postal_code: '50200',
      country: 'ประเทศไทย',
    });
  });

  it('infers the city from the postal code, and gives empty strings when there is nothing', () => {
    expect(extractAddress('deliver to 7 Thalang Road 83000', 'en').city).toBe('Phuket');
    expect(Object.values(extractAddress('Hello there!', 'en')).every((v) => v === '')).toBe(true);
    // A phone number is not a postal code.
    expect(extractAddress('call me on 0812345678', 'en').postal_code).toBe('');
  });
});

describe('language and contact', () => {
  it('detects Thai script, else English; user_language is the language name', () => {
    expect(detectLanguage('สวัสดีครับ')).toBe('th');
    expect(detectLanguage('Hello')).toBe('en');
    expect(ask('สวัสดีครับ').customerInsight.user_language).toBe('Thai');
    expect(ask('Hi!').customerInsight.user_language).toBe('English');
  });

  it('finds the payment method in the message or earlier turns', () => {
    expect(detectPaymentMethod('I will pay by bank transfer')).toBe('bank_transfer');
    expect(detectPaymentMethod('เก็บเงินปลายทางได้ไหม')).toBe('cash_on_delivery');
    expect(detectPaymentMethod('ok', ['can I pay with a credit card?'])).toBe('credit_card');
    expect(detectPaymentMethod('hello')).toBe('other');
  });

  it('extracts name, phone and email in English and Thai', () => {
    expect(
      extractContact('My name is Somchai Jaidee and my phone is 081-234-5678, email somchai@example.co.th'),
    ).toEqual({
      name: 'Somchai Jaidee',
      phone: '0812345678',
      email: 'somchai@example.co.th',
    });
    expect(extractContact('ผมชื่อสมชายครับ เบอร์ +66 81 234 5678')).toEqual({
      name: 'สมชาย',
      phone: '0812345678',
      email: '',
    });
    expect(extractContact('I am looking for a shirt')).toEqual({ name: '', phone: '', email: '' });
  });

  it('marks contact updates and keeps contact details from earlier turns', () => {
    const a = ask('Can you deliver it tomorrow?', [['human', 'my email is anna@example.com']]);
    expect(a.customerInsight.contact_info.email).toBe('anna@example.com');
    expect(a.customerInsight.has_extractable_info).toBe(true);
    const b = ask('My name is Anna, email anna@example.com');
    expect(b.intents).toContain('contact_update');
  });
});

describe('generateAnswer', () => {
  it('fills every payload field, one AIMessage per paragraph, deterministically', () => {
    const input = {
      humanMessage: 'Hello! I want to buy 2 Oxford shirts, send to 99 Sukhumvit Rd, Bangkok 10110',
      chatHistory: [],
    };
    const a = generateAnswer(input);
    expect(generateAnswer(input)).toEqual(a);
    const payload = {
      requestId: 'tpa-x',
      droidId: 1,
      customerId: 1001,
      executionTime: 1,
      timestamp: new Date().toISOString(),
      ...a,
    };
    const check = checkContract(CONTRACTS.webhook, payload);
    expect([check.violations, check.unverified, check.unknownFields]).toEqual([[], [], []]);
    const paragraphs = a.answer.split('\n\n');
    expect(paragraphs.length).toBeGreaterThan(1);
    expect(a.responses.map((r) => r.kwargs.content)).toEqual(paragraphs);
    expect(a.responses[0]).toEqual({
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'AIMessage'],
      kwargs: {
        content: paragraphs[0],
        additional_kwargs: {},
        tool_calls: [],
        invalid_tool_calls: [],
        response_metadata: {},
      },
    });
    expect(a.customerInsight).toMatchObject({
      forbidden_topics: 'no',
      user_intent: 'Wants to buy products',
      user_language: 'English',
    });
    expect(a.intents).toEqual(expect.arrayContaining(['purchase', 'greeting']));
    expect(a.customExtractedInfo).toEqual({});
  });

  it('recognises complaints and returns without treating "I want a refund" as a purchase', () => {
    const a = ask('The jacket I received is damaged, I want a refund');
    expect(a.intents).toEqual(['complaint', 'return_request']);
    expect(a.shoppingCart.products).toEqual([]);
    expect(a.customerInsight.user_intent).toBe('Complaining about a problem with an order');
  });

  it('answers a Thai purchase in Thai', () => {
    const a = ask('อยากสั่งเสื้อเชิ้ต 2 ตัว ส่งที่ 123/4 ถนนนิมมานเหมินท์ เชียงใหม่ 50200');
    expect(a.customerInsight.user_language).toBe('Thai');
    expect(a.shoppingCart.grandTotal).toBe('2,580.00 THB');
    expect(a.answer).toMatch(/ยอดรวม/);
    expect(a.addressParsing.city).toBe('เชียงใหม่');
  });

  it('uses a custom catalogue', () => {
    const catalogue = {
      ...DEFAULT_CATALOGUE,
      currency: 'USD',
      freeShippingThreshold: 10_000,
      shippingFee: 5,
      products: [{ name: 'Widget', price: 1500, keywords: ['widget'] }],
    };
    const a = generateAnswer({ humanMessage: 'I want to buy 3 widgets', chatHistory: [] }, catalogue);
    expect(a.shoppingCart.grandTotal).toBe('4,505.00 USD');
  });
});

describe('a burst: the human turns that end the history are read with the message', () => {
  const cart = (answer: ReturnType<typeof ask>) => answer.shoppingCart.products.map((p) => `${p.count} x ${p.name}`);

  it('orders what the unanswered messages named together ("I want 2 T-Shirt", then "and 1 Canvas Bag")', () => {
    expect(cart(ask('and 1 Canvas Bag', [['human', 'I want 2 T-Shirt']]))).toEqual([
      '2 x Cotton T-shirt',
      '1 x Tote bag',
    ]);
    // Answered already, a message that goes on ("and ...") is read with the one it goes on from.
    expect(
      cart(
        ask('and 1 Canvas Bag', [
          ['human', 'I want 2 T-Shirt'],
          ['ai', 'Added 2 T-shirts.'],
        ]),
      ),
    ).toEqual(['2 x Cotton T-shirt', '1 x Tote bag']);
    // Alone, it orders nothing: no purchase word.
    expect(cart(ask('and 1 Canvas Bag'))).toEqual([]);
  });

  it('the order starts at the first message that names a purchase; a follow-up finds the product in them', () => {
    const a = ask('I want to buy a leather belt', [['human', 'Do you have canvas sneakers?']]);
    expect(cart(a)).toEqual(['1 x Leather belt']);
    expect(a.intents).toEqual(expect.arrayContaining(['purchase', 'product_inquiry']));
    expect(cart(ask("I'll take 2", [['human', 'Do you sell silk scarves?']]))).toEqual(['2 x Silk scarf']);
    // An answered question stays history: the follow-up reads the product from it, as before.
    expect(
      cart(
        ask("I'll take 2", [
          ['human', 'Do you sell silk scarves?'],
          ['ai', 'Yes.'],
        ]),
      ),
    ).toEqual(['2 x Silk scarf']);
  });
});
