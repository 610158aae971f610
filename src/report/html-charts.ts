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
 * the timeline and capacity charts give each its own. Legends name every series.
 * Values come from the report's encoded HDR histograms (LatencyRecorder.fromEncoded).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LATENCY_METRICS, LatencyRecorder, formatLimit, minSamplesFor, type LatencyMetric } from '../metrics/index.js';
import type { ReportDocument } from './sections/index.js';
import { CURVE_MIN_SAMPLES, HISTOGRAM_MIN_SAMPLES } from './sections/latency.js';

export interface MetricChartData {
  metric: LatencyMetric;
  limitMs: number;
  /**
   * The limit is drawn as a line only when it is on the data's scale (at most
   * {@link LIMIT_SCALE_FACTOR} times the largest value); otherwise the axes fit the data and
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

/**
 * The page's own script: draws the charts into `#chart-<metric>-pct` / `#chart-<metric>-hist`
 * from `#droidcheck-data`, and filters the scenario table (text, status, mode).
 */
export const PAGE_SCRIPT = `(() => {
  const data = JSON.parse(document.getElementById('droidcheck-data').textContent);
  // Every chart drawn, for whoever inspects the page (the browser test reads the scales).
  const charts = (window.droidcheckCharts = []);
  const colors = { ack: '#1f77b4', answer: '#d62728', sync: '#2ca02c', reply: '#9467bd', ackServer: '#17becf' };
  const width = (el) => Math.max(280, Math.min(560, el.clientWidth || 520));
  // Legends name the series only: uPlot's live values read "--" until the pointer is on the chart.
  const legend = { live: false };
  for (const m of data.charts) {
    const pctEl = document.getElementById('chart-' + m.metric + '-pct');
    const histEl = document.getElementById('chart-' + m.metric + '-hist');
    if (typeof uPlot === 'undefined' || !pctEl) continue;
    const series = [
      { label: 'percentile', value: (u, v) => v == null ? '' : 'p' + +(100 - 100 / v).toFixed(3) },
      { label: m.metric, stroke: colors[m.metric], width: 2, points: { show: true, size: 4 } },
    ];
    const values = [m.percentiles.x, m.percentiles.ms.map((v) => Math.max(v, 0.001))];
    if (m.limitOnScale) {
      series.push({ label: m.limitLabel, stroke: '#999', dash: [6, 4], width: 1, points: { show: false } });
      values.push(m.percentiles.x.map(() => m.limitMs));
    }
    const offScale = m.limitOnScale ? '' : ' · ' + m.limitLabel;
    const top = m.percentiles.p[m.percentiles.p.length - 1];
    charts.push(new uPlot({
      title: m.metric + ' latency by percentile, up to p' + top + ' (' + m.count + ' samples; ms, log)' + offScale, width: width(pctEl), height: 260, legend,
      scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
      axes: [{ splits: () => [1, 10, 100, 1000, 10000, 100000], values: (u, vals) => vals.map((v) => (v >= 1 ? 'p' + +(100 - 100 / v).toFixed(3) : '')) }, { label: 'ms' }],
      series,
    }, values, pctEl));
    if (!m.histogram || !histEl) continue;
    charts.push(new uPlot({
      title: m.metric + ' latency histogram (% of ' + m.count + ' requests)' + offScale, width: width(histEl), height: 260, legend,
      scales: { x: { time: false, range: (u, min, max) => [min - m.histogram.binMs / 2, max + m.histogram.binMs] } },
      axes: [{ label: 'ms' }, { label: '%' }],
      series: [
        { label: 'from ms' },
        { label: '% of requests', stroke: colors[m.metric], fill: colors[m.metric] + '66', paths: uPlot.paths.bars({ size: [0.9, 60] }), points: { show: false } },
      ],
    }, [m.histogram.ms, m.histogram.pct], histEl));
  }
  const tl = data.timeline;
  const rateEl = document.getElementById('chart-timeline-rate');
  const latEl = document.getElementById('chart-timeline-latency');
  if (tl && typeof uPlot !== 'undefined' && rateEl && latEl) {
    // The share of answers right per interval on its own axis, when any interval had a verdict.
    const right = tl.rightPct.some((v) => v !== null);
    charts.push(new uPlot({
      title: 'throughput (req/s), requests in flight and open conversations' + (right ? '; answers right (right axis, %)' : ''), width: width(rateEl), height: 260, legend,
      scales: { x: { time: false }, y: {}, '%': { range: [0, 100] } },
      axes: [{ label: 's' }, { label: 'req/s, requests' }, ...(right ? [{ scale: '%', side: 1, label: '% right', stroke: '#8c564b', grid: { show: false } }] : [])],
      series: [
        { label: 's' },
        { label: 'started req/s', stroke: '#1f77b4', width: 2 },
        { label: 'in flight', stroke: '#ff7f0e', width: 1 },
        { label: 'target req/s', stroke: '#999', dash: [6, 4], width: 1 },
        { label: 'open conversations', stroke: '#2ca02c', width: 1 },
        ...(right ? [{ label: '% answers right', scale: '%', stroke: '#8c564b', width: 2 }] : []),
      ],
    }, [tl.t, tl.started, tl.inFlight, tl.targetRate, tl.openConversations, ...(right ? [tl.rightPct] : [])], rateEl));
    charts.push(new uPlot({
      title: 'latency over time: ack (left axis, ms), answer and sync (right axis, ms)', width: width(latEl), height: 260, legend,
      scales: { x: { time: false }, ack: {}, answer: {} },
      axes: [{ label: 's' }, { scale: 'ack', label: 'ack ms', stroke: colors.ack }, { scale: 'answer', side: 1, label: 'answer, sync ms', stroke: colors.answer, grid: { show: false } }],
      series: [
        { label: 's' },
        { label: 'ack p50', scale: 'ack', stroke: colors.ack, width: 1 },
        { label: 'ack p99', scale: 'ack', stroke: colors.ack, width: 2, dash: [4, 2] },
        { label: 'answer p50', scale: 'answer', stroke: colors.answer, width: 1 },
        { label: 'answer p99', scale: 'answer', stroke: colors.answer, width: 2, dash: [4, 2] },
        { label: 'sync p50', scale: 'answer', stroke: colors.sync, width: 1 },
        { label: 'sync p99', scale: 'answer', stroke: colors.sync, width: 2, dash: [4, 2] },
      ],
    }, [tl.t, tl.ackP50, tl.ackP99, tl.answerP50, tl.answerP99, tl.syncP50, tl.syncP99], latEl));
  }
  const cap = data.capacity;
  const capEl = document.getElementById('chart-capacity');
  if (cap && typeof uPlot !== 'undefined' && capEl) {
    // A sync mix has no ack: its p99 and limit would be an empty axis and a line about nothing.
    const acks = cap.ackP99.some((v) => v !== null);
    charts.push(new uPlot({
      title: 'p99 by arrival rate: ' + (acks ? 'ack (left axis, ms), answer and sync (right axis, ms)' : 'answer and sync (ms)'), width: width(capEl), height: 260, legend,
      scales: { x: { time: false }, ack: {}, answer: {} },
      axes: [{ label: 'req/s' }, ...(acks ? [{ scale: 'ack', label: 'ack ms', stroke: colors.ack }] : []), { scale: 'answer', side: acks ? 1 : 3, label: 'answer, sync ms', stroke: colors.answer, grid: { show: !acks } }],
      series: [
        { label: 'req/s' },
        ...(acks ? [{ label: 'ack p99', scale: 'ack', stroke: colors.ack, width: 2, points: { show: true, size: 5 } }] : []),
        { label: 'answer p99', scale: 'answer', stroke: colors.answer, width: 2, points: { show: true, size: 5 } },
        { label: 'sync p99', scale: 'answer', stroke: colors.sync, width: 2, points: { show: true, size: 5 } },
        ...(acks ? [{ label: 'ack limit ' + cap.limitMs + ' ms', scale: 'ack', stroke: '#999', dash: [6, 4], width: 1, points: { show: false } }] : []),
      ],
    }, [cap.rate, ...(acks ? [cap.ackP99] : []), cap.answerP99, cap.syncP99, ...(acks ? [cap.rate.map(() => cap.limitMs)] : [])], capEl));
  }
  // The knee: the share of answers right (left axis, %) and the answer latency (right axis, ms) by rate.
  const qualEl = document.getElementById('chart-capacity-quality');
  if (cap && typeof uPlot !== 'undefined' && qualEl) {
    const series = [
      { label: 'req/s' },
      { label: '% right', scale: '%', stroke: '#2ca02c', width: 2, points: { show: true, size: 5 } },
      { label: '95% CI low', scale: '%', stroke: '#2ca02c', dash: [2, 3], width: 1, points: { show: false } },
      { label: '95% CI high', scale: '%', stroke: '#2ca02c', dash: [2, 3], width: 1, points: { show: false } },
      { label: cap.latencyLabel, scale: 'ms', stroke: colors.answer, width: 2, points: { show: true, size: 5 } },
    ];
    const values = [cap.rate, cap.rightPct, cap.rightLowPct, cap.rightHighPct, cap.latencyP99];
    if (cap.minPct > 0) {
      series.push({ label: 'min ' + cap.minPct + '% right', scale: '%', stroke: '#999', dash: [6, 4], width: 1, points: { show: false } });
      values.push(cap.rate.map(() => cap.minPct));
    }
    charts.push(new uPlot({
      title: 'answers right (left axis, %) and latency (right axis, ms) by arrival rate', width: width(qualEl), height: 260, legend,
      // ms from 0: a latency that holds while the answers fall reads as flat, not as noise magnified.
      scales: { x: { time: false }, '%': { range: [0, 100] }, ms: { range: (u, min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [{ label: 'req/s' }, { scale: '%', label: '% right', stroke: '#2ca02c' }, { scale: 'ms', side: 1, label: 'ms', stroke: colors.answer, grid: { show: false } }],
      series,
    }, values, qualEl));
  }
  const q = document.getElementById('filter-text');
  const status = document.getElementById('filter-status');
  const mode = document.getElementById('filter-mode');
  const count = document.getElementById('filter-count');
  const apply = () => {
    const text = (q.value || '').toLowerCase();
    let shown = 0;
    const groups = document.querySelectorAll('tbody.sc');
    groups.forEach((g) => {
      const ok = (!text || g.dataset.name.includes(text)) && (status.value === 'all' || g.dataset.status === status.value) && (mode.value === 'all' || g.dataset.mode === mode.value);
      g.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + groups.length;
  };
  if (q && status && mode && count) { [q, status, mode].forEach((el) => el.addEventListener('input', apply)); apply(); }
})();`;
