import { describe, expect, it } from 'vitest';
import { buildReport, renderConsoleSummary } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

const report = buildReport(
  run([record(), failingRecord(), record({ seq: 2, scenario: 'slow', outcome: 'timeout', passed: false, syncMs: undefined, error: { code: 'DROIDCHECK_ERR_TIMEOUT', message: 'no answer within 10000 ms' } })]),
  { thresholds: ['receiver.orphans == 0'] },
);

describe('renderConsoleSummary', () => {
  const text = renderConsoleSummary(report);

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
    expect(text).toContain('answered 2 · failed 0 · timeout 1  (3 of 3 planned requests sent)');
    expect(text).toMatch(/metric\s+count\s+p50\s+p90\s+p99\s+p99\.9\s+max\s+limit/);
    expect(text).toMatch(/ack\s+1\s+12\.0\s+12\.0\s+12\.0\s+12\.0\s+12\.0\s+100\.0\s+ok/);
    expect(text).toMatch(/sync\s+1\s+120\.\d\s.*180000\.0\s+ok/);
    expect(text).toContain('duplicates 0 · late 0 · orphans 0');
    expect(text).toContain('✓ receiver.orphans == 0  (actual 0)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 2 failed (3 requests) · exit 1');
  });

  it('marks a breached limit and colours only when asked', () => {
    const slow = buildReport(run([failingRecord({ ackMs: 400 })]));
    const plain = renderConsoleSummary(slow);
    expect(plain).toMatch(/ack\s+1\s.*BREACH/);
    expect(plain).toContain('✗ ack.p99 < 100ms');
    expect(plain).toContain('1 threshold breached');
    expect(plain).not.toContain('\u001b[');
    const colored = renderConsoleSummary(slow, { color: true });
    expect(colored).toContain('\u001b[31mBREACH\u001b[0m');
  });

  it('cuts the scenario list but not the failures', () => {
    const many = buildReport(run(Array.from({ length: 5 }, (_, i) => record({ seq: i, scenario: `s${i}` }))));
    const out = renderConsoleSummary(many, { maxScenarioLines: 2 });
    expect(out).toContain('… 3 more');
    expect(out).not.toContain('s4 [sync]');
  });
});
