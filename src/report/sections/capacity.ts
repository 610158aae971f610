/**
 * `capacity`: the criteria, the measured rate curve and the verdict of a capacity search
 * (jobs/capacity-search.ts). A search is one process, so there is nothing to merge: merging one
 * report keeps it, several leave it out (the merged figures are no search's).
 */
import { z } from 'zod';
import { formatMs, formatPercent, formatRate } from '../../units.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import { count, ms, obj, statMs } from './common.js';

const pointStats = obj({ count, p50: ms, p99: ms });
const pointSchema = obj({
  rate: z.number().describe('intended rate, req/s'),
  achievedRate: z.number().describe('req/s'),
  sent: count,
  dropped: count,
  errors: count,
  errorRate: z.number().describe('errors / sent, 0..1'),
  ack: pointStats,
  answer: pointStats,
  sync: pointStats,
  generatorBound: z.boolean(),
  sendDelayP99Ms: ms,
  passed: z.boolean(),
  reasons: z.array(z.string()).describe('why it failed (empty when passed)'),
});
const capacitySchema = obj({
  maxRate: z.number().nullable().describe('highest passing rate measured, req/s; null when none passed'),
  firstFailingRate: z.number().nullable().describe('lowest failing rate measured, req/s; null when none failed'),
  limitedBySearch: z.boolean().describe('the search reached its highest rate and it passed (capacity may be higher)'),
  suspect: z.boolean().describe("some step's generator was bound: its figures are suspect"),
  criteria: obj({ ackP99Ms: ms, answerP99Ms: ms.nullable(), maxErrorRate: z.number() }),
  curve: z.array(pointSchema).describe('points sorted by rate'),
});
export type CapacitySection = z.output<typeof capacitySchema>;
export type CapacityPoint = CapacitySection['curve'][number];

/** `12.3 ms (150)`: a p99 with its count, `—` when the count cannot support it. */
const p99Cell = (s: { count: number; p99: number }, none: string): string =>
  s.count > 0 ? `${statMs(s.p99, s.count, 'p99')} (${s.count})` : none;

function capacityView(c: CapacitySection): SectionView {
  const rows = c.curve.map((p): Text[] => [
    formatRate(p.rate),
    formatRate(p.achievedRate),
    p.ack.count > 0 ? statMs(p.ack.p50, p.ack.count, 'p50') : '-',
    p99Cell(p.ack, 'no samples'),
    p99Cell(p.answer, '-'),
    `${p.errors} (${formatPercent(p.errorRate, 2)})`,
    String(p.dropped),
    [
      p.passed ? span('pass', 'ok') : span(`FAIL: ${p.reasons.join('; ')}`, 'fail'),
      p.generatorBound ? ' [generator-bound]' : '',
    ],
  ]);
  const criteria = `ack p99 < ${formatMs(c.criteria.ackP99Ms)}${c.criteria.answerP99Ms !== null ? `, answer p99 < ${formatMs(c.criteria.answerP99Ms)}` : ''}, errors <= ${formatPercent(c.criteria.maxErrorRate)}`;
  const verdict =
    c.maxRate === null
      ? span('no rate passed', 'fail')
      : span(
          `${formatRate(c.maxRate)}${c.limitedBySearch ? ' (the highest rate tried; raise --max-rate to look further)' : ''}`,
          'ok',
        );
  return {
    id: 'capacity',
    title: 'Capacity',
    summary: verdict,
    rows: [['criteria', criteria]],
    tables: [
      {
        columns: [
          'rate',
          'achieved',
          'ack p50',
          'ack p99 (samples)',
          'answer p99 (samples)',
          'errors',
          'dropped',
          'verdict',
        ].map((header, i) => ({ header, ...(i === 7 && { align: 'l' as const }) })),
        rows,
      },
    ],
    notes: c.suspect
      ? [span('WARNING: some steps were generator-bound (send delay p99 > 10 ms); their figures are suspect', 'warn')]
      : [],
    charts: c.curve.length > 0 ? ['chart-capacity'] : [],
  };
}

type Doc = { capacity?: CapacitySection };

export const capacitySection = defineSection({
  name: 'capacity',
  fields: { capacity: capacitySchema.optional().describe('capacity: the criteria, the rate curve and the verdict') },
  compute: (input: { capacity?: CapacitySection }) => (input.capacity ? { capacity: input.capacity } : {}),
  merge: (docs: readonly Doc[]) => (docs.length === 1 && docs[0]!.capacity ? { capacity: docs[0]!.capacity } : {}),
  views: (d: Doc) => (d.capacity ? [capacityView(d.capacity)] : []),
});
