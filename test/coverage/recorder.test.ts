/**
 * What a job covered, counted from the messages it sends and the answers it gets
 * (src/coverage/recorder.ts): products matched by name and alias in customers' messages, answer
 * texts and cart lines of any documented or common shape; intents in the shapes answers give them;
 * the funnel's stages, each only on what the conversation's own messages confirm; the rules'
 * verdicts; the endpoints and modes of ended requests. What cannot be read covers nothing.
 */
import { describe, expect, it } from 'vitest';
import { CoverageRecorder } from '../../src/coverage/index.js';
import { checkAnswerFully, CustomerRegistry, parsePolicy } from '../../src/policy/index.js';

const SHOP = parsePolicy(
  `currency: THB
catalogue:
  - { name: Oxford shirt, price: 1290, aliases: [oxford, เสื้อเชิ้ต, shirt] }
  - { name: Cotton T-shirt, price: 390, aliases: [t-shirt, tee] }
  - { name: Tote bag, price: 450, aliases: [tote, TB-01] }
  - { name: Silk scarf, price: 890, aliases: [silk scarves, scarf] }
shipping: { fee: 50, freeFrom: 1500 }
forbidden: [legally binding]
intents: [purchase, product_inquiry, Greeting]
`,
  'shop.policy.yaml',
);

/** A payload in the specification's shape. */
function answer(p: {
  text?: string;
  lines?: unknown[];
  grandTotal?: string;
  intents?: unknown;
  address?: Record<string, string>;
  contact?: Record<string, string>;
}): unknown {
  return {
    answer: p.text ?? 'OK',
    intents: p.intents ?? [],
    shoppingCart: { products: p.lines ?? [], shippingFee: '50', grandTotal: p.grandTotal ?? '0.00 THB' },
    addressParsing: { street_address: '', city: '', postal_code: '', ...p.address },
    customerInsight: { intents: [], contact_info: { name: '', phone: '', email: '', ...p.contact } },
  };
}

describe('products', () => {
  it('are asked by name or alias, any case, plural, whole words only; the longer name wins', () => {
    const c = new CoverageRecorder({ shop: SHOP });
    c.sent('a', 'S', ['Do you have Silk Scarves? And an OXFORD?']);
    c.sent('b', 'S', ['I need two t-shirts']); // a T-shirt, not a shirt
    c.sent('c', 'S', ['My baggage is heavy, tell me about totes']); // not "bag" in baggage; "totes" is a tote
    c.sent('d', 'S', ['อยากได้เสื้อเชิ้ตค่ะ']); // Thai, written without spaces
    const p = c.snapshot().products!;
    expect(p.byProduct.map((x) => [x.name, x.asked])).toEqual([
      ['Oxford shirt', 2],
      ['Cotton T-shirt', 1],
      ['Tote bag', 1],
      ['Silk scarf', 1],
    ]);
    expect(p).toMatchObject({ total: 4, covered: 4, share: 1, uncovered: [] });
  });

  it('are quoted by answer texts, and in a cart by a line of any common shape, with the counts', () => {
    const c = new CoverageRecorder({ shop: SHOP });
    c.answered('a', 'S', ['hi'], answer({ text: 'Our tote bags are lovely.' }));
    c.answered('b', 'S', ['hi'], {
      answer: 'Added.',
      shoppingCart: {
        products: [
          { code: 'TB-01', name: 'x', price: 450, count: 2, total: 900 }, // the service's intent-page shape, by code
          { title: 'Silk scarf', qty: '3', unitPrice: '890', lineTotal: '2,670' }, // another droid's shape
          { name: 'Tote bag - natural', quantity: 1 }, // names one product
          { sku: 'ZZ-9', title: 'Gift card' }, // names none
          { label: 'Silk scarf' }, // a shape droidcheck cannot read
        ],
      },
    });
    const p = c.snapshot().products!;
    const tote = p.byProduct.find((x) => x.name === 'Tote bag')!;
    expect(tote).toMatchObject({ asked: 0, quoted: 1, inCart: 1, quantities: [1, 2] });
    expect(p.byProduct.find((x) => x.name === 'Silk scarf')).toMatchObject({ inCart: 1, quantities: [3] });
    expect(p.unmatchedLines).toBe(2);
    // Quoted is not covered; a cart line is.
    expect(p).toMatchObject({ covered: 2, inCart: 2, uncovered: ['Oxford shirt', 'Cotton T-shirt'] });
  });

  it('none without a catalogue: the part is left out, never 0 of 0', () => {
    const c = new CoverageRecorder({});
    c.sent('a', 'S', ['a tote bag please']);
    expect(c.snapshot().products).toBeUndefined();
    expect(c.snapshot().shop).toBeUndefined();
  });
});

