/** computeAccuracy: per-intent precision/recall, confusion table, cart/address hit rates. */
import { describe, expect, it } from 'vitest';
import { computeAccuracy, expectedIntents } from '../../src/report/accuracy.js';
import { parseSuite } from '../../src/scenario/index.js';
import { record } from './fixtures.js';

const suite = parseSuite(
  `suite: Shop
scenarios:
  - name: buy
    humanMessage: I'll take 2
    expect:
      intents: { includes: purchase }
      shoppingCart.grandTotal: "2,580.00 THB"
      addressParsing.postal_code: "10110"
  - name: refund
    humanMessage: refund please
    intents: [return_request, complaint]
  - name: untested
    humanMessage: hi
  - name: turns
    steps:
      - say: hello
        expect: { intents: [greeting] }
`,
  'shop.yaml',
);

const ans = (intents: string[], grandTotal = '2,580.00 THB', postal = '10110') => ({ intents, shoppingCart: { grandTotal }, addressParsing: { postal_code: postal } });

describe('computeAccuracy', () => {
  it('reads expected intents from includes/equals on intents', () => {
    expect(expectedIntents(suite.scenarios[0]!.expect)).toEqual(['purchase']);
    expect(expectedIntents(suite.scenarios[2]!.expect)).toBeUndefined();
  });

  it('computes precision, recall, the confusion table and field hit rates', () => {
    const acc = computeAccuracy(
      [
        record({ scenario: 'buy', answer: ans(['purchase', 'greeting']) }),
        record({ scenario: 'buy', mode: 'async', answer: ans(['price_inquiry'], '1,290.00 THB') }),
        record({ scenario: 'refund', answer: ans(['return_request', 'purchase']) }),
        record({ scenario: 'untested', answer: ans(['greeting']) }),
        record({ scenario: 'buy', outcome: 'timeout', passed: false }),
        record({ scenario: 'turns', steps: [{ index: 0, kind: 'say', endpoint: 'get-droid-answer', outcome: 'answered', passed: true, failures: [], body: ans(['greeting']) }] }),
      ],
      [suite],
    );
    expect(acc.samples).toBe(4);
    const by = Object.fromEntries(acc.intents.map((m) => [m.intent, m]));
    expect(by.purchase).toMatchObject({ support: 2, predicted: 2, truePositives: 1, precision: 0.5, recall: 0.5 });
    expect(by.complaint).toMatchObject({ support: 1, predicted: 0, truePositives: 0, precision: null, recall: 0, f1: null });
    expect(by.greeting).toMatchObject({ support: 1, predicted: 2, truePositives: 1, precision: 0.5, recall: 1 });
    expect(acc.confusion.expected).toEqual(['complaint', 'greeting', 'purchase', 'return_request']);
    expect(acc.confusion.counts).toEqual({
      purchase: { purchase: 1, price_inquiry: 1 },
      return_request: { return_request: 1 },
      complaint: { purchase: 1 },
      greeting: { greeting: 1 },
    });
    expect(acc.fields).toEqual([
      { path: 'addressParsing.postal_code', group: 'address', checks: 2, hits: 2, hitRate: 1 },
      { path: 'shoppingCart.grandTotal', group: 'cart', checks: 2, hits: 1, hitRate: 0.5 },
    ]);
  });
});
