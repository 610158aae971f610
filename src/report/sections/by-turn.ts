/**
 * `byTurn` (latency of a conversation's answer turns by turn number, docs/conversations.md) and
 * `byTurnHistograms` (HDR, compressed base64 of microsecond values, so shards merge by adding
 * histograms). Turn N is the N-th `say` of a steps scenario: its history holds every earlier
 * turn, and an LLM's answer time grows with the history, so the run-wide `latency` hides a slow
 * fifth turn behind four fast ones. Only turns and metrics with samples are written; a run
 * without conversations writes neither field. Think time is never in these figures: each turn
 * is measured from its own intended start (the end of the pause before it).
 */
import { z } from 'zod';
import { LatencyRecorder, minSamplesForStat, type LatencySummary } from '../../metrics/index.js';
import { formatMs } from '../../units.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import { latencySummarySchema, obj, statMs } from './common.js';

/** The metrics of an answer turn (a `say` step: sync, or async acknowledgement and answer). */
export const TURN_METRICS = ['answer', 'sync', 'ack'] as const;
type TurnMetric = (typeof TURN_METRICS)[number];

const perTurnMetric = <T extends z.ZodType>(schema: T) =>
  obj({ answer: schema.optional(), sync: schema.optional(), ack: schema.optional() });
const turnKey = z
  .string()
  .regex(/^[1-9]\d*$/)
  .describe('turn number, 1-based (the N-th say of a conversation)');
const byTurnSchema = z
  .record(turnKey, perTurnMetric(latencySummarySchema))
  .describe(
    'latency in ms of each answer turn of the conversations, by turn number (only turns and metrics with samples)',
  );
const byTurnHistogramsSchema = z.record(
  turnKey,
  perTurnMetric(z.string().describe('HDR histogram, compressed base64, values in microseconds')),
);

type ByTurn = Record<string, Partial<Record<TurnMetric, LatencySummary>>>;
type Encoded = Record<string, Partial<Record<TurnMetric, string>>>;
type Doc = { byTurn?: ByTurn; byTurnHistograms?: Encoded };
/** The section's fields (what thresholds.ts reads). */
export type ByTurnFields = Doc;

/** The fields of per-turn recorders (turn number -> recorder); empty turns and metrics left out. */
function fieldsOf(turns: ReadonlyMap<number, LatencyRecorder>): Doc {
  const byTurn: ByTurn = {};
  const byTurnHistograms: Encoded = {};
  for (const turn of [...turns.keys()].sort((a, b) => a - b)) {
    const r = turns.get(turn)!;
    for (const m of TURN_METRICS) {
      if (r.count(m) === 0) continue;
      (byTurn[turn] ??= {})[m] = r.summary(m);
      (byTurnHistograms[turn] ??= {})[m] = r.encode(m);
    }
  }
  return Object.keys(byTurn).length === 0 ? {} : { byTurn, byTurnHistograms };
}

/** Adds the per-turn histograms of every report into one map (turn number -> recorder). */
function mergeTurns(docs: readonly Doc[]): Map<number, LatencyRecorder> {
  const turns = new Map<number, LatencyRecorder>();
  for (const d of docs) {
    for (const [key, encoded] of Object.entries(d.byTurnHistograms ?? {})) {
      const turn = Number(key);
      const r = LatencyRecorder.fromEncoded(encoded);
      const mine = turns.get(turn);
      if (mine) mine.merge(r);
      else turns.set(turn, r);
    }
  }
  return turns;
}

/** A table turn x metric: count, p50, p90, p99 (`—` below 100 samples) and max, in ms. */
function byTurnView(d: Doc): SectionView[] {
  const byTurn = d.byTurn;
  if (!byTurn || Object.keys(byTurn).length === 0) return [];
  const rows: Text[][] = [];
  let unsupported = false;
  for (const turn of Object.keys(byTurn).sort((a, b) => Number(a) - Number(b))) {
    for (const m of TURN_METRICS) {
      const s = byTurn[turn]![m];
      if (!s) continue;
      if (s.count < 100) unsupported = true;
      rows.push([
        turn,
        m,
        String(s.count),
        statMs(s.p50, s.count, 'p50'),
        statMs(s.p90, s.count, 'p90'),
        statMs(s.p99, s.count, 'p99'),
        formatMs(s.max),
      ]);
    }
  }
  const right = 'r' as const;
  return [
    {
      id: 'by-turn',
      title: 'Latency by turn',
      tables: [
        {
          columns: [
            { header: 'turn', align: right },
            { header: 'metric' },
            { header: 'count', align: right },
            { header: 'p50', align: right },
            { header: 'p90', align: right },
            { header: 'p99', align: right },
            { header: 'max', align: right },
          ],
          rows,
        },
      ],
      notes: [
        span('turn N: the N-th say of a conversation, measured from its own start (think time excluded)', 'muted'),
        ...(unsupported ? [span('— fewer samples than the percentile needs (p50 2, p90 10, p99 100)', 'muted')] : []),
      ],
    },
  ];
}

/**
 * Does the table say something at a glance: some turn after the first has a metric with the
 * samples p90 needs (10)? A run of one-turn scenarios has only turn 1, which is the run-wide
 * table again; a turn 2 of one or two samples is a max, not a trend (docs/statistics.md).
 */
function turnsWorthShowing(d: Doc): boolean {
  return Object.entries(d.byTurn ?? {}).some(
    ([turn, metrics]) =>
      Number(turn) > 1 && TURN_METRICS.some((m) => (metrics[m]?.count ?? 0) >= minSamplesForStat('p90')),
  );
}

export const byTurnSection = defineSection({
  name: 'byTurn',
  fields: { byTurn: byTurnSchema.optional(), byTurnHistograms: byTurnHistogramsSchema.optional() },
  compute: (input: { latency: LatencyRecorder }) => fieldsOf(input.latency.byTurn),
  merge: (docs: readonly Doc[]) => fieldsOf(mergeTurns(docs)),
  views: (d: Doc) => byTurnView(d),
  brief: (d: Doc) => (turnsWorthShowing(d) ? byTurnView(d) : []),
});
