/**
 * `latency` (per metric: summary in ms, the spec's limit, the statistic it is judged on and the
 * verdict) and `histograms` (HDR, compressed base64 of microsecond values). Shards merge by
 * adding the histograms, so merged percentiles are those of all values, never averages of
 * percentiles; the verdicts are judged again on the merged figures.
 */
import { z } from 'zod';
import {
  LATENCY_FOOTNOTE,
  LATENCY_HEADER,
  LATENCY_METRICS,
  LIMITS_MS,
  LatencyRecorder,
  formatLimit,
  latencyCells,
  minSamplesForStat,
  perLatencyMetric,
  shownMetrics,
  type AckBasis,
  type LatencyMetric,
} from '../../metrics/index.js';
import { formatMs } from '../../units.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import { countsRequests, latencySummarySchema, ms, obj } from './common.js';
import type { NetworkSection } from './network.js';

const latencyEntrySchema = latencySummarySchema.extend({
  limitMs: ms,
  limitStat: z.enum(['p99', 'max']).describe('the statistic the limit is judged on'),
  limitVerdict: z.enum(['ok', 'breach', 'too-few-samples', 'no-samples']),
  withinLimit: z.boolean().describe('false only for a breach'),
  judgedOn: z
    .literal('ackServer')
    .optional()
    .describe(
      "ack of a remote target: its limit is judged on ackServer (ack minus the network round trip); the verdict is ackServer's",
    ),
});
export type LatencyEntry = z.output<typeof latencyEntrySchema>;
const perMetric = <T extends z.ZodType>(schema: T) =>
  obj(Object.fromEntries(LATENCY_METRICS.map((m) => [m, schema])) as Record<LatencyMetric, T>);
const latencySchema = perMetric(latencyEntrySchema);
const histogramsSchema = perMetric(z.string().describe('HDR histogram, compressed base64, values in microseconds'));
export type Histograms = z.output<typeof histogramsSchema>;

/**
 * The statistic each metric's spec limit is judged on, as the default thresholds do
 * (metrics/thresholds.ts): ack p99 < 100 ms (needs 100 samples), answer and sync max < 180 s.
 */
const LIMIT_STATS: Readonly<Record<LatencyMetric, 'p99' | 'max'>> = {
  ack: 'p99',
  answer: 'max',
  sync: 'max',
  reply: 'max',
  ackServer: 'p99',
};

/**
 * Summary (ms) of each metric with the spec's limit and its verdict, judged like the default
 * thresholds: `too-few-samples` when the count cannot support the statistic (p99: 100),
 * `no-samples` when empty; `withinLimit` is false only for a `breach`. With `ackBasis`
 * `ackServer` (a remote target) the `ack` entry takes ackServer's verdict and says so (`judgedOn`).
 */
function latencyEntries(recorder: LatencyRecorder, ackBasis: AckBasis = 'ack'): Record<LatencyMetric, LatencyEntry> {
  const entry = (m: LatencyMetric): LatencyEntry => {
    const s = recorder.summary(m);
    const stat = LIMIT_STATS[m];
    const limitVerdict: LatencyEntry['limitVerdict'] =
      s.count === 0
        ? 'no-samples'
        : s.count < minSamplesForStat(stat)
          ? 'too-few-samples'
          : s[stat] < LIMITS_MS[m]
            ? 'ok'
            : 'breach';
    return { ...s, limitMs: LIMITS_MS[m], limitStat: stat, limitVerdict, withinLimit: limitVerdict !== 'breach' };
  };
  const entries = perLatencyMetric(entry);
  // A remote target: the acknowledgement's limit is the server's (ackServer); ack keeps its figures.
  if (ackBasis === 'ackServer')
    entries.ack = {
      ...entries.ack,
      limitVerdict: entries.ackServer.limitVerdict,
      withinLimit: entries.ackServer.withinLimit,
      judgedOn: 'ackServer',
    };
  return entries;
}

/**
 * Least samples for a chart: a percentile curve needs p90's 10 (it is drawn up to the highest
 * percentile the count supports: p99 from 100, p99.9 from 1,000; html-charts.ts), a histogram
 * about 50 (fewer make a few bars of one or two requests each, a shape that is noise).
 */
