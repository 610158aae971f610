/**
 * Latency thresholds are not judged on figures droidcheck does not trust (thresholds-trust.ts):
 * which thresholds, the reason each run's figures give, how it reads, and the exit code's
 * precedence (98 after 130, 99 and 1).
 */
import { describe, expect, it } from 'vitest';
import {
  LatencyRecorder,
  describeThreshold,
  distrustOf,
  evaluateThresholds,
  notJudgedSummary,
  perLatencyMetric,
  type ThresholdData,
} from '../../src/metrics/index.js';
import { buildReport } from '../../src/report/index.js';
import type { LoadSection } from '../../src/report/sections/load.js';
import { failingRecord, record, run } from '../report/fixtures.js';

type Load = NonNullable<ThresholdData['load']>;

/** A load's figures: `sendDelayMs` at p99 and max of `samples` send delays, judged against 10 ms. */
function loadOf(sendDelayMs: number, samples = 200): Load {
  return {
    sent: samples,
    dropped: 0,
    sendDelay: { count: samples, p99: sendDelayMs, max: sendDelayMs },
    generator: { generatorBound: sendDelayMs > 10, limitMs: 10 },
  };
}

/** 200 acks of 50 ms and 200 answers of 2 s, 200 requests of which 4 timed out. */
function figures(load?: Load): ThresholdData {
  const rec = new LatencyRecorder();
  for (let i = 0; i < 200; i++) {
    rec.recordMs('ack', 50);
    rec.recordMs('answer', 2000);
  }
  return {
    summary: { requests: 200, outcomes: { answered: 196, timeout: 4 }, passRate: 0.98 },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    histograms: rec.encodeAll(),
    ...(load && { load }),
  };
}

const USER = ['ack.p99 < 10ms', 'answer.p(99.9) < 1s', 'ack.count >= 100', 'outcome.timeout.rate < 1%'];

describe('a generator-bound run', () => {
  it('leaves every latency threshold with enough samples not judged, and judges rates and counts', () => {
    const results = evaluateThresholds(USER, figures(loadOf(45.2)));
    expect(results.map((r) => [r.expression, r.status, r.passed])).toEqual([
      ['ack.p99 < 10ms', 'not-judged', true],
      // Too few samples is said first: it would not have been judged on trusted figures either.
      ['answer.p(99.9) < 1s', 'too-few-samples', true],
      ['ack.count >= 100', 'passed', true],
      ['outcome.timeout.rate < 1%', 'breached', false],
    ]);
    expect(results[0]!.actual).toBeCloseTo(50, 0); // as measured
    expect(results[0]).toMatchObject({
      notJudged: [{ condition: 'generator-bound', reason: 'send delay p99 45.2 ms > 10 ms' }],
    });
    expect(describeThreshold(results[0]!)).toBe(
      '– ack.p99 < 10 ms: not judged: generator-bound, send delay p99 45.2 ms > 10 ms (actual 50 ms, 200 samples)',
    );
    expect(results[1]).not.toHaveProperty('notJudged');
    expect(notJudgedSummary(results)).toBe('1 threshold not judged: generator-bound');
  });

  it('judges the same thresholds on trusted figures: a closed model, or a generator that kept up', () => {
    for (const d of [figures(), figures(loadOf(4))]) {
      const results = evaluateThresholds(USER, d);
      expect(results.map((r) => r.status)).toEqual(['breached', 'too-few-samples', 'passed', 'breached']);
      expect(notJudgedSummary(results)).toBeUndefined();
    }
  });

  it('gives the figure the verdict was judged on: p99 from 100 samples, else the max; a shard for a merge', () => {
    expect(distrustOf({ load: loadOf(4) })).toEqual([]);
    expect(distrustOf({})).toEqual([]);
    expect(distrustOf({ load: loadOf(45.2, 100) })[0]!.reason).toBe('send delay p99 45.2 ms > 10 ms');
    expect(distrustOf({ load: loadOf(45.2, 20) })[0]!.reason).toBe(
      'send delay max 45.2 ms > 10 ms (20 samples, too few for a p99)',
    );
    // Merged shards: one shard bound, the pooled p99 within the limit.
    const merged = { ...loadOf(45.2), sendDelay: { count: 400, p99: 8, max: 60 } };
    expect(distrustOf({ load: merged })[0]!.reason).toBe('send delay above 10 ms on some shard');
  });
});

describe('the exit code of a run whose latency figures are not trusted', () => {
  const bound = (): LoadSection => ({
    model: 'open',
    sent: 2,
    warmupSent: 0,
    dropped: 0,
    measuredMs: 1000,
    achievedRate: 2,
    answeredRate: 2,
    sendDelay: { count: 2, p50: 40, p90: 45, p99: 45, p999: 45, max: 45, mean: 42, histogram: '' },
    generator: { generatorBound: true, p99Ms: 45, limitMs: 10, message: 'generator-bound: ...' },
  });
  const latencyBreach = ['sync.max < 50ms'];

  it('is 98 when a latency threshold was not judged and nothing else failed (99 when trusted)', () => {
    const trusted = buildReport(run([record()], { kind: 'load' }), { thresholds: latencyBreach });
    expect(trusted.exitCode).toBe(99);
    const report = buildReport(run([record()], { kind: 'load', load: bound() }), { thresholds: latencyBreach });
    expect(report.thresholds.find((t) => t.expression === 'sync.max < 50ms')!.status).toBe('not-judged');
    expect(report.exitCode).toBe(98);
  });

  it('lets 130, 99 (a rate or count breached) and 1 (an expectation failed) win over 98', () => {
    const input = (records = [record()], over = {}) => run(records, { kind: 'load', load: bound(), ...over });
    expect(buildReport(input(), { thresholds: [...latencyBreach, 'outcome.answered.count > 5'] }).exitCode).toBe(99);
    expect(buildReport(input([record(), failingRecord()]), { thresholds: latencyBreach }).exitCode).toBe(1);
    expect(buildReport(input([record()], { interrupted: true }), { thresholds: latencyBreach }).exitCode).toBe(130);
    // No latency threshold judged on the figures (none with samples): nothing withheld, exit 0.
    expect(buildReport(input([record({ syncMs: undefined, mode: 'async', ackMs: 3 })])).exitCode).toBe(0);
  });
});
