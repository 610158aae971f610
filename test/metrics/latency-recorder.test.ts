import { describe, expect, it } from 'vitest';
import { LatencyRecorder, LIMITS_MS, MAX_US, msToClampedUs } from '../../src/metrics/index.js';

function oneToThousand(metric: 'ack' | 'answer' | 'sync' = 'answer'): LatencyRecorder {
  const rec = new LatencyRecorder();
  for (let ms = 1; ms <= 1000; ms++) rec.recordMs(metric, ms);
  return rec;
}

const close = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected) / expected).toBeLessThan(0.001 + 1e-9);
};

describe('LatencyRecorder', () => {
  it('summarises 1..1000 ms within 3 significant digits', () => {
    const s = oneToThousand().summary('answer');
    expect(s.count).toBe(1000);
    close(s.p50, 500);
    close(s.p90, 900);
    close(s.p99, 990);
    close(s.p999, 999);
    close(s.max, 1000);
    expect(s.min).toBe(1);
    close(s.mean, 500.5);
    expect(Number((s.p99 * 1000).toFixed(6)) % 1).toBe(0); // 3 decimals: integer us
  });

  it('keeps metrics apart and returns zeros when empty', () => {
    const rec = oneToThousand('ack');
    expect(rec.summary('sync')).toEqual({ count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0 });
    expect(rec.count('ack')).toBe(1000);
    expect(rec.percentileMs('sync', 99)).toBe(0);
  });

  it('clamps to 1 us .. 1 h and ignores NaN', () => {
    expect(msToClampedUs(-5)).toBe(1);
    expect(msToClampedUs(0.0004)).toBe(1);
    expect(msToClampedUs(2.5)).toBe(2500);
    expect(msToClampedUs(10 * 3_600_000)).toBe(MAX_US);
    expect(msToClampedUs(Number.POSITIVE_INFINITY)).toBe(MAX_US);
    expect(msToClampedUs(Number.NaN)).toBeUndefined();
    const rec = new LatencyRecorder();
    rec.recordMs('sync', -1);
    rec.recordMs('sync', 5 * 3_600_000);
    rec.recordMs('sync', Number.NaN);
    const s = rec.summary('sync');
    expect(s.count).toBe(2);
    expect(s.min).toBe(0.001);
    close(s.max, 3_600_000);
  });

  it('round-trips through HDR compressed base64 keeping counts and percentiles', () => {
    const rec = oneToThousand('ack');
    rec.recordMs('sync', 42);
    const encoded = rec.encodeAll();
    expect(encoded.ack).toMatch(/^[A-Za-z0-9+/=]+$/);
    const back = LatencyRecorder.fromEncoded(encoded);
    expect(back.summary('ack')).toEqual(rec.summary('ack'));
    expect(back.summary('sync')).toEqual(rec.summary('sync'));
    expect(back.summary('answer').count).toBe(0);
    expect(LatencyRecorder.decode(encoded.ack).totalCount).toBe(1000);
    expect(LatencyRecorder.fromEncoded({ sync: encoded.sync }).count('ack')).toBe(0);
  });

  it('merges another recorder: counts add, percentiles of the union', () => {
    const low = new LatencyRecorder();
    const high = new LatencyRecorder();
    for (let ms = 1; ms <= 500; ms++) low.recordMs('sync', ms);
    for (let ms = 501; ms <= 1000; ms++) high.recordMs('sync', ms);
    low.merge(LatencyRecorder.fromEncoded({ sync: high.encode('sync') }));
    const s = low.summary('sync');
    expect(s.count).toBe(1000);
    close(s.p50, 500);
    close(s.p99, 990);
    close(s.max, 1000);
  });

  it('carries the spec limits in ms', () => {
    expect(LIMITS_MS).toEqual({ ack: 100, answer: 180_000, sync: 180_000, reply: 180_000, ackServer: 100 });
  });
});
