/** computeAccuracy: the multi-label confusion matrix, per-intent figures read from it, merging, cart/address hit rates. */
import { describe, expect, it } from 'vitest';
import { NONE_LABEL, computeAccuracy, confusionCells, expectedIntents } from '../../src/report/sections/accuracy.js';
import { buildReport, mergeReports, renderConsoleSummary } from '../../src/report/index.js';
import { mergeAccuracy } from '../../src/report/sections/accuracy.js';
import { parseSuite } from '../../src/scenario/index.js';
import { record, run } from './fixtures.js';

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

const ans = (intents: string[], grandTotal = '2,580.00 THB', postal = '10110') => ({
  intents,
  shoppingCart: { grandTotal },
  addressParsing: { postal_code: postal },
});

describe('computeAccuracy', () => {
  it('reads expected intents from includes/equals on intents', () => {
    expect(expectedIntents(suite.scenarios[0]!.expect)).toEqual(['purchase']);
    expect(expectedIntents(suite.scenarios[2]!.expect)).toBeUndefined();
  });

  it('computes every figure from the confusion matrix: TP on the diagonal, FN along the row, FP down the column', () => {
    const acc = computeAccuracy(
      [
        record({ scenario: 'buy', answer: ans(['purchase', 'greeting']) }), // open set: greeting is not judged
        record({ scenario: 'buy', mode: 'async', answer: ans(['price_inquiry'], '1,290.00 THB') }), // price_inquiry stands in for purchase
        record({ scenario: 'refund', answer: ans(['return_request', 'purchase']) }), // purchase stands in for complaint
        record({ scenario: 'untested', answer: ans(['greeting']) }),
        record({ scenario: 'buy', outcome: 'timeout', passed: false }),
        record({
          scenario: 'turns',
          steps: [
            {
              index: 0,
              kind: 'say',
              endpoint: 'get-droid-answer',
              outcome: 'answered',
              passed: true,
              failures: [],
              body: ans(['greeting']),
            },
          ],
        }),
      ],
      [suite],
    );
    expect(acc.samples).toBe(4);
    expect(acc.confusion).toEqual({
      expected: ['complaint', 'greeting', 'purchase', 'return_request'],
      actual: ['greeting', 'price_inquiry', 'purchase', 'return_request'],
      counts: {
        purchase: { purchase: 1, price_inquiry: 1 },
        return_request: { return_request: 1 },
        complaint: { purchase: 1 },
        greeting: { greeting: 1 },
      },
    });
    const by = Object.fromEntries(acc.intents.map((m) => [m.intent, m]));
    expect(by.purchase).toEqual({
      intent: 'purchase',
      support: 2,
      predicted: 2,
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 1,
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
    });
    expect(by.complaint).toMatchObject({
      support: 1,
      predicted: 0,
      falseNegatives: 1,
      precision: null,
      recall: 0,
      f1: 0,
    });
    expect(by.price_inquiry).toMatchObject({ support: 0, falsePositives: 1, precision: 0, recall: null, f1: 0 });
    expect(by.greeting).toMatchObject({ support: 1, predicted: 1, precision: 1, recall: 1, f1: 1 });
    // The invariants, for every intent.
    for (const m of acc.intents) {
      const row = acc.confusion.counts[m.intent] ?? {};
      const col = Object.entries(acc.confusion.counts).map(([r, cols]) => (r === m.intent ? 0 : (cols[m.intent] ?? 0)));
      expect(m.truePositives).toBe(row[m.intent] ?? 0);
      expect(m.falseNegatives).toBe(Object.entries(row).reduce((n, [c, v]) => n + (c === m.intent ? 0 : v), 0));
      expect(m.falsePositives).toBe(col.reduce((a, b) => a + b, 0));
    }
    expect(acc.fields).toEqual([
      { path: 'addressParsing.postal_code', group: 'address', checks: 2, hits: 2, hitRate: 1 },
      { path: 'shoppingCart.grandTotal', group: 'cart', checks: 2, hits: 1, hitRate: 0.5 },
    ]);
  });

  it('judges other intents when the set is closed (equals) or an intent is excluded', () => {
    const closed = parseSuite(
      `suite: C
scenarios:
  - name: exact
    humanMessage: hi
    expect:
      intents: { equals: [greeting] }
  - name: never
    humanMessage: hi
    expect:
      intents: { includes: shipping, excludes: complaint }
`,
      'c.yaml',
    );
    const acc = computeAccuracy(
      [
        record({ suite: 'C', scenario: 'exact', answer: ans(['greeting', 'purchase']) }),
        record({ suite: 'C', scenario: 'never', answer: ans(['shipping', 'complaint', 'greeting']) }),
      ],
      [closed],
    );
    expect(acc.confusion.counts).toEqual({
      greeting: { greeting: 1 },
      shipping: { shipping: 1 },
      [NONE_LABEL]: { purchase: 1, complaint: 1 },
    });
    expect(acc.confusion.expected).toEqual(['greeting', 'shipping', NONE_LABEL]);
    const by = Object.fromEntries(acc.intents.map((m) => [m.intent, m]));
    expect(by.purchase).toMatchObject({ falsePositives: 1, precision: 0 });
    expect(by.complaint).toMatchObject({ falsePositives: 1, precision: 0 });
    expect(by.greeting).toMatchObject({ precision: 1, recall: 1 }); // the open "never" sample does not judge greeting
    expect(confusionCells({ expected: ['a', 'b'], closed: false, excluded: [] }, [])).toEqual([
      ['a', NONE_LABEL],
      ['b', NONE_LABEL],
    ]);
  });
});

