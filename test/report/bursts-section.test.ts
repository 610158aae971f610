/**
 * The `bursts` section (docs/bursts.md) in every format: report.json (read back through the
 * schema), the console (a line when nothing was found; the bursts with findings, requestIds with
 * --verbose), Markdown, HTML and JUnit; merged across shards (counts added, findings kept, each
 * load interval's shares added); `burst.<finding>.rate` thresholds judged on it; report.html's
 * chart of the shares per load interval, from two intervals that judged bursts.
 */
import { describe, expect, it } from 'vitest';
import {
  buildReport,
  mergeReports,
  parseReportDocument,
  renderConsoleSummary,
  renderHtmlReport,
  renderJUnit,
  renderMarkdownSummary,
} from '../../src/report/index.js';
import { burstsChartData } from '../../src/report/html-charts.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import type { BurstRecord } from '../../src/runner/index.js';
import { record, run } from './fixtures.js';
import { unwrapped } from '../helpers/console-text.js';

/** A two-message burst whose first answer arrived last (out of order, stale last answer), or in order. */
function burst(late: boolean, ids: [string, string]): BurstRecord {
  return {
    step: 0,
    gapMs: 300,
    final: 'last-delivered',
    messages: [
      {
        index: 0,
        text: 'I want 2 T-Shirt',
        requestId: ids[0],
        sentAtMs: 0.4,
        arrivedAtMs: late ? 1530 : 520,
        status: 'answered',
        outcome: 'answered',
        answersSeen: 0,
        cart: ['2 x Cotton T-shirt'],
      },
      {
        index: 1,
        text: 'and 1 Canvas Bag',
        requestId: ids[1],
        sentAtMs: 300.2,
        arrivedAtMs: 820,
        status: 'answered',
        outcome: 'answered',
        answersSeen: 0,
        cart: ['2 x Cotton T-shirt', '1 x Tote bag'],
      },
    ],
    lastDelivered: late ? 0 : 1,
    findings: late
      ? [
          {
            check: 'out-of-order',
            messages: [0, 1],
            message: `the answer to message 1 (${ids[0]}, at 1.53 s) arrived after the answer to message 2 (${ids[1]}, at 820 ms)`,
          },
          { check: 'stale-last', messages: [0, 1], message: 'stale' },
          { check: 'cart-regressed', messages: [0, 1], message: 'lacks Tote bag' },
        ]
      : [],
  };
}

const withBurst = (seq: number, late: boolean, mode: 'sync' | 'async' = 'async'): RequestRecord =>
  record({ seq, mode, scenario: 'two products', bursts: [burst(late, [`tpa-${seq}a`, `tpa-${seq}b`])] });

/** A load interval's point with `total` bursts, `late` of them out of order. */
const point = (t: number, total: number, late: number) => ({
  t,
  durationS: 1,
  started: total,
  ended: total,
  inFlight: 0,
  maxInFlight: 1,
  outcomes: { answered: total },
  bursts: {
    total,
    outOfOrder: { count: late, share: late / total, interval: { low: 0, high: 1 } },
    staleLast: { count: late, share: late / total, interval: { low: 0, high: 1 } },
    cartRegressed: { count: 0, share: 0, interval: { low: 0, high: 1 } },
  },
});

