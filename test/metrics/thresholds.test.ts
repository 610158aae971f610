import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../src/errors.js';
import {
  perLatencyMetric,
  DEFAULT_THRESHOLDS,
  LatencyRecorder,
  describeThreshold,
  evaluateThresholds,
  latencyCells,
  parseThreshold,
  THRESHOLD_METRICS,
  type ThresholdData,
} from '../../src/metrics/index.js';

function data(): ThresholdData {
  const rec = new LatencyRecorder();
  for (let ms = 1; ms <= 1000; ms++) rec.recordMs('ack', ms / 10); // 0.1 .. 100 ms
  rec.recordMs('sync', 2000);
  return {
    summary: {
      requests: 100,
      outcomes: {
        answered: 95,
        failed: 1,
        rejected: 0,
        timeout: 4,
        'transport-error': 0,
        'invalid-response': 0,
        interrupted: 0,
        'not-sent': 0,
      },
      passRate: 0.9,
    },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 2, late: 0, orphans: 1, badSecret: 0, malformed: 0 },
    histograms: rec.encodeAll(),
  };
}

describe('parseThreshold', () => {
  it('parses latency stats with units into ms', () => {
    expect(parseThreshold('ack.p99 < 100ms')).toMatchObject({
      metric: 'ack',
      stat: 'p99',
      op: '<',
      value: 100,
      percentile: 99,
      name: 'ack.p99',
    });
    expect(parseThreshold('answer.max<180s').value).toBe(180_000);
    expect(parseThreshold(' sync.p50 <= 2m ').value).toBe(120_000);
    expect(parseThreshold('sync.mean > 5ms').value).toBe(5);
    expect(parseThreshold('ack.p(99.5) < 1.5s')).toMatchObject({ stat: 'p(99.5)', percentile: 99.5, value: 1500 });
    expect(parseThreshold('ack.count >= 10')).toMatchObject({ kind: 'count', value: 10 });
  });

  it('parses outcome, scenario and receiver metrics', () => {
    expect(parseThreshold('outcome.transport-error.rate < 1%')).toMatchObject({
      metric: 'outcome.transport-error',
      stat: 'rate',
      value: 0.01,
    });
    expect(parseThreshold('outcome.timeout.count == 0')).toMatchObject({
      metric: 'outcome.timeout',
      stat: 'count',
      op: '==',
    });
    expect(parseThreshold('scenario.pass.rate >= 99%')).toMatchObject({
      metric: 'scenario.pass',
      stat: 'rate',
      value: 0.99,
    });
    expect(parseThreshold('receiver.badSecret != 1')).toMatchObject({
      metric: 'receiver',
      stat: 'badSecret',
      op: '!=',
    });
  });

  it('rejects an unknown metric with DROIDCHECK_ERR_THRESHOLD and a did-you-mean', () => {
    const err = (() => {
      try {
        parseThreshold('ack.p99.9 < 100ms');
      } catch (e) {
        return e;
      }
    })() as ThresholdError;
    expect(err).toBeInstanceOf(ThresholdError);
    expect(err.code).toBe('DROIDCHECK_ERR_THRESHOLD');
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain('did you mean "ack.p999"');
    expect(() => parseThreshold('acks.p99 < 100ms')).toThrow(/did you mean "ack.p99"/);
    expect(() => parseThreshold('outcome.timeouts.rate < 10%')).toThrow(/did you mean "outcome.timeout.rate"/);
    expect(() => parseThreshold('receiver.orphan == 0')).toThrow(/receiver.orphans/);
    expect(() => parseThreshold('latency < 3')).toThrow(ThresholdError);
  });

  it('rejects malformed expressions, bad units and percentiles', () => {
    expect(() => parseThreshold('ack.p99 100ms')).toThrow(/expected "<metric> <op> <value>/);
    expect(() => parseThreshold('ack.p99 < fast')).toThrow(ThresholdError);
    expect(() => parseThreshold('receiver.late < 3s')).toThrow(/unit "s"/);
    expect(() => parseThreshold('ack.count < 3ms')).toThrow(/unit/);
    expect(() => parseThreshold('outcome.failed.rate < 3ms')).toThrow(/unit/);
    expect(() => parseThreshold('ack.p(0) < 3ms')).toThrow(/percentile/);
    expect(() => parseThreshold('ack.p(101) < 3ms')).toThrow(/percentile/);
  });
});

describe('a threshold value needs its unit', () => {
  // One metric of every kind (latency stats, rates, counts), each with a bare value: every one
  // but a count (the policy's violations too) is refused (a rate written 1 used to mean 100%, a
  // latency 180 meant 180 ms).
  const COUNT = /(\.count|^receiver\..*|^policy\..*violations)$/;
  const needsUnit = [...THRESHOLD_METRICS.filter((m) => !COUNT.test(m))];
  const counts = THRESHOLD_METRICS.filter((m) => COUNT.test(m));

  it.each(needsUnit)('%s < 1 is refused with a message about the unit', (metric) => {
    expect(() => parseThreshold(`${metric} < 1`)).toThrow(/needs a unit: write 1(ms or 1s|%)/);
  });

  it.each(counts)('%s < 1 is a count: no unit', (metric) => {
    expect(parseThreshold(`${metric} < 1`).value).toBe(1);
    expect(() => parseThreshold(`${metric} < 1%`)).toThrow(/does not fit a count/);
  });

  it('uses the wording of a duration flag, and lets zero stand alone', () => {
    expect(() => parseThreshold('answer.max < 180')).toThrow(
      'threshold "answer.max < 180": "180" needs a unit: write 180ms or 180s',
    );
    expect(() => parseThreshold('outcome.timeout.rate < 1')).toThrow(
      '"1" needs a unit: write 1% (or 100% for a share of 1)',
    );
    expect(parseThreshold('outcome.timeout.rate == 0').value).toBe(0);
    expect(parseThreshold('load.dropped.rate < 1%')).toMatchObject({
      metric: 'load.dropped',
      stat: 'rate',
      value: 0.01,
    });
  });
});

describe('evaluateThresholds', () => {
  it('judges dropped arrivals of a load, a default threshold when the data has a load', () => {
    const d = { ...data(), load: { sent: 870, dropped: 130 } };
    const [dropped] = evaluateThresholds([], d, { defaults: true }).filter((r) => r.metric === 'load.dropped.rate');
    expect(dropped).toMatchObject({ status: 'breached', actual: 0.13, count: 1000, limit: 0.01 });
    expect(describeThreshold(dropped!)).toBe('✗ load.dropped.rate < 1% (actual 13%, 1000 arrivals)');
    expect(evaluateThresholds([], data(), { defaults: true }).map((r) => r.metric)).not.toContain('load.dropped.rate');
  });

  it('judges each metric kind on the data', () => {
    const results = evaluateThresholds(
      [
        'ack.p99 < 100ms',
        'ack.p95 < 50ms',
        'ack.p(50) < 60ms',
        'ack.count == 1000',
        'outcome.timeout.rate < 1%',
        'outcome.answered.count >= 95',
        'scenario.pass.rate > 95%',
        'receiver.duplicates == 0',
        'receiver.orphans <= 1',
      ],
      data(),
    );
    expect(results.map((r) => [r.metric, r.passed])).toEqual([
      ['ack.p99', true],
      ['ack.p95', false],
      ['ack.p(50)', true],
      ['ack.count', true],
      ['outcome.timeout.rate', false],
      ['outcome.answered.count', true],
      ['scenario.pass.rate', false],
      ['receiver.duplicates', false],
      ['receiver.orphans', true],
    ]);
    expect(results[1]!.actual).toBeCloseTo(95, 0);
    expect(results[4]!.actual).toBe(0.04);
    expect(results[0]!.expression).toBe('ack.p99 < 100ms');
  });

  it('adds the spec limits as defaults, only for metrics with values, without repeating a user one', () => {
    expect(DEFAULT_THRESHOLDS).toEqual(['ack.p99 < 100ms', 'answer.max < 180s', 'sync.max < 180s']);
    const results = evaluateThresholds(['sync.max < 180s', 'receiver.late == 0'], data(), { defaults: true });
    expect(results.map((r) => r.expression)).toEqual(['ack.p99 < 100ms', 'sync.max < 180s', 'receiver.late == 0']);
    expect(results.every((r) => r.passed)).toBe(true);
  });

  it('fails a default when the limit is breached', () => {
    const d = data();
    const rec = new LatencyRecorder();
    rec.recordMs('answer', 200_000);
    const results = evaluateThresholds(
      [],
      { ...d, latency: { ...d.latency, answer: rec.summary('answer') } },
      { defaults: true },
    );
    expect(results.find((r) => r.metric === 'answer.max')).toMatchObject({ passed: false });
  });

  it('rates are 0 with no requests; unknown metrics throw before judging', () => {
    const d = data();
    d.summary.requests = 0;
    expect(evaluateThresholds(['outcome.failed.rate == 0'], d)[0]!.passed).toBe(true);
    expect(() => evaluateThresholds(['nope.p99 < 1'], d)).toThrow(ThresholdError);
  });
});

/** Threshold data from real recorders: `n` acks around 2 ms (or `slowMs` each), `answer` samples. */
function sampled(n: number, opts: { ackMs?: number; answers?: number[] } = {}): ThresholdData {
  const rec = new LatencyRecorder();
  for (let i = 0; i < n; i++) rec.recordMs('ack', opts.ackMs ?? 1.5 + (i % 10) / 10);
  for (const ms of opts.answers ?? []) rec.recordMs('answer', ms);
  return {
    summary: { requests: n, outcomes: { answered: n }, passRate: 1, scenarios: n },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    histograms: rec.encodeAll(),
  };
}

describe('statistics that fit the sample', () => {
  it('does not judge a percentile its count cannot support: too few samples, never a breach', () => {
    // 16 acks of 250 ms: p99 of 16 is the max, and the default ack.p99 < 100ms is not judged on it.
    const [ack] = evaluateThresholds([], sampled(16, { ackMs: 250 }), { defaults: true });
    expect(ack).toMatchObject({
      metric: 'ack.p99',
      status: 'too-few-samples',
      passed: true,
      count: 16,
      minCount: 100,
      unit: 'ms',
      limit: 100,
      op: '<',
    });
    expect(ack!.actual).toBeCloseTo(250, 0);
    expect(describeThreshold(ack!)).toBe('– ack.p99 < 100 ms: too few samples (16 < 100)');
    // 100 of them support it: breached.
    const [judged] = evaluateThresholds([], sampled(100, { ackMs: 250 }), { defaults: true });
    expect(judged).toMatchObject({ status: 'breached', passed: false, count: 100 });
    expect(describeThreshold(judged!)).toBe('✗ ack.p99 < 100 ms (actual 250 ms, 100 samples)');
  });

  it('judges p90 from 10, p95 from 20, p99.9 from 1,000, max from 1', () => {
    const status = (n: number, t: string) => evaluateThresholds([t], sampled(n))[0]!.status;
    expect([status(9, 'ack.p90 < 1s'), status(10, 'ack.p90 < 1s')]).toEqual(['too-few-samples', 'passed']);
    expect([status(19, 'ack.p95 < 1s'), status(20, 'ack.p95 < 1s')]).toEqual(['too-few-samples', 'passed']);
    expect([status(999, 'ack.p999 < 1s'), status(1000, 'ack.p999 < 1s')]).toEqual(['too-few-samples', 'passed']);
    expect([status(199, 'ack.p(99.5) < 1s'), status(200, 'ack.p(99.5) < 1s')]).toEqual(['too-few-samples', 'passed']);
    expect(status(1, 'ack.max < 1s')).toBe('passed');
  });

  it('lets the user demand a count the k6 way: ack.count >= 100 fails the gate on 16 samples', () => {
    const results = evaluateThresholds(['ack.p99 < 100ms', 'ack.count >= 100'], sampled(16));
    expect(results.map((r) => [r.metric, r.status, r.passed])).toEqual([
      ['ack.p99', 'too-few-samples', true],
      ['ack.count', 'breached', false],
    ]);
    expect(describeThreshold(results[1]!)).toBe('✗ ack.count >= 100 (actual 16)');
    expect(evaluateThresholds(['ack.count >= 100'], sampled(0))[0]).toMatchObject({ status: 'breached', actual: 0 });
  });

  it('says "no samples" for an empty metric, never 0 ... ok', () => {
    const [r] = evaluateThresholds(['sync.p50 < 1s'], sampled(5));
    expect(r).toMatchObject({ status: 'no-samples', passed: true, actual: null, count: 0 });
    expect(describeThreshold(r!)).toBe('– sync.p50 < 1 s: no samples');
    const none = sampled(0);
    expect(evaluateThresholds(['outcome.timeout.rate < 1%'], none)[0]).toMatchObject({
      status: 'no-samples',
      actual: null,
    });
    expect(evaluateThresholds([], none, { defaults: true })).toEqual([]);
  });

  it('prints every figure with its unit', () => {
    const d = sampled(812, { answers: [202.623] });
    const lines = evaluateThresholds(
      [
        'answer.max < 180s',
        'ack.p99 < 100ms',
        'outcome.answered.rate > 99%',
        'scenario.pass.rate >= 90%',
        'receiver.late == 0',
      ],
      d,
    ).map(describeThreshold);
    expect(lines).toEqual([
      '✓ answer.max < 180 s (actual 203 ms, 1 sample)',
      '✓ ack.p99 < 100 ms (actual 2.4 ms, 812 samples)',
      '✓ outcome.answered.rate > 99% (actual 100%, 812 requests)',
      '✓ scenario.pass.rate >= 90% (actual 100%, 812 scenarios)',
      '✓ receiver.late == 0 (actual 0)',
    ]);
    // A breach never reads as equal to its limit: 180.4 s against 180 s.
    const close = evaluateThresholds(['answer.max < 180s'], sampled(1, { answers: [180_400] }))[0]!;
    expect(describeThreshold(close)).toMatch(/^✗ answer\.max < 180 s \(actual 180\.[45] s, 1 sample\)$/);
  });
});

describe('latencyCells', () => {
  it('gives units, marks unsupported percentiles and says no samples', () => {
    const rec = new LatencyRecorder();
    for (let i = 1; i <= 16; i++) rec.recordMs('ack', i);
    expect(latencyCells(rec.summary('ack'))).toEqual({
      empty: false,
      unsupported: true,
      cells: ['16', '8 ms', '15 ms', '—', '—', '16 ms'],
    });
    for (let i = 0; i < 1000; i++) rec.recordMs('sync', 100 + i / 10);
    expect(latencyCells(rec.summary('sync')).cells).toEqual(['1000', '150 ms', '190 ms', '199 ms', '200 ms', '200 ms']);
    expect(latencyCells(rec.summary('answer'))).toEqual({
      empty: true,
      unsupported: false,
      cells: ['0', 'no samples', '', '', '', ''],
    });
  });
});
