/**
 * Execution segments (docs/scale.md): `load --shard i/n` splits an arrival rate and its
 * stages exactly. Checked exhaustively over n = 1..8 and several stage lists: the shards'
 * arrivals together are the whole schedule's (same times, each once), every stage (and every
 * prefix of the run) is shared with counts at most one apart, and budgets (virtual users,
 * --max-requests) add up to the whole.
 */
import { describe, expect, it } from 'vitest';
import { ArrivalSchedule, type Stage } from '../../src/runner/arrival-schedule.js';
import { rateAtFn } from '../../src/runner/engine.js';
import { WHOLE, segmentNotation, shareBetween, shareOf, takes, type Segment } from '../../src/runner/segments.js';

const STAGE_LISTS: { name: string; startRate: number; stages: Stage[] }[] = [
  { name: 'constant 200 req/s for 3 s', startRate: 200, stages: [{ durationMs: 3000, target: 200 }] },
  { name: 'ramp 0 -> 300 req/s over 4 s', startRate: 0, stages: [{ durationMs: 4000, target: 300 }] },
  {
    name: 'ramp up, hold, ramp down',
    startRate: 0,
    stages: [
      { durationMs: 2000, target: 100 },
      { durationMs: 3000, target: 100 },
      { durationMs: 2000, target: 0 },
    ],
  },
  {
    name: 'fractional rates and a start rate',
    startRate: 7.3,
    stages: [
      { durationMs: 1700, target: 33.3 },
      { durationMs: 2300, target: 0.7 },
      { durationMs: 900, target: 51 },
    ],
  },
  {
    name: 'jumps and a pause',
    startRate: 10,
    stages: [
      { durationMs: 1000, target: 10 },
      { durationMs: 0, target: 0 },
      { durationMs: 1000, target: 0 },
      { durationMs: 0, target: 80 },
      { durationMs: 1500, target: 80 },
    ],
  },
  { name: 'fewer arrivals than shards', startRate: 3, stages: [{ durationMs: 1000, target: 3 }] },
];

function all(s: ArrivalSchedule): number[] {
  const out: number[] = [];
  for (let t = s.next(); t !== undefined; t = s.next()) out.push(t);
  return out;
}

/** Index of the stage holding time t (a time on a boundary belongs to the later stage, the last stage keeps its end). */
function stageOf(t: number, stages: readonly Stage[]): number {
  let end = 0;
  for (let i = 0; i < stages.length; i++) {
    end += stages[i]!.durationMs;
    if (t < end) return i;
  }
  return stages.length - 1;
}

const segmentsOf = (n: number): Segment[] => Array.from({ length: n }, (_, i) => ({ index: i + 1, total: n }));

describe('execution segments of an arrival schedule', () => {
  for (const { name, startRate, stages } of STAGE_LISTS) {
    for (let n = 1; n <= 8; n++) {
      it(`${name}, ${n} shard${n === 1 ? '' : 's'}: the shards' arrivals are the whole's, each once, shared evenly per stage and per prefix`, () => {
        const whole = all(new ArrivalSchedule(startRate, stages));
        const shards = segmentsOf(n).map((seg) => {
          const schedule = new ArrivalSchedule(startRate, stages, seg);
          const times = all(schedule);
          expect(schedule.total).toBe(times.length);
          expect(schedule.wholeTotal).toBe(whole.length);
          return times;
        });

        // The sum is the whole, to the arrival: shard i's j-th arrival is the whole's arrival i-1 + j*n.
        expect(shards.reduce((sum, s) => sum + s.length, 0)).toBe(whole.length);
        shards.forEach((times, i) => times.forEach((t, j) => expect(t).toBe(whole[i + j * n])));
        const merged = shards.flat().sort((a, b) => a - b);
        expect(merged).toEqual(whole);

        // Every stage: each shard has its share, at most one apart, adding up to the stage's arrivals.
        for (let st = 0; st < stages.length; st++) {
          const counts = shards.map((times) => times.filter((t) => stageOf(t, stages) === st).length);
          const wholeCount = whole.filter((t) => stageOf(t, stages) === st).length;
          expect(counts.reduce((a, b) => a + b, 0)).toBe(wholeCount);
          expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        }

        // Every prefix of the run (by time): the shards' counts are at most one apart.
        const cursor = shards.map(() => 0);
        for (const t of whole) {
          shards.forEach((times, i) => {
            while (cursor[i]! < times.length && times[cursor[i]!]! <= t) cursor[i]! += 1;
          });
          expect(Math.max(...cursor) - Math.min(...cursor)).toBeLessThanOrEqual(1);
        }
      });
    }
  }

  it('the segment of one is the whole schedule', () => {
    const { startRate, stages } = STAGE_LISTS[2]!;
    expect(all(new ArrivalSchedule(startRate, stages, WHOLE))).toEqual(all(new ArrivalSchedule(startRate, stages)));
  });
});

describe('shares of counts (virtual users, request budgets) and rates', () => {
  it('shareOf adds up to the count for every n, and the shares are at most one apart', () => {
    for (let n = 1; n <= 12; n++) {
      for (let count = 0; count <= 200; count++) {
        const shares = segmentsOf(n).map((seg) => shareOf(count, seg));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(count);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        // The rule behind it: item k belongs to the segment with k mod n = i - 1.
        segmentsOf(n).forEach((seg, i) =>
          expect(shares[i]).toBe(Array.from({ length: count }, (_, k) => k).filter((k) => takes(seg, k)).length),
        );
      }
    }
  });

  it('shareBetween counts a range of items, and ranges add up', () => {
    for (let n = 1; n <= 6; n++) {
      for (const seg of segmentsOf(n)) {
        for (let from = 0; from <= 30; from++) {
          for (let to = from; to <= 30; to += 7)
            expect(shareBetween(from, to, seg)).toBe(shareOf(to, seg) - shareOf(from, seg));
        }
      }
    }
    expect(shareBetween(5, 3, { index: 1, total: 2 })).toBe(0);
  });

  it("names segments in k6's notation", () => {
    expect(segmentsOf(4).map(segmentNotation)).toEqual(['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1']);
    expect(segmentNotation(WHOLE)).toBe('0:1');
  });

  it("a shard's intended rate is the whole's over n, so the shards' rates add up to the whole's", () => {
    const { startRate, stages } = STAGE_LISTS[2]!;
    for (const t of [0, 500, 2000, 3500, 6000, 7000]) {
      const whole = rateAtFn(startRate, stages)(t);
      expect(rateAtFn(startRate, stages, 3)(t) * 3).toBeCloseTo(whole, 9);
    }
  });
});
