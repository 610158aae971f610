/** The share of answers right and its judgement against a minimum, against values computed by hand (and by R's prop.test without correction). */
import { describe, expect, it } from 'vitest';
import { judgePassShare, minAnswersForLowerBound, passShare } from '../../src/metrics/index.js';

describe('passShare', () => {
  it('is passed / judged with its Wilson 95% interval', () => {
    // 107 of 150: 71.3%, 95% CI 63.6%..78.0%.
    const s = passShare(107, 150);
    expect(s.share).toBeCloseTo(0.7133, 4);
    expect(s.interval.low).toBeCloseTo(0.6364, 4);
    expect(s.interval.high).toBeCloseTo(0.7797, 4);
    // 47 of 840: 5.6%, 95% CI 4.2%..7.4%.
    expect(passShare(47, 840).interval).toEqual({ low: expect.closeTo(0.0423, 4), high: expect.closeTo(0.0736, 4) });
    // 75 of 75 is not "certainly 100%".
    expect(passShare(75, 75).interval).toEqual({ low: expect.closeTo(0.9513, 4), high: 1 });
    expect(passShare(0, 0)).toEqual({ passed: 0, judged: 0, share: null, interval: { low: 0, high: 1 } });
  });
});

describe('minAnswersForLowerBound', () => {
  it('is the smallest n whose n of n lower bound reaches the minimum', () => {
    // 381 / (381 + 1.96²) = 0.99002; 380 of 380 gives 0.98999.
    expect(minAnswersForLowerBound(0.99)).toBe(381);
    expect(passShare(381, 381).interval.low).toBeGreaterThanOrEqual(0.99);
    expect(passShare(380, 380).interval.low).toBeLessThan(0.99);
    // 4 / (4 + 3.84) = 0.51: four answers can show a majority.
    expect(minAnswersForLowerBound(0.5)).toBe(4);
    expect(minAnswersForLowerBound(0)).toBe(0);
    expect(minAnswersForLowerBound(1)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('judgePassShare', () => {
  it('judges the lower bound where the sample allows it', () => {
    // 396 of 400 is 99%, but its lower bound (97.5%) is not: the sample says it may be lower.
    const v = judgePassShare(396, 400, 0.99);
    expect(v).toMatchObject({ judgedOn: 'interval', held: false, min: 0.99 });
    expect(v.interval.low).toBeCloseTo(0.9746, 4);
    expect(judgePassShare(400, 400, 0.99)).toMatchObject({ judgedOn: 'interval', held: true });
    expect(judgePassShare(107, 150, 0.5)).toMatchObject({ judgedOn: 'interval', held: true });
    expect(judgePassShare(80, 150, 0.5)).toMatchObject({ judgedOn: 'interval', held: false });
  });

  it('judges the share itself when the sample is too small for the lower bound ever to reach the minimum', () => {
    expect(judgePassShare(150, 150, 0.99)).toMatchObject({ judgedOn: 'point', held: true });
    expect(judgePassShare(149, 150, 0.99)).toMatchObject({ judgedOn: 'point', held: true });
    expect(judgePassShare(148, 150, 0.99)).toMatchObject({ judgedOn: 'point', held: false });
    expect(judgePassShare(4, 150, 0.99)).toMatchObject({ judgedOn: 'point', held: false, share: 4 / 150 });
    expect(judgePassShare(10, 10, 1)).toMatchObject({ judgedOn: 'point', held: true });
  });

  it('a minimum of 0 always holds, even with nothing judged; any other needs an answer', () => {
    expect(judgePassShare(0, 150, 0)).toMatchObject({ held: true, judgedOn: 'interval' });
    expect(judgePassShare(0, 0, 0).held).toBe(true);
    expect(judgePassShare(0, 0, 0.5).held).toBe(false);
  });
});
