/**
 * `bursts`: what the built-in checks found in the job's bursts (docs/bursts.md): bursts judged,
 * bursts with each finding (unanswered, declined, answered out of order, a stale last answer, a
 * cart that regressed) and the first findings with their evidence (scenario, mode, step, the
 * requestIds involved, every message's send and arrival time, the answer delivered last and the
 * answer to the last message). Absent when no burst was judged. Shards merge by adding the
 * counts; the findings are those of the inputs, as many as one report keeps.
 *
 * Findings are facts of the order of arrival, not verdicts: a service may choose a strategy that
 * produces some of them (docs/bursts.md). Only the scenarios' `expect:` and an unanswered message
 * fail a request, which its scenario entry already says; `burst.<finding>.rate` thresholds turn a
 * share into a gate. The shares per load interval are in `timeline.points[].bursts`, per capacity
 * step in `capacity.curve[].bursts`.
 */
import { z } from 'zod';
import { MAX_BURST_FINDINGS, mergeBurstFigures, type BurstFigures } from '../../metrics/index.js';
import { formatMs, formatPercent } from '../../units.js';
import type { TallySnapshot, Timeline } from '../run-types.js';
import { defineSection, type JUnitCase, type JUnitSuite } from '../section.js';
import { pct, plural, span, type SectionView, type Text } from '../view.js';
import { count, modeEnum, ms, obj, type Assert, type Same } from './common.js';

/** The checks, in their order (runner/types.ts BURST_CHECKS). */
const CHECKS = ['unanswered', 'declined', 'out-of-order', 'stale-last', 'cart-regressed'] as const;
type Check = (typeof CHECKS)[number];

const arrivalSchema = obj({
  message: count.describe('1-based, in the order sent'),
  requestId: z.string().optional(),
  sentAtMs: ms.describe("sent, ms from the burst's start"),
  arrivedAtMs: ms
    .nullable()
    .describe("its answer (or error payload, or refusal) arrived, ms from the burst's start; null: nothing came"),
  status: z.enum(['answered', 'declined', 'unanswered', 'interrupted']),
});

const findingSchema = obj({
  check: z.enum(CHECKS),
  suite: z.string(),
  scenario: z.string(),
  mode: modeEnum,
  step: count.describe("the burst's step, 1-based"),
  requestIds: z.array(z.string()).describe('the requestIds of the messages the finding involves'),
  arrivals: z.array(arrivalSchema).describe('every message of the burst'),
  lastDelivered: z.string().optional().describe('the requestId of the answer delivered last'),
  lastMessage: z.string().optional().describe('the requestId of the last message'),
  message: z.string(),
});

const countOf = (what: string) => count.describe(`bursts with ${what}`);
const burstsSchema = obj({
  total: count.describe('bursts judged (interrupted ones are not)'),
  unanswered: countOf('a message that got neither an answer nor an error payload (a defect)'),
  declined: countOf('a message the service declined: an error payload, HTTP 409 or 429'),
  outOfOrder: countOf("an answer delivered after a later message's answer"),
  staleLast: countOf('a last answer delivered that is not the answer to the last message'),
  cartRegressed: countOf('an answer whose cart lacks a line an answer delivered before it had'),
  findings: z.array(findingSchema).describe(`the first ${MAX_BURST_FINDINGS} findings with their evidence`),
});
export type BurstsSection = z.output<typeof burstsSchema>;
type Finding = BurstsSection['findings'][number];
const _checks: [
  Assert<Same<Finding, NonNullable<TallySnapshot['bursts']>['findings'][number]>>,
  Assert<Same<Omit<BurstsSection, 'findings'>, Omit<BurstFigures<Finding>, 'findings'>>>,
] = [true, true];
void _checks;

type Doc = { bursts?: BurstsSection; timeline?: Timeline };