describe('intents', () => {
  it("counts the answers' lists (strings, or objects by name), against the declared ones ignoring case", () => {
    const c = new CoverageRecorder({ shop: SHOP });
    c.answered('a', 'S', ['x'], answer({ intents: ['purchase', 'refund'] }));
    c.answered('a', 'S', ['x'], { intents: [{ name: 'greeting', confidence: 0.9 }, 42] });
    c.answered('a', 'S', ['x'], { answer: 'no list at all' });
    const i = c.snapshot().intents;
    expect(i.answers).toBe(2);
    expect(i.byIntent).toEqual([
      { name: 'purchase', declared: true, answers: 1 },
      { name: 'product_inquiry', declared: true, answers: 0 },
      { name: 'Greeting', declared: true, answers: 1 },
      { name: 'refund', declared: false, answers: 1 },
    ]);
    expect(i.declared).toEqual({ total: 3, covered: 2, share: 2 / 3, uncovered: ['product_inquiry'] });
  });
});

describe('the funnel', () => {
  it("counts each conversation once, at the stages its answers reached and its customer's messages confirm", () => {
    const c = new CoverageRecorder({ shop: SHOP });
    const said = ['I want 2 oxford shirts to 99 Sukhumvit Rd, Bangkok 10110, call me on 081-234-5678'];
    c.sent('buyer', 'Shop', said);
    c.answered(
      'buyer',
      'Shop',
      said,
      answer({
        lines: [{ name: 'Oxford shirt', price: 1290, count: 2, total: 2580 }],
        grandTotal: '2,580.00 THB',
        address: { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10110' },
        contact: { phone: '0812345678' },
      }),
    );
    c.sent('buyer', 'Shop', [...said, 'thanks']); // a second turn of the same conversation
    // The droid's profile of the test customer kept an address and an email this conversation never gave.
    const kept = answer({
      address: { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10110' },
      contact: { email: 'anna@example.com' },
    });
    c.answered('greeter', 'Support', ['Hello!'], kept);
    // An empty cart with a zero total is no order.
    c.answered('asker', 'Support', ['How much is a scarf?'], answer({ grandTotal: '0.00 THB' }));
    const f = c.snapshot().funnel;
    expect(f.conversations).toBe(3);
    expect(f.stages).toEqual({ product: 1, cart: 1, total: 1, address: 1, contact: 1 });
    expect(f.bySuite).toEqual([
      { suite: 'Shop', conversations: 1, stages: { product: 1, cart: 1, total: 1, address: 1, contact: 1 } },
      { suite: 'Support', conversations: 2, stages: { product: 0, cart: 0, total: 0, address: 0, contact: 0 } },
    ]);
    expect(new Set(f.entries.map((e) => e.id)).size).toBe(3);
  });

  it("without a catalogue, a product is named by the droid's product keywords or a cart line", () => {
    const c = new CoverageRecorder({});
    c.answered('a', 'S', ['x'], { customerInsight: { product_keyword: ['linen'] } });
    c.answered('b', 'S', ['x'], { customerInsight: { product_keyword: [] } });
    expect(c.snapshot().funnel.stages.product).toBe(1);
  });
});

describe('the rules', () => {
  it("counts each rule's verdicts; tested once decided, untested when never, off when the policy does not switch it on", () => {
    const c = new CoverageRecorder({ shop: SHOP, rules: true });
    const judge = (payload: unknown) =>
      c.answered(
        'a',
        'S',
        ['x'],
        payload,
        checkAnswerFully(SHOP, payload, { conversation: 'a', customers: new CustomerRegistry() }).verdicts,
      );
    judge(answer({ text: 'Hello! How can I help you today?' }));
    judge(answer({ lines: [{ name: 'Tote bag', count: 1, total: 450 }], grandTotal: '500.00 THB' }));
    const r = c.snapshot().rules!;
    const byRule = Object.fromEntries(r.byRule.map((x) => [x.rule, x]));
    expect(byRule['catalogue-price']).toMatchObject({
      status: 'untested',
      notApplicable: 1,
      undecided: 1,
      reasons: { 'a cart line without a unit price': 1 },
    });
    expect(byRule['forbidden-phrase']).toMatchObject({ status: 'tested', held: 2 });
    expect(byRule['max-discount']).toMatchObject({ status: 'off' });
    expect(byRule.language).toMatchObject({ status: 'off' });
    // The cart's fee is decided from its line total; its unit price and arithmetic never were.
    expect(byRule['shipping-fee']).toMatchObject({ status: 'tested', held: 1, notApplicable: 1 });
    expect(r.uncovered).toEqual(['catalogue-price', 'cart-arithmetic']);
    expect(r.total).toBe(r.byRule.filter((x) => x.status !== 'off').length);
  });
});

describe('the service', () => {
  it("counts each ended request's endpoints (its answer endpoint or each step's) and its answer turns by mode", () => {
    const c = new CoverageRecorder({});
    c.ended({ mode: 'sync', outcome: 'answered' });
    c.ended({ mode: 'async', outcome: 'timeout' });
    c.ended({ mode: 'async', outcome: 'not-sent' });
    c.ended({
      mode: 'async',
      outcome: 'answered',
      steps: [
        { kind: 'say', endpoint: 'get-droid-answer-async', outcome: 'answered' },
        { kind: 'ask', endpoint: 'ask', outcome: 'rejected' },
        { kind: 'channels', endpoint: 'channels', outcome: 'answered' },
      ],
    });
    const s = c.snapshot().service;
    const by = Object.fromEntries(s.endpoints.map((e) => [e.endpoint, [e.calls, e.answered]]));
    expect(by).toMatchObject({
      'get-droid-answer': [1, 1],
      'get-droid-answer-async': [2, 1],
      ask: [1, 0],
      channels: [1, 1],
      send: [0, 0],
    });
    expect(s.endpoints).toHaveLength(10);
    expect(s.exercised).toBe(3);
    expect(s.modes).toEqual({ sync: 1, async: 2 });
  });

  it("counts a burst's messages: a call of the answer endpoint and an answer turn each", () => {
    const c = new CoverageRecorder({});
    c.ended({
      mode: 'async',
      outcome: 'answered',
      steps: [
        { index: 0, kind: 'say', endpoint: 'get-droid-answer-async', outcome: 'answered' },
        { index: 1, kind: 'burst', endpoint: 'get-droid-answer-async', outcome: 'answered' },
      ],
      bursts: [{ step: 1, messages: [{ outcome: 'answered' }, { outcome: 'failed' }, { outcome: 'not-sent' }] }],
    });
    const s = c.snapshot().service;
    expect(s.endpoints.find((e) => e.endpoint === 'get-droid-answer-async')).toMatchObject({ calls: 3, answered: 2 });
    expect(s.modes).toEqual({ sync: 0, async: 3 });
  });
});
