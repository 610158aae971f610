/**
 * `capacity`: the criteria, the measured rate curve and the verdict of a capacity search
 * (jobs/load/capacity-search.ts). A search is one process, so there is nothing to merge: merging one
 * report keeps it, several leave it out (the merged figures are no search's).
 */
import { z } from 'zod';
import { formatMs, formatPercent, formatRate } from '../../units.js';
import { defineSection, type JUnitCase } from '../section.js';
import { span, type SectionView, type Span, type Text } from '../view.js';
import { burstSharesSchema, count, ms, obj, share, statMs } from './common.js';

const pointStats = obj({ count, p50: ms, p99: ms });
/** Optional fields are absent from the reports of a droidcheck that did not judge answers under load. */
const answersSchema = obj({
  passed: count.describe('requests whose outcome passed (expectations held)'),
  judged: count.describe('requests with a verdict (passed or failed)'),
  share: share.nullable().describe('passed / judged, 0..1; null when none was judged'),
  interval: obj({ low: share, high: share }).describe('Wilson 95% interval of the share, 0..1'),
  judgedOn: z
    .enum(['interval', 'point'])
    .describe(
      "what --min-pass-rate was compared with: the interval's lower bound, or the share itself when too few answers for the bound to reach it",
    ),
});
const criterionEnum = z.enum(['answers', 'latency', 'samples', 'errors', 'dropped', 'generator']);
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
  generatorBound: z.boolean().describe('the one generator-bound rule (metrics/thresholds-trust.ts) on this step'),
  sendDelayP99Ms: ms,
  sendDelayOffByMs: ms
    .optional()
    .describe(
      "how much this step's latency figures may be too high: its send delay at the highest percentile its count supports",
    ),
  stepMs: ms.optional().describe('how long this rate was measured, after its warm-up'),
  lengthened: z
    .string()
    .optional()
    .describe('why this rate was measured longer than --step-duration (the samples its criteria need)'),
  answers: answersSchema.optional().describe('the share of answers right at this rate'),
  bursts: burstSharesSchema
    .optional()
    .describe('bursts judged at this rate and the shares of each finding (docs/bursts.md); absent: none'),
  latencyPassed: z.boolean().optional().describe('the latency, error and drop criteria held (the answers not judged)'),
  passed: z.boolean().describe('every criterion held'),
  reasons: z.array(z.string()).describe('why it failed (empty when passed)'),
});
const searchResult = {
  maxRate: z
    .number()
    .nullable()
    .describe('highest passing rate below the lowest failing one, req/s; null when none passed'),
  firstFailingRate: z.number().nullable().describe('lowest failing rate measured, req/s; null when none failed'),
  limitedBySearch: z.boolean().describe('the search reached its highest rate and it passed (capacity may be higher)'),
};
const capacitySchema = obj({
  ...searchResult,
  suspect: z.boolean().describe("some step's generator was bound: its figures are suspect"),
  criteria: obj({
    ackP99Ms: ms,
    answerP99Ms: ms.nullable(),
    maxErrorRate: z.number(),
    minPassRate: share.optional().describe('lowest share of answers right (--min-pass-rate); 0: not judged'),
    minCapacity: z
      .number()
      .optional()
      .describe('--min-capacity, req/s: the knee a CI gate requires; below it (or no rate passed) the job exits 99'),
  }),
  endedBy: obj({
    rate: z.number().describe('req/s'),
    criteria: z.array(criterionEnum).describe('the criteria that failed there'),
    reasons: z.array(z.string()),
  })
    .nullable()
    .optional()
    .describe('the lowest failing rate and what failed there; null when none failed'),
  latencyOnly: obj(searchResult)
    .optional()
    .describe("the capacity on the latency, error and drop criteria alone (the answers' share not judged)"),
  curve: z.array(pointSchema).describe('points sorted by rate'),
});
export type CapacitySection = z.output<typeof capacitySchema>;
export type CapacityPoint = CapacitySection['curve'][number];

/** `12.3 ms (150)`: a p99 with its count, `—` when the count cannot support it. */
const p99Cell = (s: { count: number; p99: number }, none: string): string =>
  s.count > 0 ? `${statMs(s.p99, s.count, 'p99')} (${s.count})` : none;

/** `71.3% (107/150, 95% CI 64%–78%)`: the share of answers right at a rate, `-` when none was judged (or an older report). */
const rightCell = (p: CapacityPoint): string => {
  const a = p.answers;
  if (!a || a.share === null) return '-';
  return `${formatPercent(a.share)} (${a.passed}/${a.judged}, 95% CI ${formatPercent(a.interval.low, 0)}–${formatPercent(a.interval.high, 0)})`;
};

