import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { buildReport, compareReports, mergeReports, parseReportDocument, renderComparison } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { failingRecord, record, run } from './fixtures.js';

const syncs = (from: number, to: number, over: Partial<RequestRecord> = {}): RequestRecord[] =>
  Array.from({ length: to - from + 1 }, (_, i) => record({ seq: i, scenario: `s${from + i}`, syncMs: from + i, ...over }));

describe('mergeReports', () => {
  const a = buildReport(run(syncs(1, 500)), { thresholds: ['sync.p50 < 300ms'] });
  const b = buildReport(
    run([...syncs(501, 1000), failingRecord()], { startedAt: '2025-01-01T00:00:01.000Z', finishedAt: '2025-01-01T00:00:05.000Z', receiver: { received: 2, matched: 1, duplicates: 1, late: 0, orphans: 0, foreign: 0, badSecret: 0, malformed: 0, published: 0, unavailable: 0 } }),
  );
  const merged = mergeReports([a, b]);

  it('adds histograms: percentiles of the union, not averages', () => {
    expect(merged.latency.sync.count).toBe(1000);
    expect(Math.abs(merged.latency.sync.p50 - 500) / 500).toBeLessThan(0.002);
    expect(merged.latency.sync.max).toBeGreaterThanOrEqual(1000);
    expect(LatencyRecorder.fromEncoded(merged.histograms).count('sync')).toBe(1000);
    expect(merged.latency.ack.count).toBe(1);
  });

  it('sums outcomes and receiver counts, concatenates scenarios, spans the wall time', () => {
    expect(merged.summary).toMatchObject({ requests: 1001, scenarios: 1001, passed: 1000, failed: 1 });
    expect(merged.summary.outcomes.answered).toBe(1001);
    expect(merged.receiver).toMatchObject({ received: 3, matched: 2, duplicates: 1 });
    expect(merged.scenarios).toHaveLength(1001);
    expect(merged).toMatchObject({ startedAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:00:05.000Z', durationMs: 5000 });
    expect(merged.settings.mergedReports).toBe(2);
    expect(() => parseReportDocument(merged)).not.toThrow();
  });

  it('judges the thresholds again on merged figures', () => {
    expect(a.thresholds.find((t) => t.expression === 'sync.p50 < 300ms')!.passed).toBe(true);
    const t = merged.thresholds.find((x) => x.expression === 'sync.p50 < 300ms')!;
    expect(t.passed).toBe(false);
    expect(merged.thresholds.filter((x) => x.expression === 'sync.max < 180s')).toHaveLength(1);
    expect(merged.exitCode).toBe(99);
    expect(mergeReports([a], { thresholds: ['receiver.late == 0'] }).thresholds.map((x) => x.expression)).toContain('receiver.late == 0');
  });

  it('keeps 130 when an input was interrupted; needs at least one report', () => {
    const cut = buildReport(run([record({ outcome: 'interrupted', passed: false })], { interrupted: true }));
    expect(mergeReports([a, cut]).exitCode).toBe(130);
    expect(() => mergeReports([])).toThrow(UsageError);
  });
});

describe('compareReports', () => {
  const base = buildReport(run([record(), failingRecord(), record({ seq: 2, scenario: 'gone' })]));

  it('finds no regression against itself', () => {
    const cmp = compareReports(base, base);
    expect(cmp.regressed).toBe(false);
    expect(cmp.latency.every((l) => l.changePct === 0)).toBe(true);
    expect(renderComparison(cmp)).toContain('no regression');
  });

  it('reports pass->fail and fail->pass flips, added and removed scenarios', () => {
    const current = buildReport(
      run([
        record({ passed: false, failures: failingRecord().failures }),
        failingRecord({ passed: true, failures: [] }),
        record({ seq: 3, scenario: 'new one' }),
      ]),
    );
    const cmp = compareReports(base, current);
    expect(cmp.regressions).toEqual([{ suite: 'Shop', name: 'buys shirts', mode: 'sync', from: 'pass', to: 'fail' }]);
    expect(cmp.fixed).toEqual([{ suite: 'Shop', name: 'expects refund', mode: 'async', from: 'fail', to: 'pass' }]);
    expect(cmp.added.map((x) => x.name)).toEqual(['new one']);
    expect(cmp.removed.map((x) => x.name)).toEqual(['gone']);
    expect(cmp.regressed).toBe(true);
    expect(renderComparison(cmp)).toContain('✗ Shop › buys shirts [sync]: pass -> fail');
  });

  it('flags percentile regressions beyond the tolerance only', () => {
    const slower = buildReport(run([record({ syncMs: 130 }), failingRecord(), record({ seq: 2, scenario: 'gone' })]));
    expect(compareReports(base, slower, { tolerancePct: 10 }).regressed).toBe(false); // +8%
    const cmp = compareReports(base, slower, { tolerancePct: 5 });
    expect(cmp.regressed).toBe(true);
    expect(cmp.latency.find((l) => l.metric === 'sync' && l.stat === 'p99')).toMatchObject({ regressed: true });
    expect(compareReports(slower, base, { tolerancePct: 5 }).regressed).toBe(false);
  });

  it('flags outcome rate changes and thresholds turning red', () => {
    const worse = buildReport(run([record(), failingRecord({ outcome: 'timeout' }), record({ seq: 2, scenario: 'gone' })]), { thresholds: ['outcome.timeout.count == 0'] });
    const cmp = compareReports(base, worse);
    expect(cmp.outcomes.find((o) => o.outcome === 'timeout')).toMatchObject({ currentRate: 1 / 3, regressed: true, changePts: 33.3 });
    expect(cmp.outcomes.find((o) => o.outcome === 'answered')!.regressed).toBe(true);
    expect(cmp.thresholds).toContainEqual({ expression: 'outcome.timeout.count == 0', base: undefined, current: false });
    expect(cmp.regressed).toBe(true);
  });
});
