/**
 * Arrival schedule of the open model: stages of arrival rate -> intended send times.
 *
 * Like k6's `ramping-arrival-rate` executor: the rate starts at `startRate` (req/s) and each
 * stage moves it linearly to its `target` (req/s) over its `durationMs`; a constant rate is one
 * stage whose start and target are equal. Arrival n (0-based) is intended at the time t (ms
 * from the start) where the integral of the rate reaches n, so the times are exact for linear
 * ramps (no per-tick rounding): within a stage rate(t) = r0 + (r1 - r0) t / D (per ms), its
 * integral N(t) = r0 t + (r1 - r0) t^2 / (2 D), solved for t in closed form.
 */
import { UsageError } from '../errors.js';
import { durationMs, durationProblem } from '../units.js';
import { WHOLE, shareOf, wholeIndex, type Segment } from './segments.js';

/** One stage: move the arrival rate to `target` req/s over `durationMs` ms. */
export interface Stage {
  durationMs: number;
  /** req/s at the end of the stage. */
  target: number;
}

/** One stage of the schedule as a piece of the rate function (not an execution segment). */
interface RateSegment {
  /** ms from the start of the schedule. */
  startMs: number;
  durationMs: number;
  /** req/ms at the segment's start and end. */
  r0: number;
  r1: number;
  /** Arrivals (integral of the rate) before this segment, and within it. */
  before: number;
  count: number;
}

/** Expected arrivals (integral of the rate) over the stages; exact for linear ramps. */
export function expectedArrivals(startRate: number, stages: readonly Stage[]): number {
  let rate = startRate;
  let total = 0;
  for (const s of stages) {
    total += ((rate + s.target) / 2) * (s.durationMs / 1000);
    rate = s.target;
  }
  return total;
}

/**
 * Iterates intended send times (ms from the schedule's start, ascending) of every arrival, or,
 * with an execution segment (`load --shard i/n`, segments.ts), of the arrivals k of the whole
 * schedule with k mod n = i - 1, at the whole schedule's times. `next()` returns undefined after
 * the last one. Allocation-free per arrival.
 */
export class ArrivalSchedule {
  readonly durationMs: number;
  /** Number of arrivals the schedule yields: its segment's share of the whole's. */
  readonly total: number;
  /** Number of arrivals of the whole schedule (ceil of the rate's integral). */
  readonly wholeTotal: number;
  readonly segment: Segment;
  readonly #segments: RateSegment[] = [];
  #seg = 0;
  #n = 0;

  /** Throws UsageError (DROIDCHECK_ERR_USAGE) for a negative rate or duration. */
  constructor(startRate: number, stages: readonly Stage[], segment: Segment = WHOLE) {
    if (!(startRate >= 0) || !Number.isFinite(startRate))
      throw new UsageError(`start rate ${startRate} must be a number >= 0 (req/s)`);
    let t = 0;
    let before = 0;
    let r = startRate / 1000;
    for (const s of stages) {
      if (!(s.durationMs >= 0) || !Number.isFinite(s.durationMs))
        throw new UsageError(`stage duration ${s.durationMs} ms must be >= 0`);
      if (!(s.target >= 0) || !Number.isFinite(s.target))
        throw new UsageError(`stage target ${s.target} must be a rate >= 0 (req/s)`);
      const r1 = s.target / 1000;
      const count = ((r + r1) / 2) * s.durationMs;
      this.#segments.push({ startMs: t, durationMs: s.durationMs, r0: r, r1, before, count });
      t += s.durationMs;
      before += count;
      r = r1;
    }
    this.durationMs = t;
    // Guard against float noise: an integral of 199.9999999 is 200 arrivals.
    this.wholeTotal = Math.ceil(before - 1e-9);
    this.segment = segment;
    this.total = shareOf(this.wholeTotal, segment);
  }

  /** Intended time of arrival n of the whole schedule (ms from start); undefined when n >= wholeTotal. */
  timeOf(n: number): number | undefined {
    if (n >= this.wholeTotal || n < 0) return undefined;
    while (this.#seg > 0 && n < this.#segments[this.#seg]!.before) this.#seg -= 1;
    let seg = this.#segments[this.#seg];
    while (seg && n >= seg.before + seg.count && this.#seg < this.#segments.length - 1) {
      this.#seg += 1;
      seg = this.#segments[this.#seg];
    }
    if (!seg) return undefined;
    const k = n - seg.before;
    const { r0, r1, durationMs: d } = seg;
    let t: number;
    if (Math.abs(r1 - r0) < 1e-15) {
      t = r0 > 0 ? k / r0 : 0;
    } else {
      // a t^2 + r0 t - k = 0 with a = (r1 - r0) / (2 d); the stable root 2k / (r0 + sqrt(r0^2 + 4ak)).
      const a = (r1 - r0) / (2 * d);
      const disc = Math.max(0, r0 * r0 + 4 * a * k);
      const den = r0 + Math.sqrt(disc);
      t = den > 0 ? (2 * k) / den : 0;
    }
    return seg.startMs + Math.min(Math.max(t, 0), d);
  }

  /** The segment's next arrival's intended time (ms from start), or undefined when the schedule is over. */
  next(): number | undefined {
    if (this.#n >= this.total) return undefined;
    const t = this.timeOf(wholeIndex(this.segment, this.#n));
    if (t !== undefined) this.#n += 1;
    return t;
  }

  /** Arrivals yielded so far. */
  get yielded(): number {
    return this.#n;
  }
}

/**
 * Parses `--stages`: comma-separated `<duration>:<target req/s>`, e.g. `10s:100,30s:100,10s:0`
 * (k6 stages). Throws UsageError (DROIDCHECK_ERR_USAGE) naming the bad item.
 */
export function parseStages(text: string): Stage[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0)
    throw new UsageError('--stages: empty; write e.g. 10s:100,30s:100,10s:0 (duration:target req/s)');
  return items.map((item) => {
    const m = /^([^:]+):\s*(\d+(?:\.\d+)?)\s*$/.exec(item);
    if (!m) throw new UsageError(`--stages: "${item}" is not <duration>:<rate>; write e.g. 30s:200`);
    const problem = durationProblem(m[1]!.trim());
    if (problem) throw new UsageError(`--stages: ${problem}`);
    return { durationMs: durationMs(m[1]!.trim())!, target: Number(m[2]) };
  });
}

/** `--rate R --duration D` as stages: one constant stage. */
export function constantRate(rate: number, durationMs: number): { startRate: number; stages: Stage[] } {
  return { startRate: rate, stages: [{ durationMs, target: rate }] };
}