/**
 * The capacity gate failed: no rate passed, or the knee is below `--min-capacity`
 * (build-report.ts: exit 99, or 98 when the search ended only on a generator-bound step whose
 * latency could not be judged: {@link capacityNotJudged}).
 */
export function capacityFailed(c: CapacitySection): boolean {
  const min = c.criteria.minCapacity;
  return c.maxRate === null || (min !== undefined && c.maxRate < min);
}

/**
 * The gate failed, but only because the search ended at a step whose latency droidcheck could
 * not judge (the generator was bound, the p99 within its send delay of the limit:
 * metrics/thresholds-trust.ts): neither a pass nor a breach, exit 98.
 */
export function capacityNotJudged(c: CapacitySection): boolean {
  const ended = c.endedBy?.criteria ?? [];
  return capacityFailed(c) && ended.length > 0 && ended.every((x) => x === 'generator');
}

/** `--min-capacity 50 req/s: NOT MET`, when one was required. */
function gateText(c: CapacitySection): Span[] {
  const min = c.criteria.minCapacity;
  if (min === undefined) return [];
  if (capacityNotJudged(c))
    return [span(' · '), span(`--min-capacity ${formatRate(min)}: not judged (the generator was bound)`, 'warn')];
  const failed = capacityFailed(c);
  return [
    span(' · '),
    span(`--min-capacity ${formatRate(min)}: ${failed ? 'NOT MET' : 'met'}`, failed ? 'fail' : 'ok'),
  ];
}

/** `ended at 20 req/s by ack p99 112 ms >= 100 ms`: the lowest failing rate and why. */
function endedText(c: CapacitySection): string {
  if (!c.endedBy) return c.maxRate === null || c.limitedBySearch ? '' : ' · no rate failed';
  return ` · ended at ${formatRate(c.endedBy.rate)} by ${c.endedBy.reasons.join('; ')}`;
}

/**
 * The verdict's line (section.ts `headline`): `Capacity 15 req/s (the knee) · ended at 20 req/s
 * by ack p99 112 ms >= 100 ms · --min-capacity 50 req/s: NOT MET`.
 */
function capacityHeadline(c: CapacitySection): Text {
  const knee =
    c.maxRate === null
      ? span('no rate passed', capacityNotJudged(c) ? 'warn' : 'fail')
      : span(
          `${formatRate(c.maxRate)} (the knee${c.limitedBySearch ? '; the highest rate tried: raise --max-rate to look further' : ''})`,
          capacityFailed(c) ? 'fail' : 'ok',
        );
  return [span('Capacity ', 'strong'), knee, endedText(c), ...gateText(c)];
}

/** The rate (and why it is not higher) of one search result. */
function rateText(r: { maxRate: number | null; limitedBySearch: boolean }): string {
  if (r.maxRate === null) return 'no rate passed';
  return `${formatRate(r.maxRate)}${r.limitedBySearch ? ' (the highest rate tried; raise --max-rate to look further)' : ''}`;
}

/** The generator-bound steps and how much their figures may be off. */
function suspectNote(c: CapacitySection): string {
  const bound = c.curve.filter((p) => p.generatorBound);
  const worst = Math.max(0, ...bound.map((p) => p.sendDelayOffByMs ?? p.sendDelayP99Ms));
  return `WARNING: ${bound.length} of ${c.curve.length} steps were generator-bound (send delay above 10 ms; at ${bound.map((p) => formatRate(p.rate)).join(', ')}): their latency figures may be up to ${formatMs(worst)} too high, and a criterion that close to its limit was not judged`;
}

/** `12.5% (5/40)`: a burst finding's share at a rate, `-` when no burst was judged there. */
const burstCell = (
  p: CapacityPoint,
  pick: (b: NonNullable<CapacityPoint['bursts']>) => { count: number; share: number | null },
): string => {
  if (!p.bursts) return '-';
  const f = pick(p.bursts);
  return `${formatPercent(f.share)} (${f.count}/${p.bursts.total})`;
};

