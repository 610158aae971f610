import { describe, expect, it } from 'vitest';
import { ArrivalSchedule, expectedArrivals, parseStages } from '../../src/runner/arrival-schedule.js';
import { rateAtFn } from '../../src/runner/engine.js';

const rateAt = (startRate: number, stages: { durationMs: number; target: number }[], t: number): number =>
  rateAtFn(startRate, stages)(t);

function all(s: ArrivalSchedule): number[] {
  const out: number[] = [];
  for (let t = s.next(); t !== undefined; t = s.next()) out.push(t);
  return out;
}

describe('ArrivalSchedule', () => {
  it('spaces a constant rate evenly: 200 req/s for 1 s is 200 arrivals 5 ms apart', () => {
    const times = all(new ArrivalSchedule(200, [{ durationMs: 1000, target: 200 }]));
    expect(times).toHaveLength(200);
    expect(times[0]).toBe(0);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeCloseTo(5, 9);
  });

  it('is exact for a linear ramp: arrival n is where the rate integral reaches n', () => {
    // 0 -> 100 req/s over 10 s: N(t) = 100 t^2 / (2 * 10) with t in s, so t_n = sqrt(n / 5) s.
    const s = new ArrivalSchedule(0, [{ durationMs: 10_000, target: 100 }]);
    const times = all(s);
    expect(times).toHaveLength(500);
    for (const n of [1, 10, 123, 499]) expect(times[n]!).toBeCloseTo(Math.sqrt(n / 5) * 1000, 6);
  });

  it('chains stages (ramp up, hold, ramp down) and yields the integral of the rate', () => {
    const stages = [
      { durationMs: 2000, target: 100 },
      { durationMs: 3000, target: 100 },
      { durationMs: 2000, target: 0 },
    ];
    const s = new ArrivalSchedule(0, stages);
    const times = all(s);
    expect(expectedArrivals(0, stages)).toBe(500);
    expect(times).toHaveLength(500);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    expect(times[100]!).toBeCloseTo(2000, 6); // the ramp up holds 100 arrivals
    expect(times[400]!).toBeCloseTo(5000, 6); // the hold holds 300 more
    expect(times.at(-1)!).toBeLessThanOrEqual(7000);
    // Local rate in the hold: 10 ms apart.
    expect(times[201]! - times[200]!).toBeCloseTo(10, 6);
  });

  it('a zero-rate stage is a pause', () => {
    const times = all(
      new ArrivalSchedule(10, [
        { durationMs: 1000, target: 10 },
        { durationMs: 0, target: 0 },
        { durationMs: 1000, target: 0 },
        { durationMs: 0, target: 10 },
        { durationMs: 1000, target: 10 },
      ]),
    );
    expect(times).toHaveLength(20);
    expect(times[10]!).toBeCloseTo(2000, 6);
  });

  it('rejects negative rates and parses k6-style stages', () => {
    expect(() => new ArrivalSchedule(-1, [])).toThrow(/start rate/);
    expect(parseStages('10s:100, 500ms:0')).toEqual([
      { durationMs: 10_000, target: 100 },
      { durationMs: 500, target: 0 },
    ]);
    expect(() => parseStages('10s')).toThrow(expect.objectContaining({ code: 'DROIDCHECK_ERR_USAGE' }));
    expect(() => parseStages('ten:5')).toThrow(/duration/);
  });

  it('rateAt interpolates the intended rate', () => {
    const stages = [
      { durationMs: 1000, target: 100 },
      { durationMs: 1000, target: 100 },
    ];
    expect(rateAt(0, stages, 500)).toBe(50);
    expect(rateAt(0, stages, 1500)).toBe(100);
    expect(rateAt(0, stages, 5000)).toBe(0);
  });
});
