/** The exact statistics droidcheck decides on, against values computed by hand (and by R). */
import { describe, expect, it } from 'vitest';
import {
  fisherGreater,
  fisherMinP,
  lnChoose,
  lnGamma,
  minSamplesFor,
  minSamplesForStat,
  taroneSignificant,
  wilsonInterval,
} from '../../src/metrics/index.js';

describe('minSamplesFor: the tail beyond the percentile holds at least one sample', () => {
  it('gives count >= 1 / (1 - p), without rounding noise', () => {
    expect([50, 90, 95, 99, 99.5, 99.9, 99.99].map(minSamplesFor)).toEqual([2, 10, 20, 100, 200, 1000, 10000]);
    expect(minSamplesFor(100)).toBe(1);
    expect(minSamplesFor(0)).toBe(1);
    expect(['p50', 'p90', 'p99', 'p999', 'p(99.5)', 'max', 'mean', 'count'].map(minSamplesForStat)).toEqual([
      2, 10, 100, 1000, 200, 1, 1, 1,
    ]);
  });
});

describe('lnGamma / lnChoose', () => {
  it('match factorials', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12);
    expect(lnGamma(11)).toBeCloseTo(Math.log(3628800), 10);
    expect(Math.exp(lnChoose(20, 10))).toBeCloseTo(184756, 4);
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });
});

describe('wilsonInterval', () => {
  it('is the Wilson score interval at 95%', () => {
    const i = wilsonInterval(3, 4);
    expect(i.low).toBeCloseTo(0.3006, 3);
    expect(i.high).toBeCloseTo(0.9544, 3);
    // 4 of 4 is not "certainly 100%": the lower bound is about 51%.
    expect(wilsonInterval(4, 4)).toEqual({ low: expect.closeTo(0.5101, 3), high: 1 });
    expect(wilsonInterval(0, 4)).toEqual({ low: 0, high: expect.closeTo(0.4899, 3) });
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    const wide = wilsonInterval(50, 100);
    expect(wide.low).toBeCloseTo(0.4038, 3);
    expect(wide.high).toBeCloseTo(0.5962, 3);
  });
});

describe('fisherGreater (one-sided Fisher exact test)', () => {
  it('gives the hypergeometric upper tail', () => {
    // 1/10 vs 8/10: P(X >= 8), X ~ H(N 20, K 9, n 10) = (9 x 55 + 11) / 184756 (R: fisher.test(..., alternative = "greater")).
    expect(fisherGreater(1, 10, 8, 10)).toBeCloseTo(506 / 184756, 10);
    // 5/10 vs 5/10: (1 + P(X = 5)) / 2 by symmetry.
    expect(fisherGreater(5, 10, 5, 10)).toBeCloseTo((1 + 63504 / 184756) / 2, 10);
    // The other direction is not evidence.
    expect(fisherGreater(8, 10, 1, 10)).toBeGreaterThan(0.99);
  });

  it('is 1 when a group is empty or no (or every) item is an event', () => {
    expect(fisherGreater(0, 10, 0, 10)).toBe(1);
    expect(fisherGreater(0, 0, 3, 10)).toBe(1);
    expect(fisherGreater(10, 10, 10, 10)).toBe(1);
  });

  it('stays exact and fast on large counts (agrees with the normal approximation)', () => {
    // CPU time, not wall time: a worker kept waiting by the rest of the machine is not slow.
    const started = process.cpuUsage();
    const p = fisherGreater(5000, 10_000, 5100, 10_000);
    expect(p).toBeGreaterThan(0.07);
    expect(p).toBeLessThan(0.09); // z-test: 0.0786
    expect(fisherGreater(100_000, 1_000_000, 102_000, 1_000_000)).toBeLessThan(1e-5);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });

  it('knows the smallest p-value the margins allow', () => {
    // 2 events in 200 items split 100/100: at best both are in the second group.
    expect(fisherMinP(2, 100, 100)).toBeCloseTo((100 * 99) / (200 * 199), 10);
    expect(fisherMinP(0, 100, 100)).toBe(1);
  });
});

describe('taroneSignificant', () => {
  it('corrects only over the tests that could reach significance', () => {
    const hopeless = { pValue: 1, minP: 0.25 };
    // One strong test among hopeless ones keeps the full alpha.
    expect(taroneSignificant([{ pValue: 0.008, minP: 1e-6 }, hopeless, hopeless, hopeless], 0.01)).toEqual({
      significant: [true, false, false, false],
      k: 1,
    });
    // Three testable ones share it: alpha / 3.
    const r = taroneSignificant(
      [
        { pValue: 0.004, minP: 1e-6 },
        { pValue: 0.002, minP: 1e-6 },
        { pValue: 0.5, minP: 1e-6 },
      ],
      0.01,
    );
    expect(r.k).toBe(3);
    expect(r.significant).toEqual([false, true, false]);
    expect(taroneSignificant([], 0.01)).toEqual({ significant: [], k: 1 });
  });
});
