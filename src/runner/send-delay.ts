/**
 * Send delay of the open model: actual send time minus intended send time, per request.
 *
 * Latency is measured from the intended start (coordinated omission is not hidden), so a
 * generator that cannot keep up inflates the figures itself. The send delay tells which side
 * was slow; the one rule that reads it (when the generator is bound, and which latency
 * thresholds that leaves not judged) is metrics/thresholds-trust.ts `generatorVerdict`.
 * Recorded in an HDR histogram of integer microseconds (1 us .. 1 h, 3 significant digits).
 */
import * as hdr from 'hdr-histogram-js';
import { msToClampedUs, newLatencyHistogram, summarizeHistogram, type LatencySummary } from '../metrics/index.js';

export { generatorVerdict, type GeneratorVerdict } from '../metrics/index.js';

/** The send-delay distribution, ms: a latency summary without `min`. */
export type SendDelaySummary = Omit<LatencySummary, 'min'>;

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
