import { describe, expect, it } from 'vitest';
import { judgeStep, searchCapacity, stepLength, type RateMeasurement } from '../../src/jobs/load/capacity-search.js';
import { buildReport, renderConsoleSummary, renderJUnit } from '../../src/report/index.js';
import { record, run } from '../report/fixtures.js';
import { progressLine } from '../../src/report/index.js';
import { generatorVerdict, SendDelayRecorder } from '../../src/runner/index.js';
import { zeroOutcomes } from '../../src/outcomes.js';
import { unwrapped } from '../helpers/console-text.js';

const CRITERIA = { ackP99Ms: 100, maxErrorRate: 0.01 };
const SEARCH = { maxSteps: 20 };

/** A fake target whose ack p99 grows past 100 ms above `knee` req/s. */
function fakeMeasure(knee: number, seen: number[]) {
  return async (rate: number): Promise<RateMeasurement> => {
    seen.push(rate);
    const p99 = rate <= knee ? 20 + rate / 100 : 150 + rate;
    return {
      rate,
      achievedRate: rate,
      sent: rate * 10,
      dropped: 0,
      errors: 0,
      ack: { count: rate * 10, p50: 5, p99 },
      answer: { count: rate * 10, p50: 8, p99: p99 + 5 },
      sync: { count: 0, p50: 0, p99: 0 },
      generatorBound: false,
      sendDelayP99Ms: 0.5,
      judgesAck: true,
      answers: { passed: rate * 10, judged: rate * 10 },
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
    expect(v.message).toMatch(/generator-bound.*up to 40\.?\d* ms too high/);
    expect(bad.encode().length).toBeGreaterThan(10);
  });

  it('quotes no p99 from fewer than 100 samples, and never judges their max alone', () => {
    const few = new SendDelayRecorder();
    for (let i = 0; i < 25; i++) few.recordMs(i === 24 ? 30 : 0.6);
    const v = generatorVerdict(few.summary());
    // One hiccup of 30 ms in 25 samples: the p90 (the highest percentile 25 samples support) decides.
    expect(v.generatorBound).toBe(false);
    expect(v.message).toMatch(
      /^send delay p90 0\.6\d* ms <= 10 ms \(25 samples, too few for a p99\): the generator kept up; latency figures may be up to 0\.6\d* ms too high$/,
    );
    const slow = new SendDelayRecorder();
    for (let i = 0; i < 25; i++) slow.recordMs(i >= 20 ? 30 : 0.6);
    expect(generatorVerdict(slow.summary())).toMatchObject({ generatorBound: true, offBy: { stat: 'p90' } });
  });
});

