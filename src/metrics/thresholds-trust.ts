/**
 * When droidcheck does not trust its own latency figures, and so does not judge a latency
 * threshold on them (thresholds.ts: status `not-judged`, exit 98; docs/exit-codes.md,
 * docs/statistics.md "Figures droidcheck does not trust").
 *
 * The one generator-bound rule, read by runs, shards, merges, capacity steps and `compare`:
 *
 * 1. **How much the figures may be off.** Latency is measured from the intended start
 *    (coordinated omission is not hidden), so the open model's send delay (actual minus intended
 *    start) is inside every latency figure. Its size is the send delay at the highest
 *    percentile the sample supports (sample-size.ts): p99 from 100 samples, p90 from 10, p50
 *    from 2; never the max of a small sample, which is one hiccup, not the generator's pace.
 * 2. **Bound.** The generator is bound when that size exceeds {@link GENERATOR_BOUND_MS} (10 ms).
 * 3. **Not judged.** A latency threshold (`ack|answer|sync|reply|ackServer` and `turn<N>.*`, any
 *    statistic but `.count`) of a bound run is left `not judged` only when the send delay could
 *    change its verdict: its figure lies within that size of its limit. A 328 ms answer against
 *    180 s is judged whatever a 15 ms send delay did; a 95 ms ack p99 against 100 ms under a
 *    45 ms send delay is not.
 *
 * A merged report applies the rule to its pooled send-delay histogram (the figures it judges
 * are pooled too). Rates and counts (outcome rates, dropped arrivals, receiver counters,
 * `*.count`) do not depend on when a request was measured, so they are always judged.
 *
 * What is deliberately not a condition, and why:
 * - clock skew between machines (`--deliveries`, the doctor's clock check): ack, sync and reply
 *   are measured by one process on one monotonic clock, and the answer latency of a stream is
 *   mapped through Redis TIME, so the skew does not enter any latency (docs/scale.md);
 * - arrivals dropped at the in-flight cap: the requests sent were measured on time; the drops are
 *   judged by their own threshold (`load.dropped.rate < 1%`).
 */
import { formatMs } from '../units.js';
import { minSamplesFor } from './sample-size.js';

/** Send delay (at the statistic {@link sendDelaySize} picks) above which the generator is bound, ms. */
const GENERATOR_BOUND_MS = 10;

/**
 * Every condition under which latency figures are not trusted, with what it means:
 * - `generator-bound`: the open model's send delay exceeded its limit (module docs): latency is
 *   measured from the intended start, so the generator's own lag is inside every figure, and a
 *   busy event loop also stamps answers late.
 */
export const TRUST_CONDITIONS = {
  'generator-bound':
    'the load generator could not keep up (send delay above its limit): its own lag is inside every latency',
} as const;
type TrustCondition = keyof typeof TRUST_CONDITIONS;

/** The send-delay statistics the rule may read, highest first. */
const SIZE_STATS = [
  ['p99', 99],
  ['p90', 90],
  ['p50', 50],
] as const;
type SendDelayStat = (typeof SIZE_STATS)[number][0];

