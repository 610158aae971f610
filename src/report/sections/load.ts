/**
 * `load` (`load` and `capacity`): how the traffic was generated: the model, what was sent,
 * dropped arrivals, the achieved rates, the open model's send delay and the generator verdict,
 * and for a sharded load its execution segments and start.
 *
 * Shards (`load --shard i/n`) started together (`--start-at`) send over the same window, so they
 * merge as: counts (sent, warm-up, dropped) summed; the measured window the longest shard's;
 * rates the summed counts over that window (req/s); send-delay histograms added (HDR) and
 * summarised again; the generator verdict the one rule's on that pooled send delay
 * (metrics/thresholds-trust.ts), which is what the merged latency figures hold; the start lag
 * the latest shard's.
 */
import * as hdr from 'hdr-histogram-js';
import { z } from 'zod';
import { LatencyRecorder, generatorVerdict, summarizeHistogram } from '../../metrics/index.js';
import { formatMs, formatRate } from '../../units.js';
import type { GeneratorVerdict, SendDelaySummary } from '../run-types.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import type { ReportSummary } from './summary.js';
import { count, ms, obj, statMs, type Assert, type Same } from './common.js';

const sendDelaySchema = obj({
  count,
  p50: ms,
  p90: ms,
  p99: ms,
  p999: ms,
  max: ms,
  mean: ms,
  histogram: z.string().describe('HDR histogram, compressed base64, microseconds'),
});
const generatorSchema = obj({
  generatorBound: z.boolean(),
  p99Ms: ms,
  limitMs: ms,
  offBy: obj({ stat: z.enum(['p99', 'p90', 'p50']), ms })
    .optional()
    .describe(
      'how much every latency figure may be too high: the send delay at the highest percentile its count supports (absent below 2 samples)',
    ),
  message: z.string(),
});
const _delay: Assert<Same<Omit<z.output<typeof sendDelaySchema>, 'histogram'>, SendDelaySummary>> = true;
const _generator: Assert<Same<z.output<typeof generatorSchema>, GeneratorVerdict>> = true;
void _delay;
void _generator;

const loadSchema = obj({
  model: z.enum(['open', 'closed']),
  sent: count.describe('measured requests sent'),
  warmupSent: count,
  dropped: count.describe('arrivals dropped at the in-flight cap'),
  measuredMs: ms.describe('measured sending time, after the warm-up'),
  achievedRate: z.number().describe('sent / measured time, req/s'),
  answeredRate: z.number().describe('answered / measured time, req/s'),
  sendDelay: sendDelaySchema.optional().describe('open model: actual minus intended start, ms'),
  generator: generatorSchema.optional(),
  shards: z
    .array(z.string())
    .optional()
    .describe("--shard i/n: the execution segments this load was (a merged report: every input's)"),
  startAt: z.string().optional().describe('--start-at: the instant sending was to start, ISO 8601 UTC'),
  startLagMs: ms.optional().describe("--start-at: how late sending started (a merged report: the latest shard's)"),
});
export type LoadSection = z.output<typeof loadSchema>;

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The merged generator verdict: the one rule (metrics/thresholds-trust.ts) on the pooled send
 * delay, the figures a merged report judges being pooled too; the shards' own verdicts only when
 * no send delay was kept.
 */
function mergeGenerator(
  verdicts: readonly GeneratorVerdict[],
  pooled: SendDelaySummary | undefined,
): GeneratorVerdict | undefined {
  if (verdicts.length === 0) return undefined;
  const limitMs = verdicts[0]!.limitMs;
  const bound = verdicts.filter((v) => v.generatorBound).length;
  if (pooled) {
    const v = generatorVerdict(pooled, limitMs);
    return {
      ...v,
      message: `${v.message} (the ${verdicts.length} shards' send delays pooled; ${bound} bound on its own)`,
    };
  }
  const worst = Math.max(...verdicts.map((v) => v.p99Ms));
  return {
    generatorBound: bound > 0,
    p99Ms: worst,
    limitMs,
    message:
      bound > 0
        ? `generator-bound on ${bound} of ${verdicts.length} shards (no send delay kept to pool): their latency figures, and so the merged ones, are suspect`
        : `the generators kept up on every shard (no send delay kept to pool)`,
  };
}

