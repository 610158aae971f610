/**
 * Chart data and the inlined charting library of report.html. The charts are drawn by uPlot
 * (MIT, ~50 KB), read from node_modules at render time and inlined in a <script>, so the page
 * needs no network. Per latency metric with values:
 * - percentile distribution (HdrHistogram style): x = 1/(1-p) on a log axis, from p0 up to the
 *   highest percentile the count supports (p99 needs 100 samples, p99.9 1,000: metrics/sample-size.ts),
 *   drawn from {@link CURVE_MIN_SAMPLES} samples,
 *   y = latency in ms on a log axis scaled to the data, with the spec's limit as a second line
 *   when it is on that scale, else as a label in the title (a 180 s limit beside ~100 ms data
 *   would stretch the axis to 1,000,000 ms);
 * - histogram: share of requests (%) per latency bin (ms), from the HDR quantiles in 0.1% steps,
 *   from {@link HISTOGRAM_MIN_SAMPLES} samples.
 * Ack and answer are never on one axis (ms beside tens of seconds would flatten the ack line):
 * the timeline and capacity charts give each its own. Legends name every series. A load that
 * judged bursts has the share of each burst finding per interval, beside the bursts judged.
 * Values come from the report's encoded HDR histograms (LatencyRecorder.fromEncoded).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LATENCY_METRICS, LatencyRecorder, formatLimit, minSamplesFor } from '../metrics/index.js';
import type { BurstsChartData, CapacityChartData, MetricChartData, TimelineChartData } from './browser/page-data.js';
import { burstIntervals } from './sections/bursts.js';
import type { ReportDocument } from './sections/index.js';
import { CURVE_MIN_SAMPLES, HISTOGRAM_MIN_SAMPLES } from './sections/latency.js';

/** Percentiles of the curve: 0 .. 99.999 with more points towards the tail. */
const CURVE_PERCENTILES: readonly number[] = [
  0, 10, 20, 30, 40, 50, 55, 60, 65, 70, 75, 77.5, 80, 82.5, 85, 87.5, 90, 91.25, 92.5, 93.75, 95, 96, 97, 97.5, 98,
  98.5, 99, 99.25, 99.5, 99.75, 99.9, 99.95, 99.99, 99.995, 99.999,
];

const BINS = 30;

/** A limit more than this many times the largest value is not drawn (it would squash the data). */
const LIMIT_SCALE_FACTOR = 10;

/** Whether the limit line fits the data's scale, and its label (as the latency table prints limits). */
export function limitScale(limitMs: number, maxMs: number): { onScale: boolean; label: string } {
  const onScale = maxMs > 0 && limitMs <= maxMs * LIMIT_SCALE_FACTOR;
  if (onScale) return { onScale, label: `limit ${formatLimit(limitMs, 'ms')}` };
  const times = maxMs > 0 ? Math.round(limitMs / maxMs) : undefined;
  return {
    onScale,
    label: `limit ${formatLimit(limitMs, 'ms')}${times !== undefined ? ` (${times.toLocaleString('en-US')}× the max: off scale)` : ' (off scale)'}`,
  };
}

/** The chart data of every metric with samples enough for a curve (sections/latency.ts says why the others have none). */
export function chartData(report: ReportDocument): MetricChartData[] {
  const rec = LatencyRecorder.fromEncoded(report.histograms);
  return LATENCY_METRICS.filter((m) => rec.count(m) >= CURVE_MIN_SAMPLES).map((metric) => {
    const count = rec.count(metric);
    const p = CURVE_PERCENTILES.filter((q) => count >= minSamplesFor(q));
    const percentiles = {
      p,
      x: p.map((q) => Math.round((1 / (1 - q / 100)) * 1000) / 1000),
      ms: p.map((q) => rec.percentileMs(metric, q)),
    };
    const quantiles = Array.from({ length: 1001 }, (_, i) => rec.percentileMs(metric, i / 10));
    const lo = quantiles[0] ?? 0;
    const hi = quantiles[quantiles.length - 1] ?? 0;
    const width = hi > lo ? (hi - lo) / BINS : 1;
    const pct = new Array<number>(BINS).fill(0);
    // Each 0.1% step of the quantile function is 0.1% of the requests.
    for (let i = 1; i < quantiles.length; i++) {
      const bin = Math.min(BINS - 1, Math.floor(((quantiles[i] ?? lo) - lo) / width));
      pct[bin] = (pct[bin] ?? 0) + 0.1;
    }
    const limitMs = report.latency[metric].limitMs;
    const limit = limitScale(limitMs, Math.max(hi, ...percentiles.ms));
    return {
      metric,
      limitMs,
      limitOnScale: limit.onScale,
      limitLabel: limit.label,
      count,
      percentiles,
      ...(count >= HISTOGRAM_MIN_SAMPLES && {
        histogram: {
          ms: pct.map((_, i) => Math.round((lo + i * width) * 1000) / 1000),
          binMs: width,
          pct: pct.map((v) => Math.round(v * 10) / 10),
        },
      }),
    };
  });
}

