import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { LatencyRecorder, generatorVerdict } from '../../src/metrics/index.js';
import {
  buildReport,
  compareReports,
  mergeReports,
  parseReportDocument,
  renderComparison,
} from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { mulberry32 } from '../../src/random.js';
import { SendDelayRecorder } from '../../src/runner/index.js';
import { failingRecord, latencyRun, logNormal, record, run } from './fixtures.js';

const syncs = (from: number, to: number, over: Partial<RequestRecord> = {}): RequestRecord[] =>
  Array.from({ length: to - from + 1 }, (_, i) =>
    record({ seq: i, scenario: `s${from + i}`, syncMs: from + i, ...over }),
  );

describe('mergeReports', () => {
  const a = buildReport(run(syncs(1, 500)), { thresholds: ['sync.p50 < 300ms'] });
  const b = buildReport(
    run([...syncs(501, 1000), failingRecord()], {
      startedAt: '2025-01-01T00:00:01.000Z',
      finishedAt: '2025-01-01T00:00:05.000Z',
      receiver: {
        received: 2,
        matched: 1,
        duplicates: 1,
        late: 0,
        orphans: 0,
        foreign: 0,
        badSecret: 0,
        malformed: 0,
        published: 0,
        unavailable: 0,
      },
    }),
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
    expect(merged).toMatchObject({
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:00:05.000Z',
      durationMs: 5000,
    });
    expect(merged.settings.mergedReports).toBe(2);
    expect(() => parseReportDocument(merged)).not.toThrow();
  });

  it('judges the thresholds again on merged figures', () => {
    expect(a.thresholds.find((t) => t.expression === 'sync.p50 < 300ms')!.passed).toBe(true);
    const t = merged.thresholds.find((x) => x.expression === 'sync.p50 < 300ms')!;
    expect(t.passed).toBe(false);
    expect(merged.thresholds.filter((x) => x.expression === 'sync.max < 180s')).toHaveLength(1);
    expect(merged.exitCode).toBe(99);
    expect(mergeReports([a], { thresholds: ['receiver.late == 0'] }).thresholds.map((x) => x.expression)).toContain(
      'receiver.late == 0',
    );
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

  it('reads the flips first: before the latency rows, of which those with too few samples are only counted', () => {
    const current = buildReport(run([record({ passed: false, failures: failingRecord().failures }), failingRecord()]));
    const text = renderComparison(compareReports(base, current));
    const flip = text.indexOf('✗ Shop › buys shirts [sync]: pass -> fail');
    expect(flip).toBeGreaterThan(0);
    expect(flip).toBeLessThan(text.indexOf('latency'));
    // 3 samples per metric support no comparison: the rows are counted, not listed.
    expect(text).toMatch(/\d+ latency row\(s\) with too few samples not shown \(report\.json has them\)/);
    expect(text).not.toMatch(/too few samples \(\d+ < \d+\)/);
    expect(text.split('\n').every((l) => l.length <= 100)).toBe(true);
  });

  it('never calls twenty pairs of runs of one distribution a regression, at 16 and at 500 samples', () => {
    for (const n of [16, 500]) {
      for (let pair = 0; pair < 20; pair++) {
        const cmp = compareReports(
          buildReport(latencyRun(100 + 2 * pair, n)),
          buildReport(latencyRun(101 + 2 * pair, n)),
        );
        const why = cmp.latency
          .filter((l) => l.regressed)
          .map((l) => `${l.metric}.${l.stat} ${l.baseMs} -> ${l.currentMs} ms`);
        expect(cmp.regressed, `n ${n}, pair ${pair}: ${why.join(', ')}`).toBe(false);
      }
    }
  });

  it('says which rule decided every latency row', () => {
    // Quick-start sized runs (16 samples per metric) are never compared on latency: a run needs 100.
    const small = compareReports(buildReport(latencyRun(7, 16)), buildReport(latencyRun(8, 16)));
    expect(small.latency.every((l) => l.rule === 'too-few-samples' && l.minCount >= 100)).toBe(true);
    expect(renderComparison(small, { everyRow: true })).toMatch(/answer\.p50 .*16\/16\s+too few samples \(16 < 100\)/);
    // The console counts them instead.
    expect(renderComparison(small)).toContain('12 latency row(s) with too few samples not shown');
    const cmp = compareReports(buildReport(latencyRun(7, 200)), buildReport(latencyRun(8, 200)));
    expect(cmp.latency).toHaveLength(12);
    const rule = (metric: string, stat: string) => cmp.latency.find((l) => l.metric === metric && l.stat === stat)!;
    // p99.9 of 200 samples is the max: not compared.
    expect(rule('answer', 'p999')).toMatchObject({
      rule: 'too-few-samples',
      baseCount: 200,
      currentCount: 200,
      minCount: 1000,
      pValue: null,
      regressed: false,
    });
    expect(rule('sync', 'p999')).toMatchObject({ rule: 'too-few-samples', minCount: 1000 });
    // p50 is tested whatever its change (its p-value is shown); a rise past the tolerances that the test cannot tell from noise is "not-significant".
    expect(rule('answer', 'p50').pValue).toEqual(expect.any(Number));
    for (const l of cmp.latency.filter((x) => x.rule !== 'too-few-samples')) {
      const beyond = l.changePct > 10 && l.deltaMs >= 1;
      expect(l.rule).toBe(beyond ? 'not-significant' : 'within-tolerance');
    }
    const text = renderComparison(cmp, { everyRow: true });
    expect(text).toContain('no regression against the baseline');
    // As in the summary's latency table: no p99.9 from 200 samples, so no figure and no change, only the rule.
    expect(text).toMatch(/answer\.p999\s+—\s+—\s+—\s+200\/200\s+too few samples \(200 < 1000\)/);
    expect(text).toMatch(/answer\.p50 .*200\/200\s+(within tolerance|not significant \(p [\d.]+ > 0\.\d+\))$/m);
  });

  it('finds a real 2x slowdown on 500 samples, and the rule and figures that fired', () => {
    const base = buildReport(latencyRun(21, 500));
    const slower = buildReport(latencyRun(22, 500, 2));
    const cmp = compareReports(base, slower);
    expect(cmp.regressed).toBe(true);
    const p50 = cmp.latency.find((l) => l.metric === 'answer' && l.stat === 'p50')!;
    expect(p50).toMatchObject({ rule: 'regressed', regressed: true, baseCount: 500, currentCount: 500 });
    expect(p50.pValue!).toBeLessThan(1e-6);
    expect(p50.changePct).toBeGreaterThan(60);
    expect(cmp.latency.find((l) => l.metric === 'answer' && l.stat === 'p999')).toMatchObject({
      rule: 'too-few-samples',
      regressed: false,
    });
    expect(renderComparison(cmp)).toMatch(
      /✗ answer\.p50\s+[\d.]+ ms\s+[\d.]+ ms\s+\+\d+(\.\d)?% \(\+[\d.]+ ms\)\s+500\/500\s+REGRESSED \(p < 0\.0001 <= 0\.\d+\)/,
    );
    // Faster is never a regression.
    expect(compareReports(slower, base).regressed).toBe(false);
  });

  it('of generator-bound runs, leaves not judged only the rows whose change the send delays could explain', () => {
    const delays = new SendDelayRecorder();
    for (let i = 0; i < 500; i++) delays.recordMs(i % 20 === 0 ? 12 : 0.5); // p99 12 ms: bound
    const summary = delays.summary();
    const load = {
      model: 'open' as const,
      sent: 500,
      warmupSent: 0,
      dropped: 0,
      measuredMs: 10_000,
      achievedRate: 50,
      answeredRate: 50,
      sendDelay: { ...summary, histogram: delays.encode() },
      generator: generatorVerdict(summary),
    };
    const cmp = compareReports(
      buildReport({ ...latencyRun(21, 500), kind: 'load', load }),
      buildReport({ ...latencyRun(22, 500, 2), kind: 'load', load }),
    );
    // answer p50 35 -> 70 ms: 35 ms of growth, beyond what two 12 ms send delays could add.
    expect(cmp.latency.find((l) => l.metric === 'answer' && l.stat === 'p50')).toMatchObject({ rule: 'regressed' });
    // ack p50 2 -> 4 ms: within them.
    expect(cmp.latency.find((l) => l.metric === 'ack' && l.stat === 'p50')).toMatchObject({ rule: 'not-judged' });
    expect(cmp.latencyNotJudged!.current[0]).toMatchObject({ condition: 'generator-bound', offByMs: summary.p99 });
    expect(cmp.regressed).toBe(true);
  });

  it('needs the relative and the absolute tolerance together', () => {
    const base = buildReport(latencyRun(31, 500));
    // +4%: within the 10% tolerance whatever the test says.
    const bit = compareReports(base, buildReport(latencyRun(31, 500, 1.04)));
    expect(bit.regressed).toBe(false);
    expect(bit.latency.filter((l) => l.rule !== 'too-few-samples').every((l) => l.rule === 'within-tolerance')).toBe(
      true,
    );
    // 2x on ack (~2 ms -> ~4 ms) is beyond both; with a 5 ms floor it is within tolerance.
    const doubled = buildReport(latencyRun(31, 500, 2));
    expect(compareReports(base, doubled).latency.find((l) => l.metric === 'ack' && l.stat === 'p50')!.regressed).toBe(
      true,
    );
    expect(
      compareReports(base, doubled, { minDeltaMs: 5 }).latency.find((l) => l.metric === 'ack' && l.stat === 'p50'),
    ).toMatchObject({ rule: 'within-tolerance', regressed: false });
  });

  it('needs a test for outcome rates: one timeout in 35 is noise, 20 in 200 is not', () => {
    const runOf = (n: number, timeouts: number) =>
      buildReport(
        run(
          Array.from({ length: n }, (_, i) =>
            i < timeouts
              ? record({ seq: i, scenario: `s${i}`, outcome: 'timeout', passed: false, syncMs: undefined })
              : record({ seq: i, scenario: `s${i}` }),
          ),
        ),
      );
    const one = compareReports(runOf(35, 0), runOf(35, 1));
    expect(one.outcomes.find((o) => o.outcome === 'timeout')).toMatchObject({
      baseCount: 0,
      currentCount: 1,
      currentRequests: 35,
      rule: 'not-significant',
      regressed: false,
    });
    expect(one.outcomes.find((o) => o.outcome === 'answered')).toMatchObject({
      rule: 'not-significant',
      regressed: false,
    });
    expect(one.regressed).toBe(true); // the scenario that timed out flipped pass -> fail
    expect(one.regressions).toHaveLength(1);
    const many = compareReports(runOf(200, 0), runOf(200, 20));
    expect(many.outcomes.find((o) => o.outcome === 'timeout')).toMatchObject({
      rule: 'regressed',
      regressed: true,
      changePts: 10,
    });
    expect(renderComparison(many)).toMatch(
      /✗\s+timeout\s+0% \(0 of 200\)\s+10% \(20 of 200\)\s+\+10 pts\s+REGRESSED \(p [<\d. ]+<= [\d.]+\)/,
    );
  });

  it('compares each conversation turn in both reports, and finds the one turn that slowed down', () => {
    // Five turns of 300 conversations; the current run's third turn answers 2x slower, the rest alike.
    const withTurns = (seed: number, slowTurn3: number) => {
      const input = latencyRun(seed, 300);
      const random = mulberry32(seed + 1000);
      for (let i = 0; i < 300; i++)
        for (let turn = 1; turn <= 5; turn++)
          input.latency.recordTurnMs(
            turn,
            'answer',
            logNormal(random, 40 + 10 * turn, 0.3) * (turn === 3 ? slowTurn3 : 1),
          );
      if (seed === 52) input.latency.recordTurnMs(6, 'answer', 80); // a turn in one report only: nothing to compare
      return buildReport(input);
    };
    const base = withTurns(51, 1);
    const current = withTurns(52, 2);
    const cmp = compareReports(base, current);
    const turnRows = cmp.latency.filter((l) => l.turn !== undefined);
    expect(new Set(turnRows.map((l) => l.turn))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(turnRows.filter((l) => l.regressed).map((l) => `turn${l.turn}.${l.metric}.${l.stat}`)).toEqual(
      expect.arrayContaining(['turn3.answer.p50', 'turn3.answer.p90']),
    );
    expect(turnRows.filter((l) => l.regressed).every((l) => l.turn === 3)).toBe(true);
    expect(cmp.latency.filter((l) => l.turn === undefined && l.metric === 'answer').some((l) => l.regressed)).toBe(
      false,
    );
    expect(cmp.regressed).toBe(true);
    expect(renderComparison(cmp)).toMatch(/✗\s+turn3\.answer\.p50\s+[\d.]+ ms\s+[\d.]+ ms\s+\+\d+(\.\d)?% .*REGRESSED/);
    // The same run against itself, turns included: nothing regressed; a report without turns compares as before.
    expect(compareReports(base, base).regressed).toBe(false);
    expect(compareReports(buildReport(latencyRun(51, 300)), base).latency.some((l) => l.turn !== undefined)).toBe(
      false,
    );
  });

  it('flags thresholds turning red', () => {
    const worse = buildReport(
      run([record(), failingRecord({ outcome: 'timeout' }), record({ seq: 2, scenario: 'gone' })]),
      { thresholds: ['outcome.timeout.count == 0'] },
    );
    const cmp = compareReports(base, worse);
    expect(cmp.thresholds).toContainEqual({
      expression: 'outcome.timeout.count == 0',
      current: false,
      currentStatus: 'breached',
    });
    expect(cmp.regressed).toBe(true);
    expect(renderComparison(cmp)).toContain('✗ threshold outcome.timeout.count == 0: absent -> breached');
  });
});
