/**
 * The answers a run keeps in report.json (the last turn of each scenario, or every turn with
 * keepAnswers; bounded) and what a comparison says changed in them: the text as a word diff,
 * intents, cart lines, address; unchanged answers counted, not listed; a report without answers
 * (an earlier droidcheck's) compared without error. Drawn alike on the console, in Markdown and
 * in HTML (the two answers side by side).
 */
import { describe, expect, it } from 'vitest';
import {
  buildReport,
  compareReports,
  mergeReports,
  parseReportDocument,
  renderComparison,
  renderConsoleSummary,
  renderHtmlReport,
  renderMarkdownSummary,
  type ReportDocument,
} from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { record, run } from './fixtures.js';
import { unwrapped } from '../helpers/console-text.js';

/** An answer payload as the spec shows it (the fields answers.ts keeps, and others it drops). */
function payload(text: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    requestId: 'tpa-abc',
    answer: text,
    intents: ['purchase'],
    shoppingCart: { products: [{ name: 'Oxford shirt', quantity: 2 }], shippingFee: '0', grandTotal: '1,780.00 THB' },
    addressParsing: { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10110', country: '' },
    customerInsight: { user_language: 'English' },
    executionTime: 12,
    ...over,
  };
}

const say = (index: number, body: unknown): NonNullable<RequestRecord['steps']>[number] => ({
  index,
  kind: 'say',
  endpoint: 'get-droid-answer',
  outcome: 'answered',
  passed: true,
  failures: [],
  body,
});

