/**
 * What report.html's page script (page.js) reads, the JSON of `#droidcheck-data`: written by
 * html.ts from html-charts.ts's chart data, read in the browser. Types only, imported by both
 * sides (page.js through JSDoc), so the renderer and the script cannot disagree on a field.
 */

/** One latency metric's charts: its percentile curve and, with enough samples, its histogram. */
export interface MetricChartData {
  /** A latency metric (`ack`, `answer`, `sync`, `reply`, `ackServer`: metrics/latency-recorder.ts). */
  metric: string;
  limitMs: number;
  /**
   * The limit is drawn as a line only when it is on the data's scale (at most
   * ten times the largest value); otherwise the axes fit the data and
   * the limit is a label (`limitLabel`) in the chart's title.
   */
  limitOnScale: boolean;
  /** `limit 180 s (1,000× the max: off scale)` or `limit 100 ms`. */
  limitLabel: string;
  count: number;
  /** Percentile curve: `x` = 1/(1-p), `ms` the value at p. */
  percentiles: { p: number[]; x: number[]; ms: number[] };
  /** Histogram: bin starts (ms), bin width (ms) and share of requests in each bin (%); absent below HISTOGRAM_MIN_SAMPLES. */
  histogram?: { ms: number[]; binMs: number; pct: number[] };
}

/** The timeline as chart series: x = s since the start; rates in req/s; latencies in ms (null: no sample in the interval). */
export interface TimelineChartData {
  t: number[];
  started: number[];
  inFlight: number[];
  /** Conversations open at each interval's end (null: a run without conversations). */
  openConversations: (number | null)[];
  targetRate: (number | null)[];
  ackP50: (number | null)[];
  ackP99: (number | null)[];
  answerP50: (number | null)[];
  answerP99: (number | null)[];
  syncP50: (number | null)[];
  syncP99: (number | null)[];
  /** % of the answers ended in each interval that were right (null: none had a verdict). */
  rightPct: (number | null)[];
}

/** The capacity curve as chart series: x = intended rate (req/s). */
export interface CapacityChartData {
  rate: number[];
  /** ack, answer and sync p99, ms (null: too few samples for a p99; a sync mix has sync only). */
  ackP99: (number | null)[];
  answerP99: (number | null)[];
  syncP99: (number | null)[];
  /** The ack p99 limit, ms. */
  limitMs: number;
  /** % of answers right at each rate and its Wilson 95% interval (null: none judged, or an older report). */
  rightPct: (number | null)[];
  rightLowPct: (number | null)[];
  rightHighPct: (number | null)[];
  /** `--min-pass-rate`, % (0: not judged). */
  minPct: number;
  /** The answer latency beside the correctness: answer p99, or the sync p99 of a sync mix (ms). */
  latencyP99: (number | null)[];
  latencyLabel: string;
}

/**
 * The bursts' findings per load interval (`timeline.points[].bursts`) as chart series: x = s since
 * the start; each finding's share of the bursts judged in the interval, % (null: none judged
 * there); the bursts judged, the count behind each share.
 */
export interface BurstsChartData {
  t: number[];
  outOfOrderPct: (number | null)[];
  staleLastPct: (number | null)[];
  cartRegressedPct: (number | null)[];
  judged: number[];
}

/** The whole of `#droidcheck-data`. */
export interface PageData {
  charts: MetricChartData[];
  timeline: TimelineChartData | undefined;
  capacity: CapacityChartData | undefined;
  /** Absent when no load interval judged a burst (docs/bursts.md, Under load). */
  bursts: BurstsChartData | undefined;
}
