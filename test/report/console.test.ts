import { describe, expect, it } from 'vitest';
import {
  buildReport,
  escapeHtml,
  renderConsoleSummary,
  renderHtmlReport,
  renderMarkdownSummary,
} from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';
import { unwrapped } from '../helpers/console-text.js';

const report = buildReport(
  run([
    record(),
    failingRecord(),
    record({
      seq: 2,
      scenario: 'slow',
      outcome: 'timeout',
      passed: false,
      syncMs: undefined,
      error: { code: 'DROIDCHECK_ERR_TIMEOUT', message: 'no answer within 10000 ms' },
    }),
  ]),
  { thresholds: ['receiver.orphans == 0'] },
);

describe('renderConsoleSummary --verbose', () => {
  const text = renderConsoleSummary(report, { verbose: true });

  it('lists each scenario with mark, mode, outcome and latency', () => {
    expect(text).toContain('✓ Shop › buys shirts [sync]  answered  120 ms');
    expect(text).toContain('✗ Shop › expects refund [async]  answered  340 ms');
    expect(text).toContain('✗ Shop › slow [sync]  timeout');
  });

  it('shows each failure with path, expected, actual and file:line:col', () => {
    expect(text).toContain('Failures');
    expect(text).toContain('intents includes: intents does not include "refund"');
    expect(text).toContain('expected: "refund"');
    expect(text).toContain('actual:   ["greeting"]');
    expect(text).toContain('at scenarios/shop.yaml:14:7');
    expect(text).toContain('DROIDCHECK_ERR_TIMEOUT: no answer within 10000 ms');
  });

  it('shows outcome counts, the latency table, receiver counts and thresholds', () => {
    expect(text).toContain('answered 2 · timeout 1  (3 of 3 planned requests sent)');
    // The error-payload outcome is named so, not to be read as failed expectations.
    const errorPayload = renderConsoleSummary(
      buildReport(
        run([
          record(),
          record({
            seq: 1,
            outcome: 'failed',
            passed: false,
            error: { code: 'DROIDCHECK_ERR_ANSWER', message: 'error payload' },
          }),
        ]),
      ),
    );
    expect(errorPayload).toContain('answered 1 · failed (error payload) 1  (2 of 2 planned requests sent)');
    expect(text).toMatch(/metric\s+count\s+p50\s+p90\s+p99\s+p99\.9\s+max\s+limit/);
    // Units on every figure; percentiles one sample cannot support are a dash, not the max again.
    expect(text).toMatch(/ack\s+1\s+—\s+—\s+—\s+—\s+12 ms\s+100 ms\s+too few samples/);
    expect(text).toMatch(/sync\s+1\s+—.*120 ms\s+180 s\s+ok/);
    expect(text).toContain('— fewer samples than the percentile needs');
    expect(text).toContain('received 1 · matched 1 · duplicates 0 · late 0 · orphans 0');
    expect(text).toContain('✓ receiver.orphans == 0 (actual 0)');
    expect(text).toContain('– ack.p99 < 100 ms: too few samples (1 < 100)');
    expect(text).toContain('✓ answer.max < 180 s (actual 340 ms, 1 sample)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 2 failed (3 requests) · exit 1');
  });

  it('marks a breached limit and colours only when asked', () => {
    const slow = buildReport(run(Array.from({ length: 100 }, (_, i) => failingRecord({ seq: i, ackMs: 400 }))), {
      thresholds: ['ack.max < 100ms'],
    });
    const plain = renderConsoleSummary(slow, { verbose: true });
    expect(plain).toMatch(/ack\s+100\s.*BREACH/);
    expect(plain).toContain('✗ ack.max < 100 ms (actual 400 ms, 100 samples)');
    // An empty metric says so, never "0.0 ... ok".
    expect(plain).toMatch(/sync\s+0\s+no samples\s+180 s$/m);
    expect(plain).toContain('2 thresholds breached');
    expect(plain).not.toContain('\u001b[');
    // By default the empty metric is left out: its count says nothing the others' do not.
    expect(renderConsoleSummary(slow)).not.toMatch(/^\s+sync\s/m);
    const colored = renderConsoleSummary(slow, { color: true });
    expect(colored).toContain('\u001b[31mBREACH\u001b[0m');
  });

  it('cuts the scenario list but not the failures', () => {
    const many = buildReport(run(Array.from({ length: 5 }, (_, i) => record({ seq: i, scenario: `s${i}` }))));
    const out = renderConsoleSummary(many, { maxScenarioLines: 2, verbose: true });
    expect(out).toContain('… 3 more');
    expect(out).not.toContain('s4 [sync]');
    const suites = buildReport(run(Array.from({ length: 5 }, (_, i) => record({ seq: i, suite: `suite ${i}` }))));
    const brief = renderConsoleSummary(suites, { maxScenarioLines: 2 });
    expect(brief).toContain('  … 3 more suites');
    expect(brief).not.toContain('suite 2');
  });
});