function capacityView(c: CapacitySection): SectionView {
  const bursts = c.curve.some((p) => p.bursts !== undefined);
  const rows = c.curve.map((p): Text[] => [
    formatRate(p.rate),
    formatRate(p.achievedRate),
    p.ack.count > 0 ? statMs(p.ack.p50, p.ack.count, 'p50') : '-',
    p99Cell(p.ack, 'no samples'),
    p99Cell(p.answer.count > 0 ? p.answer : p.sync, '-'),
    rightCell(p),
    ...(bursts ? [burstCell(p, (b) => b.outOfOrder), burstCell(p, (b) => b.staleLast)] : []),
    `${p.errors} (${formatPercent(p.errorRate, 2)})`,
    String(p.dropped),
    [
      p.passed ? span('pass', 'ok') : span(`FAIL: ${p.reasons.join('; ')}`, 'fail'),
      p.generatorBound ? ' [generator-bound]' : '',
    ],
  ]);
  const min = c.criteria.minPassRate ?? 0;
  const criteria = `ack p99 < ${formatMs(c.criteria.ackP99Ms)}${c.criteria.answerP99Ms !== null ? `, answer p99 < ${formatMs(c.criteria.answerP99Ms)}` : ''}, errors <= ${formatPercent(c.criteria.maxErrorRate)}${min > 0 ? `, answers right >= ${formatPercent(min)} (on the Wilson 95% lower bound where the sample allows)` : ''}`;
  // The last rate where the answers and the latency both held; the latency-only one beside it when it differs.
  const onTime = c.latencyOnly;
  const differs = onTime !== undefined && onTime.maxRate !== c.maxRate;
  const summary: Text = [
    span(rateText(c), c.maxRate === null ? 'fail' : 'ok'),
    min > 0 && c.maxRate !== null ? ' (answers and latency held)' : '',
    differs ? ` · latency only: ${rateText(onTime)}` : '',
  ];
  const ended: [string, Text][] = c.endedBy
    ? [
        [
          'ended by',
          span(
            `${c.endedBy.reasons.join('; ')} (at ${formatRate(c.endedBy.rate)})`,
            c.endedBy.criteria.includes('answers') ? 'warn' : 'fail',
          ),
        ],
      ]
    : [];
  const minRate = c.criteria.minCapacity;
  const gate: [string, Text][] =
    minRate === undefined
      ? []
      : [
          [
            'required',
            span(
              `--min-capacity ${formatRate(minRate)}: ${capacityFailed(c) ? `${capacityNotJudged(c) ? 'not judged' : 'not met'} (the knee is ${c.maxRate === null ? 'none: no rate passed' : formatRate(c.maxRate)}; exit ${capacityNotJudged(c) ? '98: the search ended on a generator-bound step' : '99'})` : 'met'}`,
              capacityFailed(c) ? 'fail' : 'ok',
            ),
          ],
        ];
  const lengthened = c.curve.filter((p) => p.lengthened);
  return {
    id: 'capacity',
    title: 'Capacity',
    summary,
    rows: [['criteria', criteria], ...ended, ...gate],
    tables: [
      {
        columns: [
          'rate',
          'achieved',
          'ack p50',
          'ack p99 (samples)',
          c.curve.some((p) => p.answer.count > 0) || !c.curve.some((p) => p.sync.count > 0)
            ? 'answer p99 (samples)'
            : 'sync p99 (samples)',
          'right',
          ...(bursts ? ['bursts out of order', 'stale last'] : []),
          'errors',
          'dropped',
          'verdict',
        ].map((header, i, all) => ({ header, ...(i === all.length - 1 && { align: 'l' as const }) })),
        rows,
      },
    ],
    notes: [
      ...(lengthened.length > 0
        ? [
            `measured longer than --step-duration for the samples a p99 needs: ${lengthened.map((p) => `${formatRate(p.rate)} for ${formatMs(p.stepMs ?? 0)}`).join(', ')}`,
          ]
        : []),
      ...(c.suspect ? [span(suspectNote(c), 'warn')] : []),
    ],
    charts: c.curve.length > 0 ? ['chart-capacity', 'chart-capacity-quality'] : [],
  };
}

type Doc = { capacity?: CapacitySection };

export const capacitySection = defineSection({
  name: 'capacity',
  fields: { capacity: capacitySchema.optional().describe('capacity: the criteria, the rate curve and the verdict') },
  merge: (docs: readonly Doc[]) => (docs.length === 1 && docs[0]!.capacity ? { capacity: docs[0]!.capacity } : {}),
  views: (d: Doc) => (d.capacity ? [capacityView(d.capacity)] : []),
  headline: (d: Doc) => (d.capacity ? capacityHeadline(d.capacity) : undefined),
  junit: (d: Doc) =>
    d.capacity ? [{ name: 'droidcheck.capacity', cases: [capacityCase(d.capacity)], verdicts: true }] : [],
});

/** The search's verdict as one JUnit testcase: a failure when the gate failed. */
function capacityCase(c: CapacitySection): JUnitCase {
  const min = c.criteria.minCapacity;
  const name = min === undefined ? 'capacity: some rate passed' : `capacity >= ${formatRate(min)}`;
  const text = `${c.maxRate === null ? 'no rate passed' : `knee ${formatRate(c.maxRate)}`}${endedText(c)}`;
  return {
    classname: 'droidcheck.capacity',
    name,
    timeMs: 0,
    ...(capacityFailed(c) && { problem: { kind: 'failure' as const, message: text, type: 'capacity' } }),
  };
}
