/**
 * Send delay of the open model: actual send time minus intended send time, per request.
 *
 * Latency is measured from the intended start (coordinated omission is not hidden), so a
 * generator that cannot keep up inflates the figures itself. The send delay tells which side
 * was slow: when its p99 exceeds {@link GENERATOR_BOUND_P99_MS} (10 ms) the run is
 * generator-bound and its latency figures are suspect.
 * Recorded in an HDR histogram of integer microseconds (1 us .. 1 h, 3 significant digits).
 */
import * as hdr from 'hdr-histogram-js';
import {
  minSamplesFor,
  msToClampedUs,
  newLatencyHistogram,
  summarizeHistogram,
  type LatencySummary,
} from '../metrics/index.js';
import { formatMs } from '../units.js';

/** p99 send delay above which a run is generator-bound, ms. */
const GENERATOR_BOUND_P99_MS = 10;

/** The send-delay distribution, ms: a latency summary without `min`. */
export type SendDelaySummary = Omit<LatencySummary, 'min'>;

export interface GeneratorVerdict {
  generatorBound: boolean;
  /** Send delay p99, ms. */
  p99Ms: number;
  limitMs: number;
  /** One line for the console and the report. */
  message: string;
}

/** Intended-vs-actual start of each request, in the same HDR form as the latency metrics. */
export class SendDelayRecorder {
  readonly #h = newLatencyHistogram();

  /** Records one send delay, ms (negative, an early timer, counts as 1 us). */
  recordMs(ms: number): void {
    const us = msToClampedUs(ms);
    if (us !== undefined) this.#h.recordValue(us);
  }

  get count(): number {
    return this.#h.totalCount;
  }

  percentileMs(p: number): number {
    return this.#h.totalCount === 0 ? 0 : Math.round(this.#h.getValueAtPercentile(p)) / 1000;
  }

  summary(): SendDelaySummary {
    const { min: _min, ...summary } = summarizeHistogram(this.#h);
    return summary;
  }

  /** Adds every value of `other` (runs of a capacity search). */
  merge(other: SendDelayRecorder): this {
    this.#h.add(other.#h);
    return this;
  }

  /** HDR compressed base64 (values in us), like the report's latency histograms. */
  encode(): string {
    return hdr.encodeIntoCompressedBase64(this.#h);
  }
}

/**
 * Judges a send-delay summary: generator-bound when p99 > `limitMs` (default 10 ms). With fewer
 * samples than a p99 needs (100) it is judged on the max, as every percentile is below its count
 * (the summary prints `—` for that p99, so the verdict must not quote one).
 */
export function generatorVerdict(summary: SendDelaySummary, limitMs = GENERATOR_BOUND_P99_MS): GeneratorVerdict {
  const enough = summary.count >= minSamplesFor(99);
  const value = enough ? summary.p99 : summary.max;
  const stat = enough ? 'p99' : `max (${summary.count} samples, too few for a p99)`;
  const generatorBound = summary.count > 0 && value > limitMs;
  return {
    generatorBound,
    p99Ms: summary.p99,
    limitMs,
    message: generatorBound
      ? `generator-bound: send delay ${stat} ${formatMs(value)} > ${formatMs(limitMs)}; the load generator could not keep up, so the latency figures are suspect (lower the rate, or run the generator on more cores)`
      : `send delay ${stat} ${formatMs(value)} <= ${formatMs(limitMs)}: the generator kept up`,
  };
}
