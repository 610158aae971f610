/**
 * `turn<N>.<metric>.<stat>` thresholds: parsed with their unit, judged on the figures of answer
 * turn N (the report's byTurn), with the same sample-size rule as the run-wide latencies.
 */
import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../src/errors.js';
import {
  LatencyRecorder,
  evaluateThresholds,
  parseThreshold,
  perLatencyMetric,
  type ThresholdData,
} from '../../src/metrics/index.js';

/** `n` conversations: turn 1 answers in 1 s, turn 2 in 25 s (the history makes it slow). */
function conversations(n: number): ThresholdData {
  const rec = new LatencyRecorder();
  for (let i = 0; i < n; i++) {
    rec.recordTurnMs(1, 'answer', 1000);
    rec.recordTurnMs(2, 'answer', 25_000);
  }
  const turn = (t: number) => rec.byTurn.get(t)!;
  return {
    summary: { requests: n, outcomes: { answered: n }, passRate: 1 },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    byTurn: { '1': { answer: turn(1).summary('answer') }, '2': { answer: turn(2).summary('answer') } },
    byTurnHistograms: { '1': { answer: turn(1).encode('answer') }, '2': { answer: turn(2).encode('answer') } },
  };
}

describe('turn thresholds', () => {
  it('parses turn<N>.<answer|sync|ack>.<stat> with its unit', () => {
    expect(parseThreshold('turn3.answer.p99 < 20s')).toMatchObject({
      name: 'turn3.answer.p99',
      metric: 'turn3.answer',
      stat: 'p99',
      kind: 'latency',
      percentile: 99,
      value: 20_000,
    });
    expect(parseThreshold('turn12.ack.count >= 100')).toMatchObject({
      metric: 'turn12.ack',
      stat: 'count',
      kind: 'count',
      value: 100,
    });
    expect(() => parseThreshold('turn2.answer.p99 < 20')).toThrow(ThresholdError);
    expect(() => parseThreshold('turn0.answer.p99 < 20s')).toThrow(/unknown metric "turn0.answer.p99"/);
    expect(() => parseThreshold('turn2.reply.p99 < 20s')).toThrow(/unknown metric/);
    expect(() => parseThreshold('turn2.answer.p98 < 20s')).toThrow(/unknown metric/);
  });

  it('judges turn N on its own figures: a slow second turn breaches, the first passes', () => {
    const results = evaluateThresholds(
      ['turn1.answer.p99 < 20s', 'turn2.answer.p99 < 20s', 'turn2.answer.p(99.5) < 30s'],
      conversations(200),
    );
    expect(results.map((r) => [r.metric, r.status])).toEqual([
      ['turn1.answer.p99', 'passed'],
      ['turn2.answer.p99', 'breached'],
      ['turn2.answer.p(99.5)', 'passed'],
    ]);
    expect(results[1]).toMatchObject({ count: 200, minCount: 100, unit: 'ms', limit: 20_000 });
    expect(results[1]!.actual).toBeCloseTo(25_000, -2);
  });

  it('too few samples for a p99 is not a breach; a turn never reached has no samples', () => {
    const results = evaluateThresholds(
      ['turn2.answer.p99 < 20s', 'turn2.answer.max < 20s', 'turn5.answer.p99 < 20s', 'turn2.answer.count >= 100'],
      conversations(40),
    );
    expect(results.map((r) => [r.metric, r.status, r.passed])).toEqual([
      ['turn2.answer.p99', 'too-few-samples', true],
      ['turn2.answer.max', 'breached', false],
      ['turn5.answer.p99', 'no-samples', true],
      ['turn2.answer.count', 'breached', false],
    ]);
  });
});