/** What each check says, and its count field. */
const CHECK_TEXT: Record<Check, { label: string; field: keyof Omit<BurstsSection, 'total' | 'findings'> }> = {
  unanswered: { label: 'unanswered', field: 'unanswered' },
  declined: { label: 'declined', field: 'declined' },
  'out-of-order': { label: 'answered out of order', field: 'outOfOrder' },
  'stale-last': { label: 'stale last answer', field: 'staleLast' },
  'cart-regressed': { label: 'cart regressed', field: 'cartRegressed' },
};

/** Bursts the console lists by default. */
const SHOWN = 10;

/** `1: 0 ms → 1.53 s · 2: 300 ms → 828 ms`: each message's send and arrival (whole ms for a send). */
function arrivalsText(f: Finding): string {
  return f.arrivals
    .map(
      (a) =>
        `${a.message}: ${formatMs(Math.round(a.sentAtMs))} → ${a.arrivedAtMs === null ? a.status : formatMs(a.arrivedAtMs)}`,
    )
    .join(' · ');
}

/** The findings of one burst (a burst's checks give one finding each): a row of the table. */
interface BurstRow {
  first: Finding;
  checks: Check[];
  requestIds: Set<string>;
}

/** The findings grouped by burst, in the order kept. */
function byBurst(findings: readonly Finding[]): BurstRow[] {
  const rows = new Map<string, BurstRow>();
  for (const f of findings) {
    const key = JSON.stringify([f.suite, f.scenario, f.mode, f.step, f.arrivals]);
    const row = rows.get(key);
    if (row) {
      row.checks.push(f.check);
      for (const id of f.requestIds) row.requestIds.add(id);
    } else rows.set(key, { first: f, checks: [f.check], requestIds: new Set(f.requestIds) });
  }
  return [...rows.values()];
}

/** One row per burst with findings; `ids`: a column of the requestIds involved (the full view; the console's brief leaves it out). */
function findingsTable(b: BurstsSection, max: number, ids: boolean): SectionView['tables'] {
  if (b.findings.length === 0) return [];
  const all = byBurst(b.findings);
  const rows = all.slice(0, max).map((r): Text[] => {
    const f = r.first;
    const what = r.checks.map((c) => CHECK_TEXT[c].label).join(', ');
    return [
      span(what, r.checks.includes('unanswered') ? 'fail' : 'warn'),
      `${f.scenario} [${f.mode}] step ${f.step}`,
      ...(ids ? [[...r.requestIds].join(', ')] : []),
      arrivalsText(f),
    ];
  });
  const more = all.length - rows.length;
  return [
    {
      columns: [
        { header: 'findings', align: 'l' },
        { header: 'scenario', align: 'l' },
        ...(ids ? [{ header: 'requestIds', align: 'l' as const }] : []),
        { header: 'message: sent → answered (from the burst’s start)', align: 'l' },
      ],
      rows,
      ...(more > 0 && {
        more: `… ${plural(more, 'more burst')} in report.json (which keeps the first ${MAX_BURST_FINDINGS} findings)`,
      }),
    },
  ];
}

/** `out of order up to 40.0% (4 of 10, at 12 s)`: the worst load interval of a finding, from intervals of 10 bursts or more. */
function worstInterval(t: Timeline | undefined, pick: 'outOfOrder' | 'staleLast', what: string): Text[] {
  const judged = (t?.points ?? []).filter((p) => p.bursts && p.bursts.total >= 10 && p.bursts[pick].share !== null);
  if (judged.length < 2) return [];
  const worst = judged.reduce((w, p) => (p.bursts![pick].share! > w.bursts![pick].share! ? p : w));
  const b = worst.bursts!;
  return [
    `${what} up to ${formatPercent(b[pick].share)} per interval (${b[pick].count} of ${b.total}, at ${worst.t} s)`,
  ];
}

/**
 * A job's load intervals, when two or more of them judged bursts (one point draws no line): what
 * report.html charts (html-charts.ts burstsChartData: each finding's share per interval);
 * undefined otherwise.
 */