/** What the rule reads of a send-delay distribution, ms (a report's `load.sendDelay` fits). */
export interface SendDelayFigures {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** How much the latency figures may be too high: the send delay at `stat`, ms. */
interface SendDelaySize {
  stat: SendDelayStat;
  ms: number;
}

/**
 * The send delay's size (module docs, 1): the highest of p99, p90, p50 that `d.count` supports;
 * undefined below 2 samples (nothing but a max, which the rule never reads alone).
 */
function sendDelaySize(d: SendDelayFigures): SendDelaySize | undefined {
  const found = SIZE_STATS.find(([, p]) => d.count >= minSamplesFor(p));
  return found && { stat: found[0], ms: d[found[0]] };
}

/** The generator's verdict on one send-delay distribution (a report's `load.generator`). */
export interface GeneratorVerdict {
  generatorBound: boolean;
  /** Send delay p99, ms (as measured, whether or not the count supports it). */
  p99Ms: number;
  limitMs: number;
  /** How much every latency figure may be too high (module docs, 1); absent below 2 samples. */
  offBy?: SendDelaySize;
  /** One line for the console and the report. */
  message: string;
}

/**
 * Judges a send-delay distribution by the one rule (module docs): bound when its size exceeds
 * `limitMs` (default {@link GENERATOR_BOUND_MS}). The message says by how much the latency
 * figures may be off.
 */
export function generatorVerdict(d: SendDelayFigures, limitMs = GENERATOR_BOUND_MS): GeneratorVerdict {
  const size = sendDelaySize(d);
  const limit = formatMs(limitMs);
  const base = { p99Ms: d.p99, limitMs, ...(size && { offBy: size }) };
  if (!size)
    return {
      ...base,
      generatorBound: false,
      message: `send delay of ${d.count} sample${d.count === 1 ? '' : 's'}: too few to judge the generator`,
    };
  const figure = `send delay ${size.stat} ${formatMs(size.ms)}`;
  const samples = size.stat === 'p99' ? '' : ` (${d.count} samples, too few for a p99)`;
  if (size.ms > limitMs)
    return {
      ...base,
      generatorBound: true,
      message: `generator-bound: ${figure} > ${limit}${samples}: the load generator could not keep up, so latency figures may be up to ${formatMs(size.ms)} too high; a latency threshold that close to its limit is not judged (lower the rate, or run the generator on more cores)`,
    };
  return {
    ...base,
    generatorBound: false,
    message: `${figure} <= ${limit}${samples}: the generator kept up; latency figures may be up to ${formatMs(size.ms)} too high`,
  };
}

/** One condition that held in a run, and the run's figure behind it in one phrase. */
export interface Distrust {
  condition: TrustCondition;
  /** E.g. `send delay p99 45.2 ms > 10 ms, figures up to 45.2 ms too high`. */
  reason: string;
  /** How much the latency figures may be off, ms: a threshold this close to its limit is not judged. */
  offByMs?: number;
}

/** What the conditions are read from: a report's load section fits (report/sections/load.ts). */
export interface TrustFigures {
  load?: {
    /** The open model's send delay, ms. */
    readonly sendDelay?: SendDelayFigures;
    /** The generator's verdict as the report stored it (used when the send delay is absent). */
    readonly generator?: { readonly generatorBound: boolean; readonly p99Ms?: number; readonly limitMs: number };
  };
}

/**
 * The trust conditions that held in `figures`, in TRUST_CONDITIONS' order; empty when the
 * figures are trusted. The verdict is the rule's on the send delay (so a report written by an
 * older rule is judged by this one), the stored flag only when no send delay was kept.
 */
export function distrustOf(figures: TrustFigures): Distrust[] {
  const load = figures.load;
  if (!load) return [];
  if (load.sendDelay) {
    const v = generatorVerdict(load.sendDelay, load.generator?.limitMs);
    if (!v.generatorBound || !v.offBy) return [];
    const size = formatMs(v.offBy.ms);
    return [
      {
        condition: 'generator-bound',
        reason: `send delay ${v.offBy.stat} ${size} > ${formatMs(v.limitMs)}, figures up to ${size} too high`,
        offByMs: v.offBy.ms,
      },
    ];
  }
  const g = load.generator;
  if (!g?.generatorBound) return [];
  return [
    {
      condition: 'generator-bound',
      reason: `send delay above ${formatMs(g.limitMs)}`,
      ...(g.p99Ms !== undefined && { offByMs: g.p99Ms }),
    },
  ];
}

/**
 * The conditions of `list` under which a latency figure `actual` against `limit` (same unit,
 * ms) could have another verdict: those whose size reaches the limit from the figure (a
 * condition without a size: always).
 */
export function doubtsAbout(list: readonly Distrust[], actual: number, limit: number): Distrust[] {
  return list.filter((d) => d.offByMs === undefined || Math.abs(actual - limit) <= d.offByMs);
}

/** `generator-bound, send delay p99 45.2 ms > 10 ms, ...` (several joined by `; `). */
export function distrustText(list: readonly Distrust[]): string {
  return list.map((d) => `${d.condition}, ${d.reason}`).join('; ');
}
