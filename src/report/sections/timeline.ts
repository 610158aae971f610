/**
 * `timeline`: per-interval throughput, requests in flight, latency and answers right (runner/timeline.ts).
 * Shards started together (`--start-at`) merge interval by interval: counts added, interval
 * histograms added (HDR), so each merged interval's percentiles are those of all its values.
 */
import * as hdr from 'hdr-histogram-js';
import { z } from 'zod';
import {
  LATENCY_METRICS,
  findingShare,
  LatencyRecorder,
  passShare,
  summarizeHistogram,
  type LatencyMetric,
} from '../../metrics/index.js';
import { OUTCOMES } from '../../outcomes.js';
import { formatMs, formatPercent, formatRate } from '../../units.js';
import type { Timeline, TimelinePoint } from '../run-types.js';
import { defineSection } from '../section.js';
import { plural, type SectionView } from '../view.js';
import { burstSharesSchema, count, ms, obj, share, type Assert, type Same } from './common.js';

const intervalLatency = obj({
  count,
  p50: ms,
  p99: ms,
  max: ms,
  histogram: z.string().describe('HDR histogram, compressed base64, microseconds'),
});
const intervalAnswers = obj({
  passed: count.describe('requests ended in the interval whose outcome passed'),
  judged: count.describe('requests ended in the interval with a verdict'),
  share: share.nullable().describe('passed / judged, 0..1'),
  interval: obj({ low: share, high: share }).describe('Wilson 95% interval of the share, 0..1'),
});
const timelineSchema = obj({
  intervalMs: ms,
  points: z.array(
    obj({
      t: z.number().describe('end of the interval, s since the start of the measured run'),
      durationS: z.number().describe('length of the interval, s'),
      started: count,
      ended: count,
      inFlight: count,
      maxInFlight: count,
      outcomes: obj(
        Object.fromEntries(OUTCOMES.map((o) => [o, count.optional()])) as Record<
          (typeof OUTCOMES)[number],
          z.ZodOptional<typeof count>
        >,
      ).describe('ended requests by outcome (outcomes with a count only)'),
      targetRate: z.number().optional().describe('intended arrival rate at the end of the interval, req/s'),
      openConversations: count
        .optional()
        .describe("conversations (steps scenarios with say turns, think time included) open at the interval's end"),
      maxOpenConversations: count.optional().describe('conversations open at most during the interval'),
      answers: intervalAnswers
        .optional()
        .describe('answers right: requests ended in the interval whose outcome passed (absent: none had a verdict)'),
      bursts: burstSharesSchema
        .optional()
        .describe('bursts judged in the requests ended in the interval, and the shares of each finding (absent: none)'),
      ...(Object.fromEntries(LATENCY_METRICS.map((m) => [m, intervalLatency.optional()])) as Record<
        LatencyMetric,
        z.ZodOptional<typeof intervalLatency>
      >),
    }),
  ),
});
const _timeline: Assert<Same<z.output<typeof timelineSchema>, Timeline>> = true;
void _timeline;

