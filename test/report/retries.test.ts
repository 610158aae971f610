/**
 * Submit retries (`--retries`) in the report: `summary.retries` (total, 0 when none), `retries`
 * on a scenario entry when > 0, shown in the console, Markdown and HTML, summed by mergeReports.
 */
import { describe, expect, it } from 'vitest';
import {
  buildReport,
  mergeReports,
  parseReportDocument,
  renderConsoleSummary,
  renderHtmlReport,
  renderMarkdownSummary,
} from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

const retried = buildReport(
  run([record({ retries: 2 }), failingRecord({ retries: 1 }), record({ seq: 2, scenario: 'calm', retries: 0 })]),
);
const calm = buildReport(run([record(), failingRecord()]));

describe('retries in the report', () => {
  it('sums record.retries into summary.retries and puts it on retried entries only', () => {
    expect(retried.summary.retries).toBe(3);
    expect(retried.scenarios.map((s) => s.retries)).toEqual([2, 1, undefined]);
    expect('retries' in retried.scenarios[2]!).toBe(false);
    expect(calm.summary.retries).toBe(0);
    expect(calm.scenarios.every((s) => !('retries' in s))).toBe(true);
  });

  it('fits the schema', () => {
    expect(parseReportDocument(JSON.parse(JSON.stringify(retried))).summary.retries).toBe(3);
    expect(() => parseReportDocument({ ...retried, scenarios: [{ ...retried.scenarios[0], retries: 0 }] })).toThrow(
      /retries/,
    );
  });

  it('shows retries on the outcomes line and the scenario (or suite) lines of the console, only when > 0', () => {
    expect(renderConsoleSummary(retried)).toMatch(/✗ Shop {2}2 passed, 1 failed, retries 3 {2}\(sync 2, async 1\)/);
    const text = renderConsoleSummary(retried, { verbose: true });
    expect(text).toContain('✓ Shop › buys shirts [sync]  answered  120 ms  retries 2');
    expect(text).toContain('✗ Shop › expects refund [async]  answered  340 ms  retries 1');
    expect(text).toMatch(/✓ Shop › calm \[sync\] {2}answered {2}120 ms\n/);
    expect(text).toContain(' · retries 3  (3 of 3 planned requests sent)');
    const none = renderConsoleSummary(calm);
    expect(none).not.toContain('retries');
    expect(none).toMatch(/answered \d+ {2}\(2 of 2 planned requests sent\)/);
  });

  it('shows the total in Markdown and HTML', () => {
    expect(renderMarkdownSummary(retried)).toContain('; 3 submit retries.');
    expect(renderMarkdownSummary(calm)).toContain('; 0 submit retries.');
    // The outcomes line is the same view in every format.
    expect(renderHtmlReport(retried)).toContain(
      'answered 3 · <span class="warn">retries 3</span>  (3 of 3 planned requests sent)',
    );
    expect(renderMarkdownSummary(retried)).toContain(
      '### Outcomes: answered 3 · retries 3  (3 of 3 planned requests sent)',
    );
    expect(renderHtmlReport(calm)).not.toContain('retries 0');
  });

  it('mergeReports sums the totals and keeps the entries', () => {
    const merged = mergeReports([retried, calm, retried]);
    expect(merged.summary.retries).toBe(6);
    expect(merged.scenarios.filter((s) => s.retries !== undefined)).toHaveLength(4);
    expect(mergeReports([calm]).summary.retries).toBe(0);
  });
});
