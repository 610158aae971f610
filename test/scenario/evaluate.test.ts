/**
 * evaluateExpectations: each matcher passes and fails as documented; failures carry
 * path, matcher, expected, actual (undefined when missing), message and the YAML location.
 */
import { describe, expect, it } from 'vitest';
import {
  evaluateExpectations,
  evaluatePlainExpectations,
  parseSuite,
  valueAtPath,
  type Expectation,
} from '../../src/scenario/index.js';

const PAYLOAD = {
  requestId: 'tpa-1',
  answer: 'We have Oxford shirts for 1,290.00 THB each.',
  intents: ['purchase', 'greeting'],
  executionTime: 1234,
  responses: [{ kwargs: { content: 'We have Oxford shirts.' } }],
  shoppingCart: { products: [{ name: 'Oxford shirt', quantity: 2 }], shippingFee: '50', grandTotal: '2,580.00 THB' },
  addressParsing: { postal_code: '10110', city: 'Bangkok' },
  customerInsight: { contact_info: { email: '', phone: null } },
  customExtractedInfo: { summary: '{"sentiment":"positive","score":0.9,"tags":["a","b"]}' },
};

/** Parses one `expect:` block (YAML flow map text) into expectations. */
function exp(path: string, matcher: string): Expectation[] {
  const text = `suite: t\nscenarios:\n  - name: x\n    humanMessage: hi\n    expect:\n      ${path}: ${matcher}\n`;
  return parseSuite(text, 't.yaml').scenarios[0]!.expect;
}
const failuresOf = async (expectations: Expectation[], payload: unknown = PAYLOAD) =>
  (await evaluateExpectations(expectations, payload)).failures;
const passes = async (path: string, matcher: string): Promise<boolean> =>
  (await failuresOf(exp(path, matcher))).length === 0;

describe('valueAtPath', () => {
  it('walks dotted paths, numeric segments index arrays, own properties only', () => {
    expect(valueAtPath(PAYLOAD, 'responses.0.kwargs.content')).toBe('We have Oxford shirts.');
    expect(valueAtPath(PAYLOAD, 'intents.1')).toBe('greeting');
    expect(valueAtPath(PAYLOAD, 'intents.x')).toBeUndefined();
    expect(valueAtPath(PAYLOAD, 'answer.length')).toBeUndefined();
    expect(valueAtPath(PAYLOAD, 'constructor')).toBeUndefined();
    expect(valueAtPath(null, 'a.b')).toBeUndefined();
  });
});

