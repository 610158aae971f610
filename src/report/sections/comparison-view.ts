/**
 * How a comparison reads (comparison.ts decides it): a phrase per rule, a row per latency
 * percentile and outcome, the verdict first.
 */
import { distrustText } from '../../metrics/index.js';
import { formatMs, formatPercent } from '../../units.js';
import { span, type SectionView, type Span, type Text } from '../view.js';
import { answerChangesView, MAX_ANSWER_DIFFS } from './answer-changes-view.js';
import { kneeNotes } from './capacity-compare.js';
import { coverageChangeNotes } from './coverage.js';
import { statMs } from './common.js';
import type { LatencyChange, OutcomeChange, ReportComparison, ScenarioFlip } from './comparison-schema.js';

/** `p 0.021`, `p < 0.0001`. */
function formatPValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p ${Number(p.toPrecision(2))}`;
}

const signedPct = (n: number): string => (n === Infinity ? 'new' : `${n > 0 ? '+' : ''}${n}%`);
const signedMs = (ms: number): string => `${ms > 0 ? '+' : ms < 0 ? '-' : '±'}${formatMs(Math.abs(ms))}`;

/** `+34% (+10.4 ms)`. */
function latencyChangeText(l: LatencyChange): string {
  return `${signedPct(l.changePct)} (${signedMs(l.deltaMs)})`;
}

/** `16/16`: the samples of the baseline and the current run (the column says `samples`). */
function latencySamplesText(l: Pick<LatencyChange, 'baseCount' | 'currentCount'>): string {
  return `${l.baseCount}/${l.currentCount}`;
}

/**
 * Why a row was decided so: `too few samples (16 < 100)`, `within tolerance` (the tolerances
 * are in the rules' line), `not significant (p 0.21 > 0.0033)`, `REGRESSED (p 0.0003 <= 0.0033)`.
 */
function ruleText(
  row: LatencyChange | OutcomeChange,
  cmp?: Pick<ReportComparison, 'rules' | 'significanceBound'>,
): string {
  const bound = cmp ? ` ${row.rule === 'regressed' ? '<=' : '>'} ${Number(cmp.significanceBound.toPrecision(2))}` : '';
  const p = row.pValue === null ? '' : ` (${formatPValue(row.pValue)}${bound})`;
  switch (row.rule) {
    case 'too-few-samples':
      return 'minCount' in row
        ? `too few samples (${Math.min(row.baseCount, row.currentCount)} < ${row.minCount})`
        : 'no requests';
    case 'within-tolerance':
      // The tolerances are in the rules' line under the tables.
      return 'within tolerance';
    case 'not-significant':
      return row.pValue === null ? 'not significant (no histogram to test)' : `not significant${p}`;
    case 'regressed':
      return `REGRESSED${p}`;
    case 'not-judged':
      return 'minCount' in row ? 'not judged (figures not trusted)' : 'not judged (operator)';
  }
}

/** `97.1% (34 of 35)`. */
function outcomeRateText(rate: number, count: number, requests: number): string {
  return `${formatPercent(rate)} (${count} of ${requests})`;
}

/** The rules in one phrase. */
function rulesText(cmp: Pick<ReportComparison, 'rules' | 'significanceBound'>): string {
  const r = cmp.rules;
  return `a percentile regresses when both runs have enough samples for it, it grows by > ${r.tolerancePct}% and >= ${formatMs(r.minDeltaMs)}, and its quantile test gives p <= ${Number(cmp.significanceBound.toPrecision(2))}; an outcome rate when it moves > ${r.rateTolerancePts} pts the wrong way with Fisher's p <= the same bound (false-alarm rate ${r.alpha} over the whole comparison)`;
}

const name = (f: ScenarioFlip): string => `${f.suite} › ${f.name} [${f.mode}]`;
const mark = (bad: boolean): Span => (bad ? span('✗', 'fail') : span(' '));

/**
 * The verdict, then what a reader looks for first: the scenario flips and thresholds that
 * flipped, and the answers that changed (answer-changes-view.ts, `maxAnswers` of them at most);
 * then a table of the latency rows (base, current, change, samples, rule; a percentile the count
 * cannot support is `—`, as in the latency table; a turn's row only when it had samples enough to
 * be judged; `brief`, the console's: no row with too few samples, counted in a note) and the
 * outcome rows that are not zero in both; the rules and what else changed last.
 */
