/**
 * When droidcheck does not trust its own latency figures, and so does not judge a latency
 * threshold on them (thresholds.ts: status `not-judged`, exit 98; docs/exit-codes.md,
 * docs/statistics.md "Figures droidcheck does not trust").
 *
 * TRUST_CONDITIONS is the one list of them. Each is a condition the run itself detected and
 * already warns about; a threshold on a latency (`ack|answer|sync|reply|ackServer` and
 * `turn<N>.*`, any statistic but `.count`) is then reported `not judged: <condition>, <reason>`
 * in every format instead of passed or breached. Rates and counts (outcome rates, dropped
 * arrivals, receiver counters, `*.count`) do not depend on when a request was measured, so they
 * are still judged.
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

/**
 * Every condition under which latency figures are not trusted, with what it means:
 * - `generator-bound`: the open model's send delay (intended vs actual start of each request)
 *   exceeded its limit, p99 > 10 ms (runner/send-delay.ts): latency is measured from the intended
 *   start, so the generator's own lag is inside every figure, and a busy event loop also stamps
 *   answers late.
 */
export const TRUST_CONDITIONS = {
  'generator-bound':
    'the load generator could not keep up (send delay above its limit): its own lag is inside every latency',
} as const;
type TrustCondition = keyof typeof TRUST_CONDITIONS;

/** One condition that held in a run, and the run's figure behind it in one phrase. */
export interface Distrust {
  condition: TrustCondition;
  /** E.g. `send delay p99 45.2 ms > 10 ms`. */
  reason: string;
}

/** What the conditions are read from: a report's load section fits (report/sections/load.ts). */
export interface TrustFigures {
  load?: {
    /** The open model's send delay, ms. */
    readonly sendDelay?: { readonly count: number; readonly p99: number; readonly max: number };
    /** The generator's verdict (merged reports: bound when any shard's was). */
    readonly generator?: { readonly generatorBound: boolean; readonly limitMs: number };
  };
}

/**
 * The send delay behind a bound verdict, as the verdict judged it: the p99 from 100 samples,
 * the max below that (send-delay.ts); a merged report whose pooled figure is within the limit
 * was bound on some shard only.
 */
function sendDelayReason(load: NonNullable<TrustFigures['load']>, limitMs: number): string {
  const d = load.sendDelay;
  const limit = formatMs(limitMs);
  if (d && d.count >= minSamplesFor(99) && d.p99 > limitMs) return `send delay p99 ${formatMs(d.p99)} > ${limit}`;
  if (d && d.count > 0 && d.count < minSamplesFor(99) && d.max > limitMs)
    return `send delay max ${formatMs(d.max)} > ${limit} (${d.count} samples, too few for a p99)`;
  return `send delay above ${limit} on some shard`;
}

/** The trust conditions that held in `figures`, in TRUST_CONDITIONS' order; empty when the figures are trusted. */
export function distrustOf(figures: TrustFigures): Distrust[] {
  const g = figures.load?.generator;
  if (!figures.load || !g?.generatorBound) return [];
  return [{ condition: 'generator-bound', reason: sendDelayReason(figures.load, g.limitMs) }];
}

/** `generator-bound, send delay p99 45.2 ms > 10 ms` (several joined by `; `). */
export function distrustText(list: readonly Distrust[]): string {
  return list.map((d) => `${d.condition}, ${d.reason}`).join('; ');
}
