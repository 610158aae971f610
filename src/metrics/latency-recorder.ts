/**
 * HDR histograms of the latencies droidcheck measures (docs/architecture.md, Measurements):
 * `ack` (async acknowledgement, client side), `answer` (async webhook accepted), `sync` (sync
 * response), `reply` (a `send` to the bot's reply on the message-forwarding webhook) and
 * `ackServer` (the acknowledgement minus the measured network round trip: the server-side
 * estimate of a remote target). Values are recorded as integer microseconds (1 us .. 1 h, 3
 * significant digits) and read back in milliseconds with 3 decimals.
 */
import * as hdr from 'hdr-histogram-js';

export type LatencyMetric = 'ack' | 'answer' | 'sync' | 'reply' | 'ackServer';
export const LATENCY_METRICS: readonly LatencyMetric[] = ['ack', 'answer', 'sync', 'reply', 'ackServer'];

/**
 * The service's latency limits in ms (spec: Limits; endpoints 8 and 9):
 * - `ack`, `ackServer`: "Async acknowledgement: under 100 ms" (get-droid-answer-async);
 * - `answer`: "Async processing time: 10 to 180 seconds" (webhook after the acknowledgement);
 * - `sync`: "Synchronous answer time: 10 to 180 seconds" (get-droid-answer);
 * - `reply`: the bot's reply to `send` is an AI answer too: the same 180 s.
 */
export const LIMITS_MS: Readonly<Record<LatencyMetric, number>> = {
  ack: 100,
  answer: 180_000,
  sync: 180_000,
  reply: 180_000,
  ackServer: 100,
};

/** Metrics every latency table shows (even empty: "no samples"); the others only when they have values. */
const CORE_METRICS: readonly LatencyMetric[] = ['ack', 'answer', 'sync'];

/** The metrics a table shows for `latency`: the core three, and `reply`/`ackServer` when measured. */
export function shownMetrics(latency: Readonly<Record<LatencyMetric, { count: number }>>): LatencyMetric[] {
  return LATENCY_METRICS.filter((m) => CORE_METRICS.includes(m) || (latency[m]?.count ?? 0) > 0);
}

/** A fresh record of one value per metric. */
export function perLatencyMetric<T>(make: (m: LatencyMetric) => T): Record<LatencyMetric, T> {
  return Object.fromEntries(LATENCY_METRICS.map((m) => [m, make(m)])) as Record<LatencyMetric, T>;
}

/** A latency distribution in ms (3 decimals). All zeros when `count` is 0. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  min: number;
  mean: number;
}

/** Smallest and largest recordable value, microseconds (1 us and 1 h). */
const MIN_US = 1;
export const MAX_US = 3_600_000_000;

/** One HDR histogram of microseconds, 1 us .. 1 h, 3 significant digits (docs/architecture.md). */
export function newLatencyHistogram(): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: MAX_US,
    numberOfSignificantValueDigits: 3,
    autoResize: false,
  });
}

const usToMs = (us: number): number => Math.round(us) / 1000;

/** Converts ms to integer us, clamped to 1 us .. 1 h. Returns undefined for NaN. */
export function msToClampedUs(ms: number): number | undefined {
  if (Number.isNaN(ms)) return undefined;
  const us = Math.round(ms * 1000);
  return Math.min(MAX_US, Math.max(MIN_US, us));
}

/**
 * count, p50, p90, p99, p99.9, max, min, mean of a microsecond histogram, in ms (3 decimals);
 * zeros when empty. max and min are bucket bounds, so they survive encode/decode and merge.
 */
export function summarizeHistogram(h: hdr.Histogram): LatencySummary {
  const count = h.totalCount;
  if (count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0 };
  return {
    count,
    p50: usToMs(h.getValueAtPercentile(50)),
    p90: usToMs(h.getValueAtPercentile(90)),
    p99: usToMs(h.getValueAtPercentile(99)),
    p999: usToMs(h.getValueAtPercentile(99.9)),
    max: usToMs(h.getValueAtPercentile(100)),
    min: usToMs(h.getValueAtPercentile(0)),
    mean: usToMs(h.mean),
  };
}

/** One HDR bucket: its value (us, the bucket's highest equivalent value) and how many samples fell in it. */
export interface HistogramBucket {
  valueUs: number;
  count: number;
}

/**
 * The non-empty buckets of a histogram, ascending by value (us). Empty for an empty histogram.
 * Used by two-sample tests over whole distributions (latency-shift.ts).
 */