describe('capacity search', () => {
  it('step: climbs until the first failing rate and reports the curve', async () => {
    const seen: number[] = [];
    const result = await searchCapacity(
      fakeMeasure(350, seen),
      { ...SEARCH, strategy: 'step', startRate: 100, stepRate: 100, maxRate: 1000 },
      CRITERIA,
    );
    expect(seen).toEqual([100, 200, 300, 400]);
    expect(result.maxRate).toBe(300);
    expect(result.firstFailingRate).toBe(400);
    expect(result.curve.map((p) => p.passed)).toEqual([true, true, true, false]);
    expect(result.curve[3]!.reasons).toEqual(['ack p99 550 ms >= 100 ms']);
  });

  it('bisect: narrows down to the precision', async () => {
    const seen: number[] = [];
    const result = await searchCapacity(
      fakeMeasure(613, seen),
      { ...SEARCH, strategy: 'bisect', startRate: 100, stepRate: 0, maxRate: 1000, precision: 10 },
      CRITERIA,
    );
    expect(result.maxRate).toBeGreaterThan(600);
    expect(result.maxRate).toBeLessThanOrEqual(613);
    expect(result.firstFailingRate! - result.maxRate!).toBeLessThanOrEqual(10);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(result.curve.map((p) => p.rate)).toEqual([...result.curve.map((p) => p.rate)].sort((a, b) => a - b));
  });

  it('bisect: says when the max rate already passes', async () => {
    const result = await searchCapacity(
      fakeMeasure(5000, []),
      { ...SEARCH, strategy: 'bisect', startRate: 100, stepRate: 0, maxRate: 1000 },
      CRITERIA,
    );
    expect(result.maxRate).toBe(1000);
    expect(result.limitedBySearch).toBe(true);
  });

  it('judges answer p99, errors and dropped arrivals', () => {
    const base: RateMeasurement = {
      rate: 10,
      achievedRate: 10,
      sent: 100,
      dropped: 0,
      errors: 0,
      ack: { count: 100, p50: 1, p99: 2 },
      answer: { count: 100, p50: 40, p99: 900 },
      sync: { count: 0, p50: 0, p99: 0 },
      generatorBound: false,
      sendDelayP99Ms: 0,
      judgesAck: true,
      answers: { passed: 100, judged: 100 },
    };
    expect(judgeStep(base, CRITERIA).passed).toBe(true);
    expect(judgeStep(base, { ...CRITERIA, answerP99Ms: 500 }).reasons).toEqual(['answer p99 900 ms >= 500 ms']);
    expect(judgeStep({ ...base, errors: 5 }, CRITERIA).reasons[0]).toMatch(/error rate 5%/);
    expect(judgeStep({ ...base, dropped: 3 }, CRITERIA).passed).toBe(false);
  });

  it('judges a generator-bound step by the one rule: not judged only within the send delay of the limit', () => {
    const bound = (ackP99: number): RateMeasurement => ({
      rate: 10,
      achievedRate: 10,
      sent: 100,
      dropped: 0,
      errors: 0,
      ack: { count: 100, p50: 1, p99: ackP99 },
      answer: { count: 100, p50: 40, p99: 900 },
      sync: { count: 0, p50: 0, p99: 0 },
      generatorBound: true,
      sendDelayP99Ms: 25,
      sendDelayOffByMs: 25,
      judgesAck: true,
      answers: { passed: 100, judged: 100 },
    });
    expect(judgeStep(bound(20), CRITERIA).passed).toBe(true); // 80 ms below the limit
    expect(judgeStep(bound(300), CRITERIA).reasons).toEqual(['ack p99 300 ms >= 100 ms']);
    expect(judgeStep(bound(90), CRITERIA).reasons).toEqual([
      "generator-bound: ack p99 90 ms not judged against 100 ms, within the send delay's 25 ms",
    ]);
  });

  it('never passes the ack criterion without enough ack samples (no silent pass)', () => {
    const few: RateMeasurement = {
      rate: 10,
      achievedRate: 10,
      sent: 100,
      dropped: 0,
      errors: 0,
      ack: { count: 0, p50: 0, p99: 0 },
      answer: { count: 0, p50: 0, p99: 0 },
      sync: { count: 100, p50: 1, p99: 2 },
      generatorBound: false,
      sendDelayP99Ms: 0,
      judgesAck: true,
      answers: { passed: 100, judged: 100 },
    };
    expect(judgeStep(few, CRITERIA).reasons).toEqual([
      expect.stringMatching(/too few ack samples for p99 \(0 < 100\)/),
    ]);
    expect(judgeStep({ ...few, ack: { count: 99, p50: 1, p99: 2 } }, CRITERIA).passed).toBe(false);
    // A sync-only mix has no ack to judge.
    expect(judgeStep({ ...few, judgesAck: false }, CRITERIA).passed).toBe(true);
  });

  it('an interrupted measurement ends the search with the points so far', async () => {
    const seen: number[] = [];
    const measure = fakeMeasure(10_000, seen);
    const result = await searchCapacity(
      async (rate) => (rate >= 300 ? undefined : measure(rate)),
      { ...SEARCH, strategy: 'step', startRate: 100, stepRate: 100, maxRate: 1000 },
      CRITERIA,
    );
    expect(result.curve.map((p) => p.rate)).toEqual([100, 200]);
    expect(result.maxRate).toBe(200);
  });
});