export function comparisonView(cmp: ReportComparison, maxAnswers = MAX_ANSWER_DIFFS, brief = false): SectionView {
  const verdict = (v: boolean | undefined, status: string | undefined): string =>
    v === undefined ? 'absent' : (status ?? (v ? 'passed' : 'breached'));
  const untrusted = cmp.latencyNotJudged;
  const lead: Text[] = [
    ...(untrusted
      ? [
          span(
            `latency not judged: ${[
              ...(untrusted.base.length > 0 ? [`the baseline was ${distrustText(untrusted.base)}`] : []),
              ...(untrusted.current.length > 0 ? [`the current run was ${distrustText(untrusted.current)}`] : []),
            ].join('; ')}: latency figures droidcheck does not trust`,
            'warn',
          ),
        ]
      : []),
    ...cmp.regressions.map((f) => [span('✗', 'fail'), ` ${name(f)}: pass -> fail`]),
    ...cmp.added.filter((a) => a.to === 'fail').map((f) => [span('✗', 'fail'), ` ${name(f)}: new, failing`]),
    ...cmp.fixed.map((f) => [span('✓', 'ok'), ` ${name(f)}: fail -> pass`]),
    ...cmp.thresholds.map((t) => [
      t.current === false ? span('✗', 'fail') : span('✓', 'ok'),
      ` threshold ${t.expression}: ${verdict(t.base, t.baseStatus)} -> ${verdict(t.current, t.currentStatus)}`,
    ]),
    ...(cmp.removed.length > 0 ? [`${cmp.removed.length} scenario(s) not in the current report`] : []),
  ];
  const notes: Text[] = [span(`rules: ${rulesText(cmp)}`, 'muted')];
  // Rows with too few samples say nothing: a conversation's turns can add dozens, and on the
  // console every one of them is left to report.json.
  const hide = (l: LatencyChange): boolean => l.rule === 'too-few-samples' && (brief || l.turn !== undefined);
  const hidden = cmp.latency.filter(hide).length;
  if (hidden > 0)
    notes.push(span(`${hidden} latency row(s) with too few samples not shown (report.json has them)`, 'muted'));
  const shown = cmp.latency.filter((l) => !hide(l));
  // The mark in the name's cell: the table fits 100 columns.
  const latency = shown.map((l): Text[] => [
    [mark(l.regressed), ` ${l.turn === undefined ? '' : `turn${l.turn}.`}${l.metric}.${l.stat}`],
    statMs(l.baseMs, l.baseCount, l.stat),
    statMs(l.currentMs, l.currentCount, l.stat),
    l.rule === 'too-few-samples' ? '—' : latencyChangeText(l),
    latencySamplesText(l),
    span(ruleText(l, cmp), l.regressed ? 'fail' : undefined),
  ]);
  const outcomes = cmp.outcomes
    .filter((o) => o.baseCount > 0 || o.currentCount > 0)
    .map((o): Text[] => [
      [mark(o.regressed), ` ${o.outcome}`],
      outcomeRateText(o.baseRate, o.baseCount, o.baseRequests),
      outcomeRateText(o.currentRate, o.currentCount, o.currentRequests),
      `${o.changePts > 0 ? '+' : ''}${o.changePts} pts`,
      span(ruleText(o, cmp), o.regressed ? 'fail' : undefined),
    ]);
  notes.push(...kneeNotes(cmp.capacity));
  notes.push(...coverageChangeNotes(cmp.coverage));
  const answers = answerChangesView(cmp.answers, maxAnswers);
  // What changed in the answers is read before the figures: its summary leads, its diffs come first.
  lead.push(...answers.notes);
  const cols = (names: string[]) =>
    names.map((header, i) => ({ header, ...((i === 0 || i === names.length - 1) && { align: 'l' as const }) }));
  return {
    id: 'comparison',
    title: 'Baseline',
    summary: cmp.regressed
      ? span('REGRESSED against the baseline', 'fail')
      : untrusted
        ? span('no regression against the baseline in what was judged; latency not judged', 'warn')
        : span('no regression against the baseline', 'ok'),
    lead,
    notes,
    tables: [
      ...(latency.length > 0
        ? [{ columns: cols(['latency', 'base', 'current', 'change', 'samples', 'rule']), rows: latency }]
        : []),
      ...(outcomes.length > 0
        ? [{ columns: cols(['outcome', 'base', 'current', 'change', 'rule']), rows: outcomes }]
        : []),
    ],
    ...(answers.diffs && { diffs: answers.diffs, diffsFirst: true }),
  };
}
