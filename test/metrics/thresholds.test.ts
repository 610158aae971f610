import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../src/errors.js';
import {
  DEFAULT_THRESHOLDS,
  LatencyRecorder,
  evaluateThresholds,
  parseThreshold,
  type ThresholdData,
} from '../../src/metrics/index.js';

function data(): ThresholdData {
  const rec = new LatencyRecorder();
  for (let ms = 1; ms <= 1000; ms++) rec.recordMs('ack', ms / 10); // 0.1 .. 100 ms
  rec.recordMs('sync', 2000);
  return {
    summary: {
      requests: 100,
      outcomes: { answered: 95, failed: 1, rejected: 0, timeout: 4, 'transport-error': 0, interrupted: 0 },
      passRate: 0.9,
    },
    latency: { ack: rec.summary('ack'), answer: rec.summary('answer'), sync: rec.summary('sync') },
    receiver: { duplicates: 2, late: 0, orphans: 1, badSecret: 0, malformed: 0 },
    histograms: rec.encodeAll(),
  };
}

describe('parseThreshold', () => {
  it('parses latency stats with units into ms', () => {
    expect(parseThreshold('ack.p99 < 100ms')).toMatchObject({ metric: 'ack', stat: 'p99', op: '<', value: 100, percentile: 99, name: 'ack.p99' });
    expect(parseThreshold('answer.max<180s').value).toBe(180_000);
    expect(parseThreshold(' sync.p50 <= 2m ').value).toBe(120_000);
    expect(parseThreshold('sync.mean > 5').value).toBe(5);
    expect(parseThreshold('ack.p(99.5) < 1.5s')).toMatchObject({ stat: 'p(99.5)', percentile: 99.5, value: 1500 });
    expect(parseThreshold('ack.count >= 10')).toMatchObject({ kind: 'count', value: 10 });
  });

  it('parses outcome, scenario and receiver metrics', () => {
    expect(parseThreshold('outcome.transport-error.rate < 1%')).toMatchObject({ metric: 'outcome.transport-error', stat: 'rate', value: 0.01 });
    expect(parseThreshold('outcome.timeout.count == 0')).toMatchObject({ metric: 'outcome.timeout', stat: 'count', op: '==' });
    expect(parseThreshold('scenario.pass.rate >= 0.99')).toMatchObject({ metric: 'scenario.pass', stat: 'rate', value: 0.99 });
    expect(parseThreshold('receiver.badSecret != 1')).toMatchObject({ metric: 'receiver', stat: 'badSecret', op: '!=' });
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
    expect(() => parseThreshold('acks.p99 < 100')).toThrow(/did you mean "ack.p99"/);
    expect(() => parseThreshold('outcome.timeouts.rate < 0.1')).toThrow(/did you mean "outcome.timeout.rate"/);
    expect(() => parseThreshold('receiver.orphan == 0')).toThrow(/receiver.orphans/);
    expect(() => parseThreshold('latency < 3')).toThrow(ThresholdError);
  });

  it('rejects malformed expressions, bad units and percentiles', () => {
    expect(() => parseThreshold('ack.p99 100ms')).toThrow(/expected "<metric> <op> <value>/);
    expect(() => parseThreshold('ack.p99 < fast')).toThrow(ThresholdError);
    expect(() => parseThreshold('receiver.late < 3s')).toThrow(/unit "s"/);
    expect(() => parseThreshold('ack.count < 3ms')).toThrow(/unit/);
    expect(() => parseThreshold('outcome.failed.rate < 3ms')).toThrow(/unit/);
    expect(() => parseThreshold('ack.p(0) < 3')).toThrow(/percentile/);
    expect(() => parseThreshold('ack.p(101) < 3')).toThrow(/percentile/);
  });
});

describe('evaluateThresholds', () => {
  it('judges each metric kind on the data', () => {
    const results = evaluateThresholds(
      [
        'ack.p99 < 100ms',
        'ack.p95 < 50',
        'ack.p(50) < 60ms',
        'ack.count == 1000',
        'outcome.timeout.rate < 1%',
        'outcome.answered.count >= 95',
        'scenario.pass.rate > 0.95',
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
    const results = evaluateThresholds([], { ...d, latency: { ...d.latency, answer: rec.summary('answer') } }, { defaults: true });
    expect(results.find((r) => r.metric === 'answer.max')).toMatchObject({ passed: false });
  });

  it('rates are 0 with no requests; unknown metrics throw before judging', () => {
    const d = data();
    d.summary.requests = 0;
    expect(evaluateThresholds(['outcome.failed.rate == 0'], d)[0]!.passed).toBe(true);
    expect(() => evaluateThresholds(['nope.p99 < 1'], d)).toThrow(ThresholdError);
  });
});
