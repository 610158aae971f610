/**
 * `thresholds`: every threshold judged (metrics/thresholds.ts): the spec's limits by default,
 * then the user's. Merged reports are judged again on the merged figures (the inputs'
 * expressions and the merge's own), never by combining the inputs' verdicts. A latency
 * threshold of a load whose generator was bound (any shard's, once merged) is `not-judged`
 * (metrics/thresholds-trust.ts).
 */
import { z } from 'zod';
import {
  DEFAULT_THRESHOLDS,
  LOAD_DEFAULT_THRESHOLDS,
  REMOTE_DEFAULT_THRESHOLDS,
  THRESHOLD_MARKS,
  TRUST_CONDITIONS,
  describeThreshold,
  evaluateThresholds,
  thresholdVerdictText,
  type LatencyMetric,
  type ThresholdResult,
  type ThresholdStatus,
} from '../../metrics/index.js';
import type { ReceiverStats } from '../run-types.js';
import type { BurstsSection } from './bursts.js';
import type { ByTurnFields } from './by-turn.js';
import { defineSection, type JUnitCase, type MergeReportsOptions, type SectionInput } from '../section.js';
import { span, type Tone } from '../view.js';
import { count, ms, obj, type Assert, type Same } from './common.js';
import type { Histograms, LatencyEntry } from './latency.js';
import type { LoadSection } from './load.js';
import type { NetworkSection } from './network.js';
import type { PolicySection } from './policy.js';
import type { CoverageSnapshot } from '../../coverage/index.js';
import { coverageFigures } from './coverage.js';
import type { ReportSummary } from './summary.js';

export const thresholdStatusEnum = z.enum(['passed', 'breached', 'too-few-samples', 'no-samples', 'not-judged']);
/** One trust condition that held (metrics/thresholds-trust.ts). */
export const distrustSchema = obj({
  condition: z.enum(Object.keys(TRUST_CONDITIONS) as [keyof typeof TRUST_CONDITIONS]),
  reason: z
    .string()
    .describe("the run's figure behind it, e.g. `send delay p99 45.2 ms > 10 ms, figures up to 45.2 ms too high`"),
  offByMs: ms
    .optional()
    .describe(
      'how much the latency figures may be off: a threshold whose figure is this close to its limit is not judged',
    ),
});
const thresholdResultSchema = obj({
  expression: z.string(),
  metric: z.string(),
  status: thresholdStatusEnum.describe(
    'not-judged: a latency threshold of a run whose latency figures are not trusted (notJudged says why; exit 98)',
  ),
  passed: z.boolean().describe('false only when breached'),
  notJudged: z
    .array(distrustSchema)
    .optional()
    .describe('with not-judged: why the latency figures are not trusted (the generator was bound)'),
  actual: z
    .number()
    .nullable()
    .describe('in `unit`; null with no-samples; as measured with too-few-samples and not-judged'),
  unit: z.enum(['ms', 'share', 'count']),
  op: z.enum(['<', '<=', '>', '>=', '==', '!=']),
  limit: z.number().describe('in `unit`'),
  count: count.describe('samples behind the figure'),
  minCount: count.describe('samples the statistic needs (p99: 100, p99.9: 1,000)'),
  beside: obj({ metric: z.string(), actual: z.number().nullable(), count })
    .optional()
    .describe('ackServer thresholds: the same statistic of the raw client-side ack (ms)'),
  uncovered: z
    .array(z.string())
    .optional()
    .describe(
      'coverage thresholds: what was not covered (products, intents, rules; a funnel stage: the suites none of whose conversations reached it)',
    ),
});
const _threshold: Assert<Same<z.output<typeof thresholdResultSchema>, ThresholdResult>> = true;
void _threshold;

type Judged = {
  summary: ReportSummary;
  latency: Record<LatencyMetric, LatencyEntry>;
  receiver: ReceiverStats;
  histograms: Histograms;
  network?: NetworkSection;
  load?: Pick<LoadSection, 'sent' | 'dropped' | 'sendDelay' | 'generator'>;
  byTurn?: ByTurnFields['byTurn'];
  byTurnHistograms?: ByTurnFields['byTurnHistograms'];
  policy?: PolicySection;
  coverage?: CoverageSnapshot;
  bursts?: BurstsSection;
};
type Doc = Judged & { settings: Record<string, unknown>; thresholds: ThresholdResult[] };

const TONE: Record<ThresholdStatus, Tone> = {
  passed: 'ok',
  breached: 'fail',
  'too-few-samples': 'warn',
  'no-samples': 'warn',
  'not-judged': 'warn',
};
const judge = (expressions: readonly string[], d: Judged, defaults: boolean): ThresholdResult[] =>
  evaluateThresholds(
    expressions,
    {
      summary: d.summary,
      latency: d.latency,
      receiver: d.receiver,
      histograms: d.histograms,
      ...(d.load && { load: d.load }),
      ...(d.byTurn && { byTurn: d.byTurn, byTurnHistograms: d.byTurnHistograms ?? {} }),
      ...(d.policy && { policy: d.policy }),
      ...(d.coverage && { coverage: coverageFigures(d.coverage) }),
      ...(d.bursts && { bursts: d.bursts }),
    },
    { defaults, ackBasis: d.network ? 'ackServer' : 'ack' },
  );

const THRESHOLD_SUITE = 'droidcheck.thresholds';

function thresholdCase(t: ThresholdResult): JUnitCase {
  const tc = { classname: THRESHOLD_SUITE, name: t.expression, timeMs: 0 };
  if (t.status === 'passed') return tc;
  const message = thresholdVerdictText(t);
  if (t.status !== 'breached') return { ...tc, problem: { kind: 'skipped', message } };
  return {
    ...tc,
    problem: { kind: 'failure', message, type: 'threshold', text: `${t.expression}\n${describeThreshold(t)}` },
  };
}

export const thresholdsSection = defineSection({
  name: 'thresholds',
  fields: { thresholds: z.array(thresholdResultSchema) },
  compute: (input: SectionInput, doc: Judged) => ({
    thresholds: judge(input.thresholds ?? [], doc, input.defaultThresholds ?? true),
  }),
  merge: (docs: readonly Doc[], merged: Judged, opts: MergeReportsOptions) => {
    const first = docs[0]!;
    const defaults = new Set([...DEFAULT_THRESHOLDS, ...REMOTE_DEFAULT_THRESHOLDS, ...LOAD_DEFAULT_THRESHOLDS]);
    const expressions = [
      ...new Set([...docs.flatMap((d) => d.thresholds.map((t) => t.expression)), ...(opts.thresholds ?? [])]),
    ].filter((e) => !defaults.has(e));
    return {
      // Whether the spec's limits were judged is in every report's settings (jobs/pipeline/pipeline.ts).
      thresholds: judge(expressions, merged, first.settings.defaultThresholds !== false),
    };
  },
  views: (d: Doc) =>
    d.thresholds.length === 0
      ? []
      : [
          {
            id: 'thresholds',
            title: 'Thresholds',
            notes: d.thresholds.map((t) => [
              span(THRESHOLD_MARKS[t.status], TONE[t.status]),
              ' ',
              thresholdVerdictText(t),
            ]),
          },
        ],
  // One testcase per threshold: a failure when breached, skipped when not judged.
  junit: (d: Doc, opts) =>
    (opts.thresholds ?? true) && d.thresholds.length > 0
      ? [{ name: THRESHOLD_SUITE, verdicts: true, cases: d.thresholds.map(thresholdCase) }]
      : [],
});