describe('matchers', () => {
  it.each([
    // [path, matcher (YAML), passes?]
    ['shoppingCart.grandTotal', '"2,580.00 THB"', true],
    ['shoppingCart.grandTotal', '"2,580 THB"', false],
    ['intents', '[purchase, greeting]', true],
    ['shoppingCart.products.0.quantity', '{ equals: 2 }', true],
    ['shoppingCart.products.0', '{ equals: { name: Oxford shirt, quantity: 2 } }', true],
    ['addressParsing.postal_code', '{ equals: 10110 }', false],
    ['addressParsing.city', '{ equals: BANGKOK, ignoreCase: true }', true],
    ['answer', '{ contains: Oxford }', true],
    ['answer', '{ contains: oxford }', false],
    ['answer', '{ contains: { value: oxford, ignoreCase: true } }', true],
    ['answer', '{ icontains: OXFORD }', true],
    ['intents', '{ contains: purchase }', true],
    ['executionTime', '{ contains: 1 }', false],
    ['answer', '{ notContains: refund }', true],
    ['answer', '{ notContains: Oxford }', false],
    ['missing.path', '{ notContains: x }', true],
    ['addressParsing.postal_code', '{ matches: "^101\\\\d\\\\d$" }', true],
    ['addressParsing.postal_code', '{ matches: "^102" }', false],
    ['answer', '{ matches: "(?i)OXFORD" }', true],
    ['answer', '{ matches: { pattern: "OXFORD", flags: i } }', true],
    ['intents', '{ includes: purchase }', true],
    ['intents', '{ includes: [purchase, greeting] }', true],
    ['intents', '{ includes: [purchase, refund] }', false],
    ['answer', '{ includes: purchase }', false],
    ['intents', '{ excludes: refund }', true],
    ['intents', '{ excludes: [refund, greeting] }', false],
    ['addressParsing.city', '{ oneOf: [Bangkok, Chiang Mai] }', true],
    ['addressParsing.city', '{ oneOf: [Phuket] }', false],
    ['customerInsight.contact_info.email', '{ absent: true }', true],
    ['customerInsight.contact_info.phone', '{ absent: true }', true],
    ['customerInsight.contact_info.name', '{ absent: true }', true],
    ['answer', '{ absent: true }', false],
    ['answer', '{ present: true }', true],
    ['customerInsight.contact_info.email', '{ present: true }', false],
    ['intents', '{ length: 2 }', true],
    ['intents', '{ length: { min: 3 } }', false],
    ['answer', '{ minLength: 10, maxLength: 100 }', true],
    ['answer', '{ maxLength: 5 }', false],
    ['executionTime', '{ gt: 1000, lt: 2000 }', true],
    ['executionTime', '{ gte: 1234, lte: 1234 }', true],
    ['executionTime', '{ lt: 1000 }', false],
    ['shoppingCart.shippingFee', '{ gte: 50 }', true],
    ['answer', '{ gt: 1 }', false],
    ['shoppingCart.grandTotal', '{ money: "2580 THB" }', true],
    ['shoppingCart.grandTotal', '{ money: { amount: 2580, currency: THB } }', true],
    ['shoppingCart.grandTotal', '{ money: "2,580.00 USD" }', false],
    ['shoppingCart.grandTotal', '{ money: "2,580.01 THB" }', false],
    [
      'customExtractedInfo.summary',
      '{ json: { sentiment: positive, score: { gt: 0.5 }, tags: { includes: b } } }',
      true,
    ],
    ['customExtractedInfo.summary', '{ json: { sentiment: negative } }', false],
    ['answer', '{ json: { a: 1 } }', false],
    // `json: {}` asserts only that the string is JSON text (the ask answer to a JSON prompt, spec 5).
    ['customExtractedInfo.summary', '{ json: {} }', true],
    ['answer', '{ json: {} }', false],
    ['intents', '{ json: {} }', false],
  ])('%s %s -> %s', async (path, matcher, ok) => {
    expect(await passes(path, matcher)).toBe(ok);
  });

  it('reports path, matcher, expected, actual, message and location', async () => {
    const failures = await failuresOf(exp('intents', '{ includes: refund }'));
    expect(failures).toEqual([
      {
        path: 'intents',
        matcher: 'includes',
        expected: 'refund',
        actual: ['purchase', 'greeting'],
        message: 'intents: expected to include "refund", got ["purchase","greeting"]',
        location: { file: 't.yaml', line: 6, col: 18 },
      },
    ]);
  });

  it('gives undefined as the actual value of a missing path', async () => {
    const [f] = await failuresOf(exp('shoppingCart.products.3.name', '{ equals: x }'));
    expect(f?.actual).toBeUndefined();
    expect(f?.message).toBe(
      'shoppingCart.products.3.name: expected to equal "x", got nothing (no value at this path: "shoppingCart.products" has 1 item (index 0))',
    );
  });

  it('a path that finds nothing names the keys at the deepest part that exists, with a did-you-mean', async () => {
    // Cart lines are `count` in the emulator and `quantity` here: the keys that exist show the way.
    const [count] = await failuresOf(exp('shoppingCart.products.0.count', '2'));
    expect(count?.message).toBe(
      'shoppingCart.products.0.count: expected to equal 2, got nothing (no value at this path: "shoppingCart.products.0" has name, quantity)',
    );
    const [typo] = await failuresOf(exp('shoppingCart.products.0.quantty', '2'));
    expect(typo?.message).toContain(
      '"shoppingCart.products.0" has name, quantity; did you mean "shoppingCart.products.0.quantity"?',
    );
    const [scalar] = await failuresOf(exp('answer.text', '{ present: true }'));
    expect(scalar?.message).toContain('(no value at this path: "answer" is a string, not an object)');
    const [empty] = await failuresOf(exp('customExtractedInfo.summary.x', '{ present: true }'));
    expect(empty?.message).toContain('"customExtractedInfo.summary" is a string');
    // (a typo of a documented field is refused at load time; under customExtractedInfo nothing is known)
    const [custom] = await failuresOf(exp('customExtractedInfo.summry', '{ present: true }'));
    expect(custom?.message).toMatch(
      /no value at this path: "customExtractedInfo" has summary; did you mean "customExtractedInfo.summary"\?\)$/,
    );
    const [top] = await failuresOf(exp('requestId', '{ present: true }'), { answer: '', intents: [] });
    expect(top?.message).toContain('(no value at this path: the body has answer, intents)');
    const [none] = await failuresOf(exp('intents.0', 'purchase'), { ...PAYLOAD, intents: [] });
    expect(none?.message).toContain('"intents" has no item');
  });

  it('explains a number compared with a numeric string', async () => {
    const [f] = await failuresOf(exp('addressParsing.postal_code', '10110'));
    expect(f?.message).toContain('quote the value in YAML');
    expect(f?.location).toEqual({ file: 't.yaml', line: 6, col: 7 });
  });

  it('reports every failing matcher of a matcher object', async () => {
    const failures = await failuresOf(exp('answer', '{ contains: refund, maxLength: 3, minLength: 1 }'));
    expect(failures.map((f) => f.matcher)).toEqual(['contains', 'maxLength']);
  });

  it('prefixes failures inside json with the outer path', async () => {
    const failures = await failuresOf(exp('customExtractedInfo.summary', '{ json: { score: { lt: 0.5 } } }'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ path: 'customExtractedInfo.summary#score', matcher: 'lt', actual: 0.9 });
    expect(failures[0]?.message).toBe('customExtractedInfo.summary#score: expected a number < 0.5, got 0.9');
  });

  it('never rejects, whatever the payload', async () => {
    const all = exp('a.b', '{ contains: x, matches: "y", length: 1, money: "1 THB", json: { c: 1 }, gt: 1 }');
    for (const payload of [undefined, null, 1, 'text', [], { a: { b: { c: 1 } } }, { a: [1] }]) {
      const evaluation = await evaluateExpectations(all, payload);
      expect(evaluation.judgeErrors).toEqual([]);
      expect(evaluation.grades).toEqual([]);
      expect(evaluation.failures.length).toBeGreaterThan(0);
    }
  });

  it('evaluatePlainExpectations gives the same failures synchronously', async () => {
    const all = exp('answer', '{ contains: refund, maxLength: 3, minLength: 1 }');
    expect(evaluatePlainExpectations(all, PAYLOAD)).toEqual(await failuresOf(all));
  });
});