export const CURVE_MIN_SAMPLES = 10;
export const HISTOGRAM_MIN_SAMPLES = 50;

/** The charts each metric's sample supports, and one line for what it does not. */
function chartsOf(d: Doc, metrics: readonly LatencyMetric[]): Pick<SectionView, 'charts' | 'chartNotes'> {
  const charts: string[] = [];
  const chartNotes: Text[] = [];
  for (const m of metrics) {
    const l = d.latency[m];
    if (l.count === 0) continue;
    if (l.count >= CURVE_MIN_SAMPLES) charts.push(`chart-${m}-pct`);
    if (l.count >= HISTOGRAM_MIN_SAMPLES) charts.push(`chart-${m}-hist`);
    else {
      const figures = [
        ...(['p50', 'p90'] as const)
          .filter((s) => l.count >= minSamplesForStat(s))
          .map((s) => `${s} ${formatMs(l[s])}`),
        `max ${formatMs(l.max)}`,
      ].join(', ');
      chartNotes.push(
        `${m}: ${l.count} sample${l.count === 1 ? '' : 's'}: too few for ${l.count >= CURVE_MIN_SAMPLES ? 'a histogram' : 'a chart'} (${figures})`,
      );
    }
  }
  return { charts, chartNotes };
}

type Doc = {
  summary: { requests: number };
  latency: Record<LatencyMetric, LatencyEntry>;
  histograms: Histograms;
  network?: NetworkSection;
};

const VERDICT: Record<LatencyEntry['limitVerdict'], Text> = {
  ok: span('ok', 'ok'),
  breach: span('BREACH', 'fail'),
  'too-few-samples': span('too few samples', 'muted'),
  'no-samples': '',
};

/**
 * The table in ms with the spec's limits; HTML adds a percentile curve and a histogram per metric
 * with values. `brief` (the console's default) leaves out the metrics without samples (a
 * sync-only run's `ack`): an empty row says nothing that the other rows' counts do not.
 */
function latencyView(d: Doc, brief = false): SectionView {
  const all = shownMetrics(d.latency);
  const metrics = brief ? all.filter((m) => d.latency[m].count > 0) : all;
  const cells = metrics.map((m) => latencyCells(d.latency[m]));
  const rows = metrics.map((m, i): Text[] => {
    const l = d.latency[m];
    // A remote target's ack: its limit is judged on the ackServer row.
    return [
      m,
      ...cells[i]!.cells,
      l.judgedOn ? `on ${l.judgedOn}` : formatLimit(l.limitMs, 'ms'),
      l.judgedOn ? '' : VERDICT[l.limitVerdict],
    ];
  });
  const none = all.every((m) => d.latency[m].count === 0);
  return {
    id: 'latency',
    title: 'Latency',
    tables: [
      {
        columns: [
          ...LATENCY_HEADER.map((h) => ({ header: h })),
          { header: 'limit' },
          { header: '', align: 'l' as const },
        ],
        rows,
      },
    ].filter((t) => t.rows.length > 0),
    notes: [
      ...(cells.some((c) => c.unsupported) ? [span(LATENCY_FOOTNOTE, 'muted')] : []),
      ...(none ? [span('No latencies recorded.', 'muted')] : []),
    ],
    ...chartsOf(d, metrics),
  };
}

export const latencySection = defineSection({
  name: 'latency',
  fields: { latency: latencySchema, histograms: histogramsSchema },
  compute: (input: { latency: LatencyRecorder; network?: NetworkSection }) => ({
    latency: latencyEntries(input.latency, input.network ? 'ackServer' : 'ack'),
    histograms: input.latency.encodeAll(),
  }),
  merge: (docs: readonly Doc[]) => {
    const recorder = new LatencyRecorder();
    for (const d of docs) recorder.merge(LatencyRecorder.fromEncoded(d.histograms));
    // Remote targets (a `network` section): the acknowledgement is judged on ackServer, as each input was.
    return {
      latency: latencyEntries(recorder, docs[0]?.network ? 'ackServer' : 'ack'),
      histograms: recorder.encodeAll(),
    };
  },
  views: (d: Doc) => (countsRequests(d) ? [latencyView(d)] : []),
  brief: (d: Doc) => (countsRequests(d) ? [latencyView(d, true)] : []),
});
