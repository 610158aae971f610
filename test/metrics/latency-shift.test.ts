/** The quantile test over real HDR histograms (recorded, encoded, decoded as reports carry them). */
import { describe, expect, it } from 'vitest';
import { LatencyRecorder, histogramBuckets, pooledPercentileUs, quantileShiftTest } from '../../src/metrics/index.js';
import { mulberry32 } from '../../src/random.js';
import { logNormal } from '../report/fixtures.js';

/** `n` answer latencies around `median` ms, recorded, then decoded from the report's base64. */
function buckets(seed: number, n: number, median = 35) {
  const random = mulberry32(seed);
  const rec = new LatencyRecorder();
  for (let i = 0; i < n; i++) rec.recordMs('answer', logNormal(random, median, 0.6));
  return LatencyRecorder.fromEncoded({ answer: rec.encode('answer') }).buckets('answer');
}

describe('histogramBuckets', () => {
  it('lists every recorded value once, ascending, and survives encode/decode', () => {
    const rec = new LatencyRecorder();
    for (const ms of [1, 1, 2.5, 100, 100, 100, 2000]) rec.recordMs('sync', ms);
    const b = rec.buckets('sync');
    expect(b.map((x) => x.count)).toEqual([2, 1, 3, 1]);
    // Bucket values are HDR's highest equivalent values: within 0.1% of what was recorded.
    [1, 2.5, 100, 2000].forEach((ms, i) => expect(Math.abs(b[i]!.valueUs / 1000 - ms) / ms).toBeLessThan(0.001));
    expect(LatencyRecorder.fromEncoded({ sync: rec.encode('sync') }).buckets('sync')).toEqual(b);
    expect(rec.buckets('ack')).toEqual([]);
    expect(histogramBuckets(LatencyRecorder.decode(rec.encode('sync'))).reduce((n, x) => n + x.count, 0)).toBe(7);
  });
});

describe('quantileShiftTest', () => {
  it('pools both samples for the pivot', () => {
    const a = [{ valueUs: 1000, count: 5 }];
    const b = [{ valueUs: 3000, count: 5 }];
    expect(pooledPercentileUs(a, b, 50)).toBe(1000);
    expect(pooledPercentileUs(a, b, 60)).toBe(3000);
  });

  it('rarely calls two samples of one distribution different (false alarms at about the p-value)', () => {
    for (const n of [16, 500]) {
      let significant = 0;
      for (let i = 0; i < 60; i++) {
        if (quantileShiftTest(buckets(10 + 2 * i, n), buckets(11 + 2 * i, n), 50).pValue < 0.01) significant += 1;
      }
      expect(significant).toBeLessThanOrEqual(2);
    }
  });

  it('finds a real 2x slowdown at p50 and p90 on 500 samples, and not the reverse', () => {
    const base = buckets(1, 500);
    const slower = buckets(2, 500, 70);
    expect(quantileShiftTest(base, slower, 50).pValue).toBeLessThan(1e-10);
    expect(quantileShiftTest(base, slower, 90).pValue).toBeLessThan(1e-4);
    expect(quantileShiftTest(slower, base, 50).pValue).toBeGreaterThan(0.99);
  });

  it('cannot tell a p99 from 100 samples apart: its smallest p-value is large', () => {
    const t = quantileShiftTest(buckets(3, 100), buckets(4, 100, 70), 99);
    expect(t.baseAbove + t.currentAbove).toBeLessThanOrEqual(2);
    expect(t.minP).toBeGreaterThan(0.2);
    expect(quantileShiftTest([], buckets(5, 10), 50)).toMatchObject({ pValue: 1, minP: 1 });
  });
});