describe('progress line', () => {
  it('shows the rate, in flight, ended/planned, outcomes and ack p99 with its count, each with its unit', () => {
    const outcomes = { ...zeroOutcomes(), answered: 990, rejected: 2 };
    const line = progressLine({
      elapsedMs: 10_000,
      planned: undefined,
      sent: 2000,
      ended: 992,
      inFlight: 7,
      dropped: 4,
      outcomes,
      passed: 990,
      failed: 2,
      rate: 200,
      targetRate: 200,
      ack: { count: 500, p99Ms: 3.2 },
    });
    expect(line).toBe(
      '[     10 s] 200 req/s (target 200 req/s) | in flight 7 | ended 992 | dropped 4 | answered 990 rejected 2 | ack p99 3.2 ms (500 samples)',
    );
  });

  it('--min-pass-rate: judges the share of answers right, on its lower bound where the sample allows', async () => {
    const m = fakeMeasure(1000, []);
    const at = async (rate: number, passed: number, judged: number) => ({
      ...(await m(rate)),
      answers: { passed, judged },
    });
    const Q = { ...CRITERIA, minPassRate: 0.99 };
    // 150 answers cannot show 99% on the lower bound: the share itself is judged, and the reason says so.
    const few = judgeStep(await at(30, 107, 150), Q);
    expect(few).toMatchObject({ passed: false, latencyPassed: true });
    expect(few.answers).toMatchObject({ passed: 107, judged: 150, judgedOn: 'point' });
    expect(few.answers!.share).toBeCloseTo(0.7133, 4);
    expect(few.answers!.interval.low).toBeCloseTo(0.6364, 4);
    expect(few.reasons).toEqual([
      'answers degraded: 71.3% right at 30 req/s (107 of 150; < 99%; 150 answers are too few for the 95% interval to show 99%, so the share is judged)',
    ]);
    expect(judgeStep(await at(30, 150, 150), Q).passed).toBe(true);
    // 396 of 400 is 99%, but the interval's lower bound (97.5%) is not.
    expect(judgeStep(await at(40, 396, 400), Q).reasons[0]).toMatch(
      /^answers degraded: 99% right at 40 req\/s \(396 of 400; 95% CI 97\.5%–99\.6%: its lower bound < 99%\)$/,
    );
    // Not judged without a minimum, nor with 0.
    expect(judgeStep(await at(30, 4, 150), CRITERIA).passed).toBe(true);
    expect(judgeStep(await at(30, 4, 150), { ...CRITERIA, minPassRate: 0 }).passed).toBe(true);
  });

  it('step: goes on past a rate whose answers alone failed, and reports both capacities and what ended the search', async () => {
    const seen: number[] = [];
    const base = fakeMeasure(45, seen);
    // Answers right up to 20 req/s, wrong above; latency fine up to 45.
    const measure = async (rate: number) => {
      const m = await base(rate);
      return { ...m, answers: { passed: rate <= 20 ? m.sent : Math.round(m.sent * 0.05), judged: m.sent } };
    };
    const result = await searchCapacity(
      measure,
      { ...SEARCH, strategy: 'step', startRate: 10, stepRate: 10, maxRate: 60 },
      { ...CRITERIA, minPassRate: 0.99 },
    );
    expect(seen).toEqual([10, 20, 30, 40, 50]);
    expect(result).toMatchObject({ maxRate: 20, firstFailingRate: 30, limitedBySearch: false });
    expect(result.latencyOnly).toEqual({ maxRate: 40, firstFailingRate: 50, limitedBySearch: false });
    expect(result.endedBy).toMatchObject({ rate: 30, criteria: ['answers'] });
    expect(result.endedBy!.reasons[0]).toMatch(/^answers degraded: 5% right at 30 req\/s/);
    expect(result.criteria.minPassRate).toBe(0.99);
    const minZero = await searchCapacity(
      measure,
      { ...SEARCH, strategy: 'step', startRate: 10, stepRate: 10, maxRate: 60 },
      { ...CRITERIA, minPassRate: 0 },
    );
    expect(minZero.maxRate).toBe(40);
    expect(minZero.endedBy!.criteria).toEqual(['latency']);
  });

  it('bisect: bisects again for the latency-only capacity, reusing the rates measured', async () => {
    const seen: number[] = [];
    const base = fakeMeasure(613, seen);
    const measure = async (rate: number) => {
      const m = await base(rate);
      return { ...m, answers: { passed: rate <= 300 ? m.sent : 0, judged: m.sent } };
    };
    const result = await searchCapacity(
      measure,
      { ...SEARCH, strategy: 'bisect', startRate: 100, stepRate: 0, maxRate: 1000, precision: 10 },
      { ...CRITERIA, minPassRate: 0.99 },
    );
    expect(result.maxRate).toBeGreaterThan(290);
    expect(result.maxRate).toBeLessThanOrEqual(300);
    expect(result.latencyOnly!.maxRate).toBeGreaterThan(600);
    expect(result.latencyOnly!.maxRate).toBeLessThanOrEqual(613);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('a step long enough for its criteria', () => {
  const needs = { stepDurationMs: 10_000, asyncShare: 1, judgesLatency: true, maxErrorRate: 0.01 };

  it('lengthens a rate too low for the 100 samples of a p99, and says why', () => {
    // 5 req/s for 10 s is 50 acks: measured for 103 arrivals instead (100 / 0.99, rounded up, + 1).
    expect(stepLength(5, needs)).toEqual({
      ms: 20_600,
      lengthened: 'measured 20.6 s, not 10 s: 102 arrivals for the 100 samples a p99 needs',
    });
    expect(stepLength(50, needs)).toEqual({ ms: 10_000 });
    // Half the draws async: their count is binomial, taken 4 standard deviations low.
    const half = stepLength(50, { ...needs, stepDurationMs: 1000, asyncShare: 0.5 });
    expect(half.ms).toBeGreaterThan(4000);
    expect(half.ms).toBeLessThan(6500);
    // Nothing judged on async samples (a sync mix): the step as given.
    expect(stepLength(1, { ...needs, judgesLatency: false })).toEqual({ ms: 10_000 });
    expect(stepLength(1, { ...needs, asyncShare: 0 })).toEqual({ ms: 10_000 });
  });
});

describe('--min-capacity: capacity as a CI gate', () => {
  async function report(knee: number, minCapacity?: number) {
    const capacity = await searchCapacity(
      fakeMeasure(knee, []),
      { ...SEARCH, strategy: 'step', startRate: 100, stepRate: 100, maxRate: 1000 },
      { ...CRITERIA, ...(minCapacity !== undefined && { minCapacity }) },
    );
    return buildReport({ ...run([record()]), kind: 'capacity', capacity });
  }

  it('exits 99 below it, naming the knee and what ended the search, first in the console and in JUnit', async () => {
    const below = await report(350, 500);
    expect(below.capacity!.criteria.minCapacity).toBe(500);
    expect(below.exitCode).toBe(99);
    const lines = unwrapped(renderConsoleSummary(below)).split('\n');
    expect(lines[1]).toBe(
      '  Capacity 300 req/s (the knee) · ended at 400 req/s by ack p99 550 ms >= 100 ms · --min-capacity 500 req/s: NOT MET',
    );
    expect(
      lines.some((l) => l.includes('required  --min-capacity 500 req/s: not met (the knee is 300 req/s; exit 99)')),
    ).toBe(true);
    expect(renderJUnit(below)).toMatch(
      /<testcase classname="droidcheck\.capacity" name="capacity &gt;= 500 req\/s"[^>]*>\s*<failure message="knee 300 req\/s · ended at 400 req\/s by ack p99 550 ms &gt;= 100 ms"/,
    );
  });

  it('exits 0 at or above it, and without it whenever some rate passed', async () => {
    const met = await report(350, 300);
    expect(met.exitCode).toBe(0);
    expect(unwrapped(renderConsoleSummary(met)).split('\n')[1]).toMatch(/--min-capacity 300 req\/s: met$/);
    expect((await report(350)).exitCode).toBe(0);
    expect((await report(50, 100)).exitCode).toBe(99); // no rate passed
  });

  it('exits 98 when the search ended only at a step whose latency could not be judged (a bound generator)', async () => {
    const capacity = await searchCapacity(
      async (rate) => ({
        ...(await fakeMeasure(10_000, [])(rate)),
        ...(rate >= 200 && { ack: { count: 2000, p50: 5, p99: 95 }, generatorBound: true, sendDelayOffByMs: 30 }),
      }),
      { ...SEARCH, strategy: 'step', startRate: 100, stepRate: 100, maxRate: 1000 },
      { ...CRITERIA, minCapacity: 500 },
    );
    expect(capacity.endedBy).toMatchObject({ rate: 200, criteria: ['generator'] });
    const doc = buildReport({ ...run([record()]), kind: 'capacity', capacity });
    expect(doc.exitCode).toBe(98);
    expect(unwrapped(renderConsoleSummary(doc)).split('\n')[1]).toMatch(
      /--min-capacity 500 req\/s: not judged \(the generator was bound\)$/,
    );
  });
});