export function histogramBuckets(h: hdr.Histogram): HistogramBucket[] {
  if (h.totalCount === 0) return [];
  if (!(h instanceof hdr.JsHistogram))
    throw new TypeError('histogramBuckets needs a JS histogram (hdr-histogram-js without WebAssembly)');
  const it = h.recordedValuesIterator;
  it.reset();
  const out: HistogramBucket[] = [];
  while (it.hasNext()) {
    const v = it.next();
    if (v.countAtValueIteratedTo > 0) out.push({ valueUs: v.valueIteratedTo, count: v.countAtValueIteratedTo });
  }
  return out;
}

/**
 * One HDR histogram per {@link LatencyMetric}.
 * `recordMs(metric, ms)` clamps to 1 us .. 1 h (a negative or zero time from clock skew counts
 * as 1 us; NaN is ignored). Summaries and percentiles are in ms.
 */
export class LatencyRecorder {
  private readonly histograms: Record<LatencyMetric, hdr.Histogram> = perLatencyMetric(() => newLatencyHistogram());
  /**
   * The answer turns of conversations (`say` steps) by turn number (1-based), each its own
   * recorder of `ack`, `answer` and `sync` (docs/conversations.md); created on the first value,
   * so a run without conversations holds none. The same values are in the run-wide histograms too.
   */
  readonly byTurn = new Map<number, LatencyRecorder>();

  /** Records one latency of answer turn `turn` (1-based) in ms (into `byTurn` only). */
  recordTurnMs(turn: number, metric: LatencyMetric, ms: number): void {
    let r = this.byTurn.get(turn);
    if (!r) this.byTurn.set(turn, (r = new LatencyRecorder()));
    r.recordMs(metric, ms);
  }

  /** Records one latency in ms (stored as integer us). */
  recordMs(metric: LatencyMetric, ms: number): void {
    const us = msToClampedUs(ms);
    if (us !== undefined) this.histograms[metric].recordValue(us);
  }

  /** Number of values recorded for `metric`. */
  count(metric: LatencyMetric): number {
    return this.histograms[metric].totalCount;
  }

  /** The value at `percentile` (0..100) in ms; 0 when nothing was recorded. */
  percentileMs(metric: LatencyMetric, percentile: number): number {
    const h = this.histograms[metric];
    return h.totalCount === 0 ? 0 : usToMs(h.getValueAtPercentile(percentile));
  }

  /**
   * count, p50, p90, p99, p99.9, max, min, mean, in ms (3 decimals); zeros when empty.
   * max and min are the bounds of their HDR buckets (within 0.1%, max rounded up as HDR's
   * getMaxValue does), so they survive encode/decode and merge unchanged.
   */
  summary(metric: LatencyMetric): LatencySummary {
    return summarizeHistogram(this.histograms[metric]);
  }

  /** The non-empty buckets of `metric`, ascending (values in us). */
  buckets(metric: LatencyMetric): HistogramBucket[] {
    return histogramBuckets(this.histograms[metric]);
  }

  /** The histogram of `metric` as HDR compressed base64 (values in us). */
  encode(metric: LatencyMetric): string {
    return hdr.encodeIntoCompressedBase64(this.histograms[metric]);
  }

  /** Every metric as HDR compressed base64 (the report's `histograms`). */
  encodeAll(): Record<LatencyMetric, string> {
    return perLatencyMetric((m) => this.encode(m));
  }

  /** Adds every value of `other` into this recorder (for merging runs or workers). */
  merge(other: LatencyRecorder): this {
    for (const m of LATENCY_METRICS) this.histograms[m].add(other.histograms[m]);
    for (const [turn, r] of other.byTurn) {
      const mine = this.byTurn.get(turn);
      if (mine) mine.merge(r);
      else this.byTurn.set(turn, new LatencyRecorder().merge(r));
    }
    return this;
  }

  /** Decodes one HDR compressed base64 histogram (values in us). */
  static decode(base64: string): hdr.Histogram {
    return hdr.decodeFromCompressedBase64(base64, 32, false, MAX_US);
  }

  /**
   * Rebuilds a recorder from `{ack?, answer?, sync?}` HDR compressed base64 strings (e.g. a
   * report's `histograms`); a missing or empty string leaves that metric empty.
   */
  static fromEncoded(encoded: Partial<Record<LatencyMetric, string>>): LatencyRecorder {
    const recorder = new LatencyRecorder();
    for (const m of LATENCY_METRICS) {
      const text = encoded[m];
      if (text) recorder.histograms[m].add(LatencyRecorder.decode(text));
    }
    return recorder;
  }
}