/** A percentile for a chart point, or null (a gap) when its count cannot support it, as the tables print `—`. */
const supported = (
  s: { count: number; p50: number; p99: number } | undefined,
  percentile: number,
  stat: 'p50' | 'p99',
): number | null => (s !== undefined && s.count >= minSamplesFor(percentile) ? s[stat] : null);

/** A share 0..1 as a % with one decimal (null stays null: a gap in the chart). */
const pct = (v: number | null | undefined): number | null =>
  v === null || v === undefined ? null : Math.round(v * 1000) / 10;

export function timelineChartData(report: ReportDocument): TimelineChartData | undefined {
  const tl = report.timeline;
  if (!tl || tl.points.length < 2) return undefined;
  const per = (n: number, d: number): number => (d > 0 ? Math.round((n / d) * 10) / 10 : 0);
  const pts = tl.points;
  return {
    t: pts.map((p) => p.t),
    started: pts.map((p) => per(p.started, p.durationS)),
    inFlight: pts.map((p) => p.inFlight),
    openConversations: pts.map((p) => p.openConversations ?? null),
    targetRate: pts.map((p) => p.targetRate ?? null),
    ackP50: pts.map((p) => supported(p.ack, 50, 'p50')),
    ackP99: pts.map((p) => supported(p.ack, 99, 'p99')),
    answerP50: pts.map((p) => supported(p.answer, 50, 'p50')),
    answerP99: pts.map((p) => supported(p.answer, 99, 'p99')),
    syncP50: pts.map((p) => supported(p.sync, 50, 'p50')),
    syncP99: pts.map((p) => supported(p.sync, 99, 'p99')),
    rightPct: pts.map((p) => pct(p.answers?.share)),
  };
}

/** The bursts' findings per load interval (page-data.ts BurstsChartData); undefined when the bursts section draws no chart. */
export function burstsChartData(report: ReportDocument): BurstsChartData | undefined {
  const pts = burstIntervals(report.timeline);
  if (!pts) return undefined;
  return {
    t: pts.map((p) => p.t),
    outOfOrderPct: pts.map((p) => pct(p.bursts?.outOfOrder.share)),
    staleLastPct: pts.map((p) => pct(p.bursts?.staleLast.share)),
    cartRegressedPct: pts.map((p) => pct(p.bursts?.cartRegressed.share)),
    judged: pts.map((p) => p.bursts?.total ?? 0),
  };
}

export function capacityChartData(report: ReportDocument): CapacityChartData | undefined {
  const c = report.capacity;
  if (!c || c.curve.length === 0) return undefined;
  const answers = c.curve.some((p) => p.answer.count > 0);
  return {
    rate: c.curve.map((p) => p.rate),
    ackP99: c.curve.map((p) => supported(p.ack, 99, 'p99')),
    answerP99: c.curve.map((p) => supported(p.answer, 99, 'p99')),
    syncP99: c.curve.map((p) => supported(p.sync, 99, 'p99')),
    limitMs: c.criteria.ackP99Ms,
    rightPct: c.curve.map((p) => pct(p.answers?.share)),
    rightLowPct: c.curve.map((p) => (p.answers?.share != null ? pct(p.answers.interval.low) : null)),
    rightHighPct: c.curve.map((p) => (p.answers?.share != null ? pct(p.answers.interval.high) : null)),
    minPct: pct(c.criteria.minPassRate ?? 0) ?? 0,
    // A p99 needs 100 samples; a short step has fewer, so the median stands in (the label says which).
    latencyP99: c.curve.map((p) => {
      const s = answers ? p.answer : p.sync;
      return supported(s, 99, 'p99') ?? supported(s, 50, 'p50');
    }),
    latencyLabel: `${answers ? 'answer' : 'sync'} p99 (p50 below 100 samples), ms`,
  };
}

let cached: { js: string; css: string } | undefined;
let script: string | undefined;

/**
 * The page's own script, browser/page.js (a checked script of its own: tsconfig.browser.json),
 * read once from beside this module: from src/ when droidcheck runs from its sources, from dist/
 * where the build copies it. Inlined as it is in report.html, which needs no network.
 */
export function pageScript(): string {
  script ??= readFileSync(new URL('./browser/page.js', import.meta.url), 'utf8').replace(/<\/script/gi, '<\\/script');
  return script;
}

/**
 * uPlot's minified browser build and its CSS from node_modules (resolved from this module).
 * Throws when the `uplot` package is not installed (it is a dependency).
 */
export function uplotAssets(): { js: string; css: string } {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const js = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
    const css = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
    cached = { js: js.replace(/<\/script/gi, '<\\/script'), css };
  }
  return cached;
}

/** JSON safe inside <script type="application/json">: `<` escaped. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