/** Three scenarios: a greeting, an order, a three-turn conversation. */
function records(version: 'a' | 'b'): RequestRecord[] {
  const b = version === 'b';
  return [
    record({ seq: 0, scenario: 'greets', answer: payload('Hello! How can I help you today?', { intents: [] }) }),
    record({
      seq: 1,
      scenario: 'buys shirts',
      answer: payload(
        b
          ? 'Your order: 3 x Oxford shirt. Total due: 2,670.00 THB.'
          : 'Your order: 2 x Oxford shirt. To pay: 1,780.00 THB.',
        b
          ? {
              intents: ['purchase', 'upsell'],
              shoppingCart: {
                products: [{ quantity: 3, name: 'Oxford shirt' }],
                shippingFee: '0',
                grandTotal: '2,670.00 THB',
              },
              addressParsing: { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10120', country: '' },
            }
          : {},
      ),
    }),
    record({
      seq: 2,
      scenario: 'talks',
      answer: payload('third'),
      steps: [say(0, payload('first')), say(1, payload(b ? 'second, reworded' : 'second')), say(2, payload('third'))],
    }),
  ];
}

const report = (version: 'a' | 'b', keepAnswers = false): ReportDocument =>
  parseReportDocument(JSON.parse(JSON.stringify(buildReport(run(records(version), { keepAnswers })))));

describe('answers in report.json', () => {
  it("keeps each scenario's last answer turn: text, intents, cart and address, nothing else of the payload", () => {
    const doc = report('a');
    expect(doc.answers?.map((e) => [e.name, e.turns.map((t) => t.turn)])).toEqual([
      ['greets', [1]],
      ['buys shirts', [1]],
      ['talks', [3]],
    ]);
    expect(doc.answers?.[1]?.turns[0]).toEqual({
      turn: 1,
      text: 'Your order: 2 x Oxford shirt. To pay: 1,780.00 THB.',
      intents: ['purchase'],
      cart: { lines: [{ name: 'Oxford shirt', quantity: 2 }], shippingFee: '0', grandTotal: '1,780.00 THB' },
      address: { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10110', country: '' },
    });
  });

  it('keeps every turn with keepAnswers, and a turn without an answer as its outcome', () => {
    const doc = report('a', true);
    expect(doc.answers?.[2]?.turns.map((t) => [t.turn, t.text])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ]);
    const timedOut = buildReport(run([record({ outcome: 'timeout', passed: false })]));
    expect(timedOut.answers).toEqual([
      { suite: 'Shop', name: 'buys shirts', mode: 'sync', turns: [{ turn: 1, outcome: 'timeout' }] },
    ]);
  });

  it('is bounded: a text of 2,000 characters at most, 50 cart lines, a long line kept as its cut JSON', () => {
    const huge = payload('x'.repeat(5000), {
      shoppingCart: {
        products: Array.from({ length: 80 }, (_, i) => ({ name: `p${i}`, note: i === 0 ? 'y'.repeat(400) : '' })),
      },
    });
    const turn = buildReport(run([record({ answer: huge })])).answers?.[0]?.turns[0];
    expect(turn?.text).toHaveLength(2000);
    expect(turn?.text?.endsWith('…')).toBe(true);
    expect(turn?.cart?.lines).toHaveLength(50);
    expect(typeof turn?.cart?.lines[0]).toBe('string');
    expect(turn?.cart?.lines[0]).toHaveLength(300);
  });

  it('is absent from load reports (no records), and merges when every shard has it', () => {
    expect(buildReport(run([], { kind: 'load', records: undefined })).answers).toBeUndefined();
    const shard1 = report('a');
    const shard2 = report('b');
    expect(mergeReports([shard1, shard2]).answers).toHaveLength(6);
    // A shard of an earlier droidcheck: the merged report has no answers rather than half of them.
    const { answers: _dropped, ...old } = shard2;
    expect(mergeReports([shard1, old as ReportDocument]).answers).toBeUndefined();
  });
});

describe('what changed in the answers', () => {
  it('lists the changed answers (text, intents, cart lines, address), counts the unchanged', () => {
    const cmp = compareReports(report('a'), report('b'));
    expect(cmp.regressed).toBe(false);
    expect(cmp.answers).toMatchObject({ notRecorded: [], compared: 3, unchanged: 2 });
    expect(cmp.answers?.changed).toEqual([
      {
        suite: 'Shop',
        name: 'buys shirts',
        mode: 'sync',
        turn: 1,
        text: {
          base: 'Your order: 2 x Oxford shirt. To pay: 1,780.00 THB.',
          current: 'Your order: 3 x Oxford shirt. Total due: 2,670.00 THB.',
        },
        intents: { added: ['upsell'], removed: [] },
        cart: {
          added: [{ quantity: 3, name: 'Oxford shirt' }],
          removed: [{ name: 'Oxford shirt', quantity: 2 }],
          grandTotal: { base: '1,780.00 THB', current: '2,670.00 THB' },
        },
        address: [{ field: 'postal_code', base: '10110', current: '10120' }],
      },
    ]);
  });

  it('compares every turn both kept: a conversation changed in its second turn shows only with keepAnswers', () => {
    expect(compareReports(report('a'), report('b')).answers?.changed.map((c) => c.name)).toEqual(['buys shirts']);
    const all = compareReports(report('a', true), report('b', true)).answers;
    expect(all?.changed.map((c) => [c.name, c.turn])).toEqual([
      ['buys shirts', 1],
      ['talks', 2],
    ]);
    expect(all).toMatchObject({ compared: 5, unchanged: 3 });
  });

  it('says a turn that got an answer on one side only', () => {
    const base = buildReport(run([record({ answer: payload('Hi') })]));
    const current = buildReport(run([record({ outcome: 'timeout', passed: false })]));
    expect(compareReports(base, current).answers?.changed[0]).toMatchObject({
      outcome: { base: 'answered', current: 'timeout' },
      text: { base: 'Hi', current: '' },
      intents: { added: [], removed: ['purchase'] },
    });
  });

  it('compares a report without answers (an earlier droidcheck) without error, saying they were not recorded', () => {
    const old = JSON.parse(JSON.stringify(report('a')));
    delete old.answers;
    const cmp = compareReports(parseReportDocument(old), report('b'));
    expect(cmp.answers).toEqual({ notRecorded: ['base'], compared: 0, unchanged: 0, changed: [] });
    expect(unwrapped(renderComparison(cmp))).toContain(
      'answers not compared: not recorded in the baseline (written by a droidcheck before it kept answers)',
    );
    // And the comparison, answers included, reads back through the report's schema.
    const current = buildReport(run(records('b')), { baseline: report('a') });
    expect(parseReportDocument(JSON.parse(JSON.stringify(current))).comparison?.answers?.changed).toHaveLength(1);
  });

  it('draws the word diff on the console and in Markdown, the two answers side by side in HTML', () => {
    const current = buildReport(run(records('b')), { baseline: report('a') });
    const text = unwrapped(renderComparison(current.comparison as NonNullable<typeof current.comparison>));
    expect(text).toContain('Answers that changed: 1 of 3 (2 unchanged, not listed):');
    expect(text).toContain('Shop › buys shirts [sync]');
    expect(text).toContain(
      'text: Your order: [-2-]{+3+} x Oxford shirt. [-To pay: 1,780.00-]{+Total due: 2,670.00+} THB.',
    );
    expect(text).toContain('intents: +upsell');
    expect(text).toContain(
      'cart: lines +{"quantity":3,"name":"Oxford shirt"}, -{"name":"Oxford shirt","quantity":2}; grand total "1,780.00 THB" -> "2,670.00 THB"',
    );
    expect(text).toContain('address: postal_code "10110" -> "10120"');
    expect(text).not.toContain('greets');

    const md = renderMarkdownSummary(current);
    expect(md).toContain(
      '  - text: Your order: ~~2~~ **3** x Oxford shirt. ~~To pay: 1,780.00~~ **Total due: 2,670.00** THB.',
    );

    const html = renderHtmlReport(current);
    const row = html.slice(html.indexOf('<table class="answer-diff">'));
    expect(row).toContain('<th class="l">baseline</th><th class="l">current</th>');
    // The baseline's cell holds its own words struck, the current one's its own inserted.
    expect(row).toMatch(
      /Your order: <del[^>]*>2<\/del> x Oxford shirt\. <del[^>]*>To pay: 1,780\.00<\/del> THB\.<\/td><td[^>]*>Your order: <ins[^>]*>3<\/ins> x Oxford shirt\. <ins[^>]*>Total due: 2,670\.00<\/ins> THB\./,
    );
  });

  it('lists the first 5 on the console by default, every one with --verbose', () => {
    const many = (v: 'a' | 'b') =>
      run(Array.from({ length: 7 }, (_, i) => record({ seq: i, scenario: `s${i}`, answer: payload(`answer ${v}`) })));
    const current = buildReport(many('b'), { baseline: buildReport(many('a')) });
    const brief = renderConsoleSummary(current);
    expect(brief).toContain('Answers that changed: 7 of 7 (0 unchanged, not listed):');
    expect(brief.match(/text: answer \[-a-\]\{\+b\+\}/g)).toHaveLength(5);
    expect(brief).toContain(
      '… 2 more in report.json (comparison.answers); --verbose, summary.md and report.html list up to 50',
    );
    expect(renderConsoleSummary(current, { verbose: true }).match(/text: answer \[-a-\]\{\+b\+\}/g)).toHaveLength(7);
  });
});