/** Interval i of every timeline is added to interval i of the merge (shards started together: `--start-at`). */
function mergeTimelines(timelines: readonly Timeline[]): Timeline | undefined {
  if (timelines.length === 0) return undefined;
  const intervalMs = timelines[0]!.intervalMs;
  const points: TimelinePoint[] = [];
  const n = Math.max(...timelines.map((t) => t.points.length));
  for (let i = 0; i < n; i++) {
    const parts = timelines.map((t) => t.points[i]).filter((p): p is TimelinePoint => p !== undefined);
    const point: TimelinePoint = {
      t: Math.max(...parts.map((p) => p.t)),
      durationS: Math.max(...parts.map((p) => p.durationS)),
      started: 0,
      ended: 0,
      inFlight: 0,
      maxInFlight: 0,
      outcomes: {},
    };
    for (const p of parts) {
      point.started += p.started;
      point.ended += p.ended;
      point.inFlight += p.inFlight;
      point.maxInFlight += p.maxInFlight;
      for (const [o, c] of Object.entries(p.outcomes))
        point.outcomes[o as keyof typeof point.outcomes] =
          (point.outcomes[o as keyof typeof point.outcomes] ?? 0) + (c ?? 0);
    }
    if (parts.some((p) => p.openConversations !== undefined)) {
      point.openConversations = parts.reduce((s, p) => s + (p.openConversations ?? 0), 0);
      point.maxOpenConversations = parts.reduce((s, p) => s + (p.maxOpenConversations ?? 0), 0);
    }
    const withAnswers = parts.filter((p) => p.answers !== undefined);
    if (withAnswers.length > 0)
      point.answers = passShare(
        withAnswers.reduce((n, p) => n + p.answers!.passed, 0),
        withAnswers.reduce((n, p) => n + p.answers!.judged, 0),
      );
    const withBursts = parts.filter((p) => p.bursts !== undefined);
    if (withBursts.length > 0) {
      const sum = (pick: (b: NonNullable<TimelinePoint['bursts']>) => number): number =>
        withBursts.reduce((n, p) => n + pick(p.bursts!), 0);
      const total = sum((b) => b.total);
      point.bursts = {
        total,
        outOfOrder: findingShare(
          sum((b) => b.outOfOrder.count),
          total,
        ),
        staleLast: findingShare(
          sum((b) => b.staleLast.count),
          total,
        ),
        cartRegressed: findingShare(
          sum((b) => b.cartRegressed.count),
          total,
        ),
      };
    }
    if (parts.some((p) => p.targetRate !== undefined))
      point.targetRate = parts.reduce((s, p) => s + (p.targetRate ?? 0), 0);
    for (const m of LATENCY_METRICS) {
      const withM = parts.filter((p) => p[m] !== undefined);
      if (withM.length === 0) continue;
      const h = LatencyRecorder.decode(withM[0]![m]!.histogram);
      for (const p of withM.slice(1)) h.add(LatencyRecorder.decode(p[m]!.histogram));
      const s = summarizeHistogram(h);
      point[m] = { count: s.count, p50: s.p50, p99: s.p99, max: s.max, histogram: hdr.encodeIntoCompressedBase64(h) };
    }
    points.push(point);
  }
  return { intervalMs, points };
}

type Doc = { timeline?: Timeline; load?: unknown };

/** One line: the interval, the peak rate and in flight (and open conversations); HTML draws the charts. */
function timelineView(d: Doc): SectionView[] {
  const t = d.timeline;
  if (!t || t.points.length < 2) return [];
  const rates = t.points.map((p) => (p.durationS > 0 ? p.started / p.durationS : 0));
  const peakInFlight = Math.max(...t.points.map((p) => p.maxInFlight));
  const conversations = t.points.some((p) => p.maxOpenConversations !== undefined)
    ? ` · at most ${plural(Math.max(...t.points.map((p) => p.maxOpenConversations ?? 0)), 'conversation')} open`
    : '';
  // The worst interval's answers, from intervals of 10 answers or more (fewer say little).
  const judged = t.points.filter((p) => p.answers && p.answers.share !== null && p.answers.judged >= 10);
  const worst = judged.reduce<TimelinePoint | undefined>(
    (w, p) => (w === undefined || p.answers!.share! < w.answers!.share! ? p : w),
    undefined,
  );
  const right = worst
    ? ` · answers right down to ${formatPercent(worst.answers!.share)} (${worst.answers!.passed} of ${worst.answers!.judged}, at ${worst.t} s)`
    : '';
  return [
    {
      id: 'timeline',
      title: `Over time (per ${formatMs(t.intervalMs)})`,
      summary: `${t.points.length} intervals · started up to ${formatRate(Math.max(...rates))} · at most ${peakInFlight} in flight${conversations}${right}`,
      charts: ['chart-timeline-rate', 'chart-timeline-latency'],
    },
  ];
}

export const timelineSection = defineSection({
  name: 'timeline',
  fields: { timeline: timelineSchema.optional().describe('per-interval throughput, in flight and latency') },
  merge: (docs: readonly Doc[]) => {
    const timeline = mergeTimelines(docs.flatMap((d) => (d.timeline ? [d.timeline] : [])));
    return timeline ? { timeline } : {};
  },
  views: (d: Doc) => timelineView(d),
  // The line matters to a report whose subject is a rate (its load section: a load or a capacity
  // search); elsewhere the rate is the concurrency's consequence, not a figure set out to reach.
  brief: (d: Doc) => (d.load ? timelineView(d) : []),
});
