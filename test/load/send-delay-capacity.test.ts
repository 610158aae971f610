import { describe, expect, it } from 'vitest';
import { judgeStep, renderCapacity, searchCapacity, type RateMeasurement } from '../../src/load/capacity.js';
import { generatorVerdict, SendDelayRecorder } from '../../src/load/send-delay.js';
import { progressLine } from '../../src/load/progress.js';

/** A fake target whose ack p99 grows past 100 ms above `knee` req/s. */
function fakeMeasure(knee: number, seen: number[]) {
  return async (rate: number): Promise<RateMeasurement> => {
    seen.push(rate);
    const p99 = rate <= knee ? 20 + rate / 100 : 150 + rate;
    return {
      rate, achievedRate: rate, sent: rate * 10, dropped: 0, errors: 0,
      ack: { count: rate * 10, p50: 5, p99 }, answer: { count: rate * 10, p50: 8, p99: p99 + 5 }, sync: { count: 0, p50: 0, p99: 0 },
      generatorBound: false, sendDelayP99Ms: 0.5,
    };
  };
}

describe('send delay and the generator-bound verdict', () => {
  it('is generator-bound when the send delay p99 exceeds 10 ms', () => {
    const ok = new SendDelayRecorder();
    for (let i = 0; i < 1000; i++) ok.recordMs(i % 10 === 0 ? 3 : 0.2);
    expect(generatorVerdict(ok.summary()).generatorBound).toBe(false);
    const bad = new SendDelayRecorder();
    for (let i = 0; i < 1000; i++) bad.recordMs(i % 50 === 0 ? 40 : 0.2);
    const v = generatorVerdict(bad.summary());
    expect(v.generatorBound).toBe(true);
    expect(v.message).toMatch(/generator-bound.*suspect/);
    expect(bad.encode().length).toBeGreaterThan(10);
  });
});

describe('capacity search', () => {
  it('step: climbs until the first failing rate and reports the curve', async () => {
    const seen: number[] = [];
    const result = await searchCapacity(fakeMeasure(350, seen), { strategy: 'step', startRate: 100, stepRate: 100, maxRate: 1000 });
    expect(seen).toEqual([100, 200, 300, 400]);
    expect(result.maxRate).toBe(300);
    expect(result.firstFailingRate).toBe(400);
    expect(result.curve.map((p) => p.passed)).toEqual([true, true, true, false]);
    expect(renderCapacity(result)).toMatch(/capacity: 300 req\/s/);
  });

  it('bisect: narrows down to the precision', async () => {
    const seen: number[] = [];
    const result = await searchCapacity(fakeMeasure(613, seen), { strategy: 'bisect', startRate: 100, stepRate: 0, maxRate: 1000, precision: 10 });
    expect(result.maxRate).toBeGreaterThan(600);
    expect(result.maxRate).toBeLessThanOrEqual(613);
    expect(result.firstFailingRate! - result.maxRate!).toBeLessThanOrEqual(10);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(result.curve.map((p) => p.rate)).toEqual([...result.curve.map((p) => p.rate)].sort((a, b) => a - b));
  });

  it('bisect: says when the max rate already passes', async () => {
    const result = await searchCapacity(fakeMeasure(5000, []), { strategy: 'bisect', startRate: 100, stepRate: 0, maxRate: 1000 });
    expect(result.maxRate).toBe(1000);
    expect(result.limitedBySearch).toBe(true);
  });

  it('judges answer p99, errors and dropped arrivals', () => {
    const base: RateMeasurement = {
      rate: 10, achievedRate: 10, sent: 100, dropped: 0, errors: 0,
      ack: { count: 100, p50: 1, p99: 2 }, answer: { count: 100, p50: 40, p99: 900 }, sync: { count: 0, p50: 0, p99: 0 },
      generatorBound: false, sendDelayP99Ms: 0,
    };
    expect(judgeStep(base).passed).toBe(true);
    expect(judgeStep(base, { answerP99Ms: 500 }).reasons).toEqual(['answer p99 900 ms >= 500 ms']);
    expect(judgeStep({ ...base, errors: 5 }).reasons[0]).toMatch(/error rate 5.00%/);
    expect(judgeStep({ ...base, dropped: 3 }).passed).toBe(false);
  });
});

describe('progress line', () => {
  it('shows the achieved rate, in flight, outcomes and ack p99', () => {
    const outcomes = { answered: 990, failed: 0, rejected: 2, timeout: 0, 'transport-error': 0, interrupted: 0 };
    const line = progressLine(
      { elapsedMs: 5000, sent: 1000, inFlight: 3, dropped: 0, outcomes, ackP99Ms: 1, sendDelayP99Ms: 0.3 },
      { elapsedMs: 10_000, sent: 2000, inFlight: 7, dropped: 4, outcomes, ackP99Ms: 3.2, sendDelayP99Ms: 0.4, targetRate: 200 },
    );
    expect(line).toBe('[  10.0s] rate 200/s (target 200) | in flight 7 | sent 2000 dropped 4 | answered 990 rejected 2 | ack p99 3.2 ms | send delay p99 0.4 ms');
  });
});