export function burstIntervals(t: Timeline | undefined): Timeline['points'] | undefined {
  if (!t || t.points.filter((p) => p.bursts).length < 2) return undefined;
  return t.points;
}

function burstsView(d: Doc, max: number, ids: boolean): SectionView {
  const b = d.bursts!;
  const found = (c: Check): Text => {
    const n = b[CHECK_TEXT[c].field];
    const label = c === 'out-of-order' ? 'out of order' : CHECK_TEXT[c].label;
    return span(`${n} ${label} (${pct(n / b.total)})`, c === 'unanswered' ? 'fail' : 'warn');
  };
  const fired = CHECKS.filter((c) => b[CHECK_TEXT[c].field] > 0);
  const summary: Text =
    fired.length === 0
      ? `${plural(b.total, 'burst')} judged: every message answered, in order, no cart regressed`
      : [`${plural(b.total, 'burst')} judged`, ...fired.flatMap((c): Text[] => [' · ', found(c)]).flat()];
  return {
    id: 'bursts',
    title: 'Bursts',
    tone: b.unanswered > 0 ? 'fail' : CHECKS.some((c) => b[CHECK_TEXT[c].field] > 0) ? 'warn' : 'ok',
    summary,
    tables: findingsTable(b, max, ids),
    ...(burstIntervals(d.timeline) && { charts: ['chart-bursts-timeline'] }),
    notes: [
      ...worstInterval(d.timeline, 'outOfOrder', 'out of order'),
      ...worstInterval(d.timeline, 'staleLast', 'stale last answer'),
      ...(fired.length > 0
        ? [span('findings are facts, not failures: expect: and unanswered messages fail (docs/bursts.md)', 'muted')]
        : []),
    ],
  };
}

/** One JUnit testcase per check: a failure for unanswered messages (a defect), the others' counts as properties. */
function burstsJUnit(b: BurstsSection): JUnitSuite[] {
  const cases = CHECKS.map((c): JUnitCase => {
    const n = b[CHECK_TEXT[c].field];
    const tc: JUnitCase = {
      classname: 'droidcheck.bursts',
      name: CHECK_TEXT[c].label,
      timeMs: 0,
      properties: [
        ['bursts', String(b.total)],
        ['found', String(n)],
        ['share', b.total > 0 ? String(Math.round((n / b.total) * 10_000) / 10_000) : ''],
      ],
    };
    if (c !== 'unanswered' || n === 0) return tc;
    const lines = b.findings
      .filter((f) => f.check === c)
      .slice(0, 10)
      .map((f) => `${f.scenario} [${f.mode}] step ${f.step}: ${f.message}`);
    return {
      ...tc,
      problem: {
        kind: 'failure',
        message: `${plural(n, 'burst')} with an unanswered message`,
        type: 'burst',
        text: lines.join('\n'),
      },
    };
  });
  return [{ name: 'droidcheck.bursts', verdicts: true, cases }];
}

export const burstsSection = defineSection({
  name: 'bursts',
  fields: {
    bursts: burstsSchema
      .optional()
      .describe('what the built-in checks found in the bursts (docs/bursts.md); absent: no burst was judged'),
  },
  compute: (input: { tally: TallySnapshot }) => (input.tally.bursts ? { bursts: input.tally.bursts } : {}),
  merge: (docs: readonly Doc[]) => {
    const bursts = mergeBurstFigures(docs.map((d) => d.bursts));
    return bursts ? { bursts } : {};
  },
  views: (d: Doc) => (d.bursts ? [burstsView(d, MAX_BURST_FINDINGS, true)] : []),
  brief: (d: Doc) => (d.bursts ? [burstsView(d, SHOWN, false)] : []),
  junit: (d: Doc) => (d.bursts ? burstsJUnit(d.bursts) : []),
});
