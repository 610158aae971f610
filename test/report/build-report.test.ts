import { describe, expect, it } from 'vitest';
import { InternalError, ThresholdError } from '../../src/errors.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { buildReport } from '../../src/report/index.js';
import type { Outcome } from '../../src/report/run-types.js';
import { failingRecord, record, run } from './fixtures.js';

describe('buildReport', () => {
  it('counts every outcome name (zeros included) and they add up to the requests', () => {
    const report = buildReport(
      run([
        record(),
        record({ seq: 1, mode: 'async', outcome: 'timeout', passed: false, syncMs: undefined, ackMs: 5 }),
      ]),
    );
    expect(report.summary.outcomes).toEqual({
      answered: 1,
      failed: 0,
      rejected: 0,
      timeout: 1,
      'transport-error': 0,
      'invalid-response': 0,
      interrupted: 0,
      'not-sent': 0,
    });
    expect(report.summary).toMatchObject({ requests: 2, scenarios: 2, passed: 1, failed: 1, passRate: 0.5 });
    expect(Object.values(report.summary.outcomes).reduce((a, b) => a + b, 0)).toBe(report.summary.requests);
    expect(report).toMatchObject({ version: 1, tool: 'droidcheck', durationMs: 2000 });
  });

  it('exit 0 when all pass, 1 when a scenario failed', () => {
    expect(buildReport(run([record()])).exitCode).toBe(0);
    expect(buildReport(run([record(), failingRecord()])).exitCode).toBe(1);
    expect(buildReport(run([])).exitCode).toBe(0);
  });

  it('exit 99 when a threshold is breached, winning over 1; 130 when interrupted wins over all', () => {
    const both = run([record(), failingRecord()]);
    const breached = buildReport(both, { thresholds: ['sync.max < 50ms'] });
    expect(breached.thresholds.find((t) => t.expression === 'sync.max < 50ms')).toMatchObject({
      passed: false,
      status: 'breached',
    });
    expect(breached.exitCode).toBe(99);
    expect(buildReport(run([record()]), { thresholds: ['sync.max < 50ms'] }).exitCode).toBe(99);
    const interrupted = run([record(), failingRecord({ outcome: 'interrupted' })], { interrupted: true });
    expect(buildReport(interrupted, { thresholds: ['sync.max < 50ms'] }).exitCode).toBe(130);
  });

  it('judges the spec limits by default, only for metrics with values, and a percentile only with enough samples', () => {
    const report = buildReport(run([record(), failingRecord()]));
    expect(report.thresholds.map((t) => t.expression)).toEqual([
      'ack.p99 < 100ms',
      'answer.max < 180s',
      'sync.max < 180s',
    ]);
    expect(buildReport(run([record()])).thresholds.map((t) => t.metric)).toEqual(['sync.max']);
    // One slow ack: p99 of 1 sample is not judged (it would be the max under another name), so no exit 99.
    const slowAck = buildReport(run([failingRecord({ ackMs: 250 })]));
    expect(slowAck.latency.ack).toMatchObject({
      limitMs: 100,
      limitStat: 'p99',
      limitVerdict: 'too-few-samples',
      withinLimit: true,
      count: 1,
    });
    expect(slowAck.thresholds[0]).toMatchObject({
      metric: 'ack.p99',
      status: 'too-few-samples',
      passed: true,
      count: 1,
      minCount: 100,
    });
    expect(slowAck.exitCode).toBe(1);
    // 100 slow acks support p99: breached.
    const many = buildReport(run(Array.from({ length: 100 }, (_, i) => failingRecord({ seq: i, ackMs: 250 }))));
    expect(many.thresholds[0]).toMatchObject({ metric: 'ack.p99', status: 'breached', count: 100 });
    expect(many.latency.ack).toMatchObject({ limitVerdict: 'breach', withinLimit: false });
    expect(many.exitCode).toBe(99);
  });

  it('fills latency with limits, histograms that decode, receiver stats and scenario entries', () => {
    const report = buildReport(run([record(), failingRecord()]));
    expect(report.latency.sync).toMatchObject({ count: 1, limitMs: 180_000, withinLimit: true });
    expect(report.latency.answer.count).toBe(1);
    expect(report.latency.ack.limitMs).toBe(100);
    expect(LatencyRecorder.fromEncoded(report.histograms).summary('ack').count).toBe(1);
    expect(report.receiver.matched).toBe(1);
    expect(report.scenarios[0]).toEqual({
      suite: 'Shop',
      name: 'buys shirts',
      file: 'scenarios/shop.yaml',
      mode: 'sync',
      outcome: 'answered',
      passed: true,
      latencyMs: 120,
      failures: [],
      contractViolations: [],
    });
    expect(report.scenarios[1]).toMatchObject({ mode: 'async', requestId: 'tpa-123', latencyMs: 340, passed: false });
    expect(report.scenarios[1]!.failures[0]).toMatchObject({ expected: 'refund', actual: ['greeting'] });
  });

  it("gives a scenario of calls only (no answer turn) the sum of its steps' response times", () => {
    const step = (index: number, latencyMs?: number) => ({
      index,
      kind: 'customer' as const,
      endpoint: 'customer-update',
      outcome: 'answered' as const,
      passed: true,
      failures: [],
      ...(latencyMs !== undefined && { latencyMs }),
    });
    const calls = record({ syncMs: undefined, steps: [step(0, 12.5), step(1), step(2, 30)] });
    const none = record({ syncMs: undefined, steps: [step(0)] });
    const report = buildReport(run([calls, none]));
    expect(report.scenarios[0]!.latencyMs).toBe(42.5);
    expect(report.scenarios[1]).not.toHaveProperty('latencyMs');
  });

  it('keeps settings as given: they never hold a secret (config/settings.ts), and a flag such as webhookSecretSet stays a boolean', () => {
    const report = buildReport(
      run([record()], { settings: { webhookSecretSet: true, target: { baseUrl: 'u' }, n: 1 } }),
    );
    expect(report.settings).toEqual({ webhookSecretSet: true, target: { baseUrl: 'u' }, n: 1 });
  });

  it('throws DROIDCHECK_ERR_INTERNAL for an unknown outcome, DROIDCHECK_ERR_THRESHOLD for a bad threshold', () => {
    expect(() => buildReport(run([record({ outcome: 'lost' as Outcome })]))).toThrow(InternalError);
    expect(() => buildReport(run([record()]), { thresholds: ['sync.p98.9 < 1'] })).toThrow(ThresholdError);
  });
});