/** A suite whose every expectation holds: `includes` on intents, answers carrying extra intents. */
const green = parseSuite(
  `suite: Green
scenarios:
${['shipping', 'purchase', 'greeting', 'return_request']
  .map(
    (i) => `  - name: ${i}
    humanMessage: about ${i}
    repeat: 3
    expect:
      intents: { includes: ${i} }
`,
  )
  .join('')}`,
  'green.yaml',
);
const greenRecords = ['shipping', 'purchase', 'greeting', 'return_request'].flatMap((intent, s) =>
  [0, 1, 2].flatMap((repeat) =>
    (['sync', 'async'] as const).map((mode, m) =>
      // The droid names extra intents beside the tested one (shipping with purchase, greeting everywhere).
      record({
        seq: s * 6 + repeat * 2 + m,
        suite: 'Green',
        scenario: intent,
        mode,
        repeat,
        answer: ans([intent, 'greeting', ...(intent === 'purchase' ? ['shipping'] : [])]),
      }),
    ),
  ),
);

describe('accuracy consistent with itself', () => {
  it('shows precision = recall = F1 = 100% for every intent of an all-green suite with a perfect diagonal', () => {
    const acc = computeAccuracy(greenRecords, [green]);
    expect(acc.samples).toBe(24);
    for (const e of acc.confusion.expected) expect(Object.keys(acc.confusion.counts[e] ?? {})).toEqual([e]);
    expect(acc.intents.map((m) => [m.intent, m.precision, m.recall, m.f1])).toEqual([
      ['greeting', 1, 1, 1],
      ['purchase', 1, 1, 1],
      ['return_request', 1, 1, 1],
      ['shipping', 1, 1, 1],
    ]);
    const report = buildReport(run(greenRecords), { suites: [green] });
    const text = renderConsoleSummary(report, { verbose: true });
    expect(text).toMatch(/shipping\s+6\s+6\s+0\s+0\s+100%\s+100%\s+100%/);
    expect(text).not.toContain('confusion');
    // The console's default: one line, no table when no intent went wrong.
    const brief = renderConsoleSummary(report);
    expect(brief).toMatch(/^Accuracy {2}24 labelled answers · intents 24\/24, 0 wrong/m);
    expect(brief).not.toMatch(/shipping\s+6/);
  });

  it('gives the same figures unsharded and merged from 4 shards', () => {
    const mixed = greenRecords.map((r, i) => (i % 5 === 0 ? { ...r, answer: ans(['price_inquiry', 'shipping']) } : r));
    const whole = computeAccuracy(mixed, [green]);
    const shards = [0, 1, 2, 3].map((k) =>
      computeAccuracy(
        mixed.filter((_, i) => i % 4 === k),
        [green],
      ),
    );
    const merged = mergeAccuracy(shards)!;
    expect(merged.intents).toEqual(whole.intents);
    expect(merged.confusion).toEqual(whole.confusion);
    expect(merged.samples).toBe(whole.samples);
    // And through whole reports: merge of 4 sharded reports = the unsharded report.
    const reports = [0, 1, 2, 3].map((k) => buildReport(run(mixed.filter((_, i) => i % 4 === k)), { suites: [green] }));
    expect(mergeReports(reports).accuracy).toEqual(buildReport(run(mixed), { suites: [green] }).accuracy);
  });
});

describe('computeAccuracy and code checks', () => {
  it('leaves a code check on a cart field out of the field hit rates (the function judges, not a value)', () => {
    const coded = parseSuite(
      `suite: Shop
scenarios:
  - name: buy
    humanMessage: I'll take 2
    expect:
      shoppingCart.grandTotal: { code: ./checks.mjs#plausible }
      addressParsing.postal_code: "10110"
`,
      'coded.yaml',
    );
    const acc = computeAccuracy([record({ scenario: 'buy', answer: ans(['purchase']) })], [coded]);
    expect(acc.fields).toEqual([
      { path: 'addressParsing.postal_code', group: 'address', checks: 1, hits: 1, hitRate: 1 },
    ]);
  });
});