describe('renderConsoleSummary failures, grouped like report.html', () => {
  const refused = (seq: number) =>
    record({
      seq,
      scenario: `scenario ${seq % 4}`,
      passed: false,
      outcome: 'transport-error',
      syncMs: undefined,
      requestId: `tpa-${seq}x`,
      error: { code: 'DROIDCHECK_ERR_TRANSPORT', message: `connect ECONNREFUSED 127.0.0.1:${9000 + seq}` },
    });
  const records = [
    ...Array.from({ length: 9 }, (_, i) => refused(i)),
    failingRecord({ seq: 9 }),
    record({ seq: 10, scenario: 'later', outcome: 'not-sent', passed: false, syncMs: undefined }),
  ];
  const text = unwrapped(renderConsoleSummary(buildReport(run(records))));

  it('prints one block per group, largest first, with its count and the other entries by name', () => {
    const blocks = text
      .slice(text.indexOf('Failures'))
      .split(/\n\s+\d\) /)
      .slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(
      /^Shop › scenario 0 \[sync\] {2}×9 {2}transport-error {2}requestId tpa-0x\n {5}DROIDCHECK_ERR_TRANSPORT: connect ECONNREFUSED 127\.0\.0\.1:9000\n/,
    );
    expect(blocks[0]).toContain(
      'the same failure: Shop › scenario 1 [sync] tpa-1x, Shop › scenario 2 [sync] tpa-2x, Shop › scenario 3 [sync] tpa-3x, Shop › scenario 0 [sync] tpa-4x, Shop › scenario 1 [sync] tpa-5x … and 3 more',
    );
    expect(blocks[1]).toMatch(/^Shop › expects refund \[async\] {2}answered {2}requestId tpa-123/);
    expect(blocks[1]).not.toContain('×');
  });

  it('counts requests never sent apart: they are not failures', () => {
    expect(text).toContain('1 request was never sent (interrupted); it is not a failure.');
    expect(text).not.toMatch(/\d\) Shop › later/);
  });
});

describe('notes on unverified shapes', () => {
  // The target's whole answer, as the contract check describes it: long, and only for report.json.
  const shape = `{"channels":[${Array.from({ length: 40 }, (_, i) => `{"id":${i},"name":"ch${i}","kind":"line"}`).join(',')}]}`;
  const report = buildReport(
    run([record()], {
      notes: [
        {
          endpoint: 'channels',
          kind: 'unverified-shape',
          message: `unverified shape: channels answered ${shape}; droidcheck's choice differs at channels: expected an array; channels.0.id: expected a string (+3 more). The spec does not show this shape: not a finding.`,
          paths: ['channels', 'channels.0.id', 'channels.0.name', 'channels.1.id', 'channels.1.name'],
        },
        {
          endpoint: 'customer',
          kind: 'unknown-fields',
          message: 'fields no documentation names: tier, score',
          paths: ['tier', 'score'],
        },
      ],
    }),
  );
  const line =
    "unverified shape: droidcheck's choice differs at channels, channels.0.id, channels.0.name (+2 more); the spec does not show this shape (not a finding; the shape is in report.json)";

  it('are one line each in the console (wrapped at 100 columns), Markdown and HTML; the shape only in report.json', () => {
    const console = unwrapped(renderConsoleSummary(report));
    const md = renderMarkdownSummary(report);
    const html = renderHtmlReport(report);
    expect(console).toContain(`  channels ${line}`);
    expect(console).toContain('  customer fields no documentation names: tier, score');
    expect(md).toContain(`\`channels\` ${line}`);
    expect(html).toContain(`<code>channels</code> ${escapeHtml(line)}`);
    for (const text of [console, md, html]) expect(text).not.toContain('"ch39"');
    expect(JSON.stringify(report)).toContain('ch39');
  });
});