/** The merged load section; undefined when no input has one. `answered`: the merged answered outcome count. */
export function mergeLoadSections(
  inputs: readonly (LoadSection | undefined)[],
  answered: number,
): LoadSection | undefined {
  const list = inputs.filter((l): l is LoadSection => l !== undefined);
  const first = list[0];
  if (!first) return undefined;
  const sent = list.reduce((n, l) => n + l.sent, 0);
  const measuredMs = Math.max(...list.map((l) => l.measuredMs));
  const seconds = measuredMs / 1000;
  const merged: LoadSection = {
    model: first.model,
    sent,
    warmupSent: list.reduce((n, l) => n + l.warmupSent, 0),
    dropped: list.reduce((n, l) => n + l.dropped, 0),
    measuredMs: round3(measuredMs),
    achievedRate: seconds > 0 ? round3(sent / seconds) : 0,
    answeredRate: seconds > 0 ? round3(answered / seconds) : 0,
  };
  const delays = list.flatMap((l) => (l.sendDelay ? [l.sendDelay.histogram] : []));
  if (delays.length > 0) {
    const h = LatencyRecorder.decode(delays[0]!);
    for (const d of delays.slice(1)) h.add(LatencyRecorder.decode(d));
    const { min: _min, ...summary } = summarizeHistogram(h);
    merged.sendDelay = { ...summary, histogram: hdr.encodeIntoCompressedBase64(h) };
  }
  const generator = mergeGenerator(
    list.flatMap((l) => (l.generator ? [l.generator] : [])),
    merged.sendDelay,
  );
  if (generator) merged.generator = generator;
  const shards = list.flatMap((l) => l.shards ?? []);
  if (shards.length > 0) merged.shards = shards;
  if (new Set(list.map((l) => l.startAt)).size === 1 && first.startAt !== undefined) merged.startAt = first.startAt;
  const lags = list.flatMap((l) => (l.startLagMs === undefined ? [] : [l.startLagMs]));
  if (lags.length > 0) merged.startLagMs = Math.max(...lags);
  return merged;
}

function loadView(l: LoadSection): SectionView {
  const d = l.sendDelay;
  const rows: [string, Text][] = [
    // A percentile the count cannot support is a dash, as in the latency table.
    ...(d
      ? [
          [
            'send delay',
            `p50 ${statMs(d.p50, d.count, 'p50')} · p99 ${statMs(d.p99, d.count, 'p99')} · max ${formatMs(d.max)} (${d.count} samples)`,
          ] as [string, Text],
        ]
      : []),
    ...(l.shards
      ? [
          [`shard${l.shards.length === 1 ? '' : 's'}`, `${l.shards.join(', ')} (execution segments of one load)`] as [
            string,
            Text,
          ],
        ]
      : []),
    ...(l.startAt
      ? [
          [
            'started at',
            `${l.startAt}${l.startLagMs !== undefined ? `, ${formatMs(l.startLagMs)} late${l.shards && l.shards.length > 1 ? ' (latest shard)' : ''}` : ''}`,
          ] as [string, Text],
        ]
      : []),
  ];
  const g = l.generator;
  return {
    id: 'load',
    title: `Load (${l.model} model)`,
    summary: [
      `sent ${l.sent} · warm-up ${l.warmupSent} · `,
      l.dropped > 0 ? span(`dropped ${l.dropped}`, 'warn') : 'dropped 0',
      ` · achieved ${formatRate(l.achievedRate)} · answered ${formatRate(l.answeredRate)} over ${formatMs(l.measuredMs)}`,
    ],
    rows,
    ...(g && {
      notes: [g.generatorBound ? [span('WARNING ', 'fail'), span(g.message, 'fail')] : span(g.message, 'muted')],
    }),
  };
}

type Doc = { load?: LoadSection };

export const loadSection = defineSection({
  name: 'load',
  fields: { load: loadSchema.optional().describe('load and capacity: how the traffic was generated') },
  merge: (docs: readonly Doc[], merged: { summary: ReportSummary }) => {
    const load = mergeLoadSections(
      docs.map((d) => d.load),
      merged.summary.outcomes.answered,
    );
    return load ? { load } : {};
  },
  views: (d: Doc) => (d.load ? [loadView(d.load)] : []),
});