describe('the bursts section', () => {
  it('counts and keeps the findings in report.json; every format shows them', () => {
    const records = [withBurst(0, true, 'sync'), withBurst(1, true), withBurst(2, false)];
    const doc = buildReport(
      run(records, { thresholds: ['burst.out_of_order.rate < 50%', 'burst.unanswered.count == 0'] }),
    );
    expect(doc.bursts).toMatchObject({
      total: 3,
      outOfOrder: 2,
      staleLast: 2,
      cartRegressed: 2,
      unanswered: 0,
      declined: 0,
    });
    expect(doc.bursts!.findings.map((f) => [f.check, f.mode, f.requestIds, f.lastDelivered, f.lastMessage])).toEqual([
      ['out-of-order', 'sync', ['tpa-0a', 'tpa-0b'], 'tpa-0a', 'tpa-0b'],
      ['stale-last', 'sync', ['tpa-0a', 'tpa-0b'], 'tpa-0a', 'tpa-0b'],
      ['cart-regressed', 'sync', ['tpa-0a', 'tpa-0b'], 'tpa-0a', 'tpa-0b'],
      ['out-of-order', 'async', ['tpa-1a', 'tpa-1b'], 'tpa-1a', 'tpa-1b'],
      ['stale-last', 'async', ['tpa-1a', 'tpa-1b'], 'tpa-1a', 'tpa-1b'],
      ['cart-regressed', 'async', ['tpa-1a', 'tpa-1b'], 'tpa-1a', 'tpa-1b'],
    ]);
    expect(doc.bursts!.findings[0]!.arrivals).toEqual([
      { message: 1, requestId: 'tpa-0a', sentAtMs: 0.4, arrivedAtMs: 1530, status: 'answered' },
      { message: 2, requestId: 'tpa-0b', sentAtMs: 300.2, arrivedAtMs: 820, status: 'answered' },
    ]);
    // Thresholds on the shares: 2 of 3 out of order breaches 50%; a count judged at zero.
    expect(doc.thresholds.map((t) => [t.expression, t.status, t.actual])).toEqual(
      expect.arrayContaining([
        ['burst.out_of_order.rate < 50%', 'breached', 2 / 3],
        ['burst.unanswered.count == 0', 'passed', 0],
      ]),
    );
    expect(doc.exitCode).toBe(99);
    expect(parseReportDocument(JSON.parse(JSON.stringify(doc))).bursts).toEqual(doc.bursts);

    const console = unwrapped(renderConsoleSummary(doc));
    expect(console).toContain(
      'Bursts  3 bursts judged · 2 out of order (67%) · 2 stale last answer (67%) · 2 cart regressed (67%)',
    );
    expect(console).toMatch(
      /answered out of order, stale last answer, cart regressed +two products \[sync\] step 1 +1: 0 ms → 1\.53 s · 2: 300 ms → 820 ms/,
    );
    expect(console).not.toContain('tpa-0a'); // the brief leaves the requestIds to --verbose
    expect(unwrapped(renderConsoleSummary(doc, { verbose: true }))).toContain('tpa-0a, tpa-0b');
    const md = renderMarkdownSummary(doc);
    expect(md).toContain('### Bursts: 3 bursts judged');
    expect(md).toContain(
      '| answered out of order, stale last answer, cart regressed | two products [async] step 1 | tpa-1a, tpa-1b | 1: 0 ms → 1.53 s · 2: 300 ms → 820 ms |',
    );
    const html = renderHtmlReport(doc);
    expect(html).toContain('id="bursts"');
    expect(html).toContain('tpa-1a, tpa-1b');
    const junit = renderJUnit(doc);
    expect(junit).toContain('<testsuite name="droidcheck.bursts" tests="5" failures="0"');
    expect(junit).toMatch(
      /<testcase classname="droidcheck\.bursts" name="answered out of order"[\s\S]*?<property name="found" value="2"\/>/,
    );
  });

  it('says it in a line when nothing was found, and is absent without a burst', () => {
    const doc = buildReport(run([withBurst(0, false), withBurst(1, false, 'sync')]));
    expect(renderConsoleSummary(doc)).toContain(
      'Bursts  2 bursts judged: every message answered, in order, no cart regressed',
    );
    const none = buildReport(run([record()], { thresholds: ['burst.stale_last.rate < 1%'] }));
    expect(none.bursts).toBeUndefined();
    expect(renderConsoleSummary(none)).not.toContain('Bursts');
    // A job without a burst has nothing to judge: no samples, never a pass that looks judged.
    expect(none.thresholds.find((t) => t.metric === 'burst.stale_last.rate')).toMatchObject({
      status: 'no-samples',
      actual: null,
    });
  });

  it("charts each finding's share per load interval in report.html, from two intervals that judged bursts", () => {
    const quiet = { ...point(3, 1, 0), bursts: undefined };
    const doc = buildReport(
      run([withBurst(0, true)], { timeline: { intervalMs: 1000, points: [point(1, 4, 1), point(2, 2, 2), quiet] } }),
    );
    expect(burstsChartData(doc)).toEqual({
      t: [1, 2, 3],
      outOfOrderPct: [25, 100, null],
      staleLastPct: [25, 100, null],
      cartRegressedPct: [0, 0, null],
      judged: [4, 2, 0],
    });
    expect(renderHtmlReport(doc)).toContain('id="chart-bursts-timeline"');
    // One interval that judged bursts draws no line: no chart, the table and the counts say it all.
    const one = buildReport(
      run([withBurst(0, true)], { timeline: { intervalMs: 1000, points: [point(1, 4, 1), quiet] } }),
    );
    expect(burstsChartData(one)).toBeUndefined();
    expect(renderHtmlReport(one)).not.toContain('id="chart-bursts-timeline"');
  });

  it("merges shards: counts added, findings kept, each interval's shares added", () => {
    const a = buildReport(
      run([withBurst(0, true)], { timeline: { intervalMs: 1000, points: [point(1, 4, 1), point(2, 2, 2)] } }),
    );
    const b = buildReport(run([withBurst(5, false)], { timeline: { intervalMs: 1000, points: [point(1, 4, 3)] } }));
    const merged = mergeReports([a, b]);
    expect(merged.bursts).toMatchObject({ total: 2, outOfOrder: 1, staleLast: 1 });
    expect(merged.bursts!.findings.map((f) => f.requestIds[0])).toEqual(['tpa-0a', 'tpa-0a', 'tpa-0a']);
    const [first, second] = merged.timeline!.points;
    expect(first!.bursts).toMatchObject({ total: 8, outOfOrder: { count: 4, share: 0.5 } });
    expect(first!.bursts!.outOfOrder.interval.low).toBeGreaterThan(0.2);
    expect(second!.bursts).toMatchObject({ total: 2, outOfOrder: { count: 2, share: 1 } });
    // A shard with no burst merges with one that has: the figures are those of the one.
    expect(mergeReports([a, buildReport(run([record()]))]).bursts).toMatchObject({ total: 1, outOfOrder: 1 });
  });
});
