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
  generatorVerdict,
  notJudgedSummary,
  perLatencyMetric,
  type ThresholdData,
} from '../../src/metrics/index.js';
import { buildReport, mergeReports } from '../../src/report/index.js';
import type { LoadSection } from '../../src/report/sections/load.js';
import { SendDelayRecorder } from '../../src/runner/index.js';
import { failingRecord, record, run } from '../report/fixtures.js';

type Load = NonNullable<ThresholdData['load']>;

/**
 * A load's figures: `samples` send delays whose p50, p90 and p99 are `sendDelayMs` (so the rule
 * reads it whatever percentile the count supports) and whose max is `maxMs`.
 */
function loadOf(sendDelayMs: number, samples = 200, maxMs = sendDelayMs): Load {
  return {
    sent: samples,
    dropped: 0,
    sendDelay: { count: samples, p50: sendDelayMs, p90: sendDelayMs, p99: sendDelayMs, max: maxMs },
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
const BOUND = 'send delay p99 45.2 ms > 10 ms, figures up to 45.2 ms too high';

describe('a generator-bound run', () => {
  it('leaves a latency threshold within the send delay of its limit not judged, and judges rates and counts', () => {
    const results = evaluateThresholds(USER, figures(loadOf(45.2)));
    expect(results.map((r) => [r.expression, r.status, r.passed])).toEqual([
      // 50 ms against 10 ms: a send delay of 45.2 ms could be the whole difference.
      ['ack.p99 < 10ms', 'not-judged', true],
      // Too few samples is said first: it would not have been judged on trusted figures either.
      ['answer.p(99.9) < 1s', 'too-few-samples', true],
      ['ack.count >= 100', 'passed', true],
      ['outcome.timeout.rate < 1%', 'breached', false],
    ]);
    expect(results[0]!.actual).toBeCloseTo(50, 0); // as measured
    expect(results[0]).toMatchObject({
      notJudged: [{ condition: 'generator-bound', reason: BOUND, offByMs: 45.2 }],
    });
    expect(describeThreshold(results[0]!)).toBe(
      `– ack.p99 < 10 ms: not judged: generator-bound, ${BOUND} (actual 50 ms, 200 samples)`,
    );
    expect(results[1]).not.toHaveProperty('notJudged');
    expect(notJudgedSummary(results)).toBe('1 threshold not judged: generator-bound');
  });

  it('judges a latency threshold the send delay cannot move across its limit, either way', () => {
    const results = evaluateThresholds(
      ['ack.p99 < 100ms', 'ack.p99 < 20ms', 'answer.max < 180s', 'answer.p99 < 1s', 'answer.p99 < 1990ms'],
      figures(loadOf(45.2)),
    );
    expect(results.map((r) => [r.expression, r.status])).toEqual([
      ['ack.p99 < 100ms', 'passed'], // 50 ms: 50 ms below, more than 45.2 ms
      ['ack.p99 < 20ms', 'not-judged'], // 30 ms above: within 45.2 ms
      ['answer.max < 180s', 'passed'],
      ['answer.p99 < 1s', 'breached'], // 2 s: a second above
      ['answer.p99 < 1990ms', 'not-judged'], // 10 ms above
    ]);
  });

  it('judges the same thresholds on trusted figures: a closed model, or a generator that kept up', () => {
    for (const d of [figures(), figures(loadOf(4))]) {
      const results = evaluateThresholds(USER, d);
      expect(results.map((r) => r.status)).toEqual(['breached', 'too-few-samples', 'passed', 'breached']);
      expect(notJudgedSummary(results)).toBeUndefined();
    }
  });

  it('reads the highest percentile the send delay supports, never the max of a small sample alone', () => {
    expect(distrustOf({ load: loadOf(4) })).toEqual([]);
    expect(distrustOf({})).toEqual([]);
    expect(distrustOf({ load: loadOf(45.2, 100) })[0]!.reason).toBe(BOUND);
    // 60 samples with one 15.1 ms hiccup (the shard of a light load): p90 0.6 ms, kept up.
    expect(distrustOf({ load: loadOf(0.6, 60, 15.1) })).toEqual([]);
    expect(distrustOf({ load: loadOf(45.2, 20) })[0]!.reason).toBe(
      'send delay p90 45.2 ms > 10 ms, figures up to 45.2 ms too high',
    );
    expect(distrustOf({ load: loadOf(45.2, 5) })[0]!.offByMs).toBe(45.2); // p50 from 2 samples
    expect(distrustOf({ load: loadOf(45.2, 1) })).toEqual([]); // one sample: a max alone
    // A report that kept no send delay: its stored verdict, sized by its p99.
    expect(distrustOf({ load: { generator: { generatorBound: true, p99Ms: 30, limitMs: 10 } } })).toEqual([
      { condition: 'generator-bound', reason: 'send delay above 10 ms', offByMs: 30 },
    ]);
  });

  it('says how much the figures may be off, bound or not', () => {
    const v = generatorVerdict({ count: 60, p50: 0.49, p90: 0.8, p99: 15.1, max: 15.1 });
    expect(v).toMatchObject({ generatorBound: false, offBy: { stat: 'p90', ms: 0.8 } });
    expect(v.message).toBe(
      'send delay p90 0.8 ms <= 10 ms (60 samples, too few for a p99): the generator kept up; latency figures may be up to 0.8 ms too high',
    );
    const bound = generatorVerdict({ count: 500, p50: 9, p90: 20, p99: 45.2, max: 70 });
    expect(bound).toMatchObject({ generatorBound: true, offBy: { stat: 'p99', ms: 45.2 } });
    expect(bound.message).toMatch(/^generator-bound: send delay p99 45\.2 ms > 10 ms: .* up to 45\.2 ms too high/);
    expect(generatorVerdict({ count: 1, p50: 30, p90: 30, p99: 30, max: 30 })).toMatchObject({
      generatorBound: false,
      message: 'send delay of 1 sample: too few to judge the generator',
    });
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
  // A sync answer of 120 ms against 100 ms: within the bound generator's 40 ms send delay.
  const latencyBreach = ['sync.max < 100ms'];

  it('is 98 when a latency threshold was not judged and nothing else failed (99 when trusted or far off)', () => {
    const trusted = buildReport(run([record()], { kind: 'load' }), { thresholds: latencyBreach });
    expect(trusted.exitCode).toBe(99);
    const report = buildReport(run([record()], { kind: 'load', load: bound() }), { thresholds: latencyBreach });
    expect(report.thresholds.find((t) => t.expression === 'sync.max < 100ms')!.status).toBe('not-judged');
    expect(report.exitCode).toBe(98);
    // 120 ms against 50 ms: 70 ms over, more than the send delay could add.
    const far = buildReport(run([record()], { kind: 'load', load: bound() }), { thresholds: ['sync.max < 50ms'] });
    expect(far.thresholds.find((t) => t.expression === 'sync.max < 50ms')!.status).toBe('breached');
    expect(far.exitCode).toBe(99);
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

describe('two shards of a light load (20 req/s, answers in 300 ms) with one hiccup each', () => {
  /** A shard: 60 async requests (ack 2 ms, answer 328 ms), 60 send delays of 0.5 ms but one of `hiccupMs`. */
  function shard(i: number, hiccupMs: number) {
    const delays = new SendDelayRecorder();
    for (let k = 0; k < 60; k++) delays.recordMs(k === 30 ? hiccupMs : 0.49);
    const summary = delays.summary();
    const load: LoadSection = {
      model: 'open',
      sent: 60,
      warmupSent: 0,
      dropped: 0,
      measuredMs: 6000,
      achievedRate: 10,
      answeredRate: 10,
      sendDelay: { ...summary, histogram: delays.encode() },
      generator: generatorVerdict(summary),
      shards: [`${i}/2`],
    };
    const records = Array.from({ length: 60 }, (_, k) =>
      record({ seq: k, mode: 'async', syncMs: undefined, ackMs: 2, answerMs: 328, requestId: `r${i}-${k}` }),
    );
    return buildReport(run(records, { kind: 'load', load }));
  }

  it('exits 0 on each shard and on their merge: a 15 ms hiccup cannot move 328 ms across 180 s', () => {
    const shards = [shard(1, 15.1), shard(2, 12.4)];
    for (const s of shards) {
      expect(s.load!.generator).toMatchObject({ generatorBound: false, offBy: { stat: 'p90' } });
      expect(s.thresholds.map((t) => [t.expression, t.status])).toEqual([
        ['ack.p99 < 100ms', 'too-few-samples'],
        ['answer.max < 180s', 'passed'],
        ['load.dropped.rate < 1%', 'passed'],
      ]);
      expect(s.exitCode).toBe(0);
    }
    const merged = mergeReports(shards);
    // Pooled, the two hiccups are the p99 of 120 samples: bound, and still far from every limit.
    expect(merged.load!.generator).toMatchObject({ generatorBound: true, offBy: { stat: 'p99' } });
    expect(merged.thresholds.every((t) => t.status === 'passed')).toBe(true);
    expect(merged.exitCode).toBe(0);
  });
});
