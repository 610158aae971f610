/**
 * `accuracy`: intent accuracy and cart/address field hit rates over a run (`computeAccuracy`,
 * pure). docs/statistics.md explains it for users.
 *
 * Samples: every `answered` record (each mode and repeat counts), and, for scenarios with steps,
 * each answered `say` turn, whose expectations say something about `intents`.
 *
 * What a sample says about intents:
 * - expected intents: the scenario's `intents:` (for steps: applied to the last `say`), else the
 *   values of its `includes` / `equals` expectations on `intents`;
 * - `equals` closes the set: every other intent in the answer is wrong;
 * - `includes` (and `intents:`) leave it open: another intent in the answer is not judged,
 *   unless it stands in for a missing expected one;
 * - `excludes` / `notContains` name intents that are wrong whenever present.
 *
 * The confusion matrix (multi-label; rows expected, columns returned, `(none)` on both sides) is
 * the only source of the figures. Per sample: each expected intent found adds 1 on the diagonal
 * [e][e]; each missing expected intent is paired, in order, with one judged wrong intent of the
 * answer (closed set: any other intent; open set: an excluded one first, then the others in the
 * answer's order) and adds 1 at [missing][wrong], or at [missing][(none)] when none is left;
 * each judged wrong intent left over adds 1 at [(none)][wrong]. So for every intent i:
 *   TP = [i][i],  FN = row i without the diagonal,  FP = column i without the diagonal,
 *   precision = TP / (TP + FP), recall = TP / (TP + FN), F1 = 2 TP / (2 TP + FP + FN)
 * (null when the denominator is 0). Shards merge by adding matrices; the figures are then
 * computed again (`mergeAccuracy`), so a merged run shows what one run would.
 *
 * Fields: each expectation on a `shoppingCart.*` (cart) or `addressParsing.*` (address) path is
 * one check; hit rate = checks that held / checks.
 */
import { evaluatePlainExpectations, type Expectation, type Scenario, type Suite } from '../../scenario/index.js';
import { hasVerdict } from '../../outcomes.js';
import type { RequestRecord } from '../run-types.js';
import { defineSection, fromEvery, type SectionInput } from '../section.js';
import {
  accuracySchema,
  type AccuracyReport,
  type FieldHitRate,
  type IntentConfusion,
  type IntentMetrics,
} from './accuracy-schema.js';
import { accuracyBrief, accuracyView } from './accuracy-view.js';

export const NONE_LABEL = '(none)';

/** What one answer's expectations say about intents. */
export interface IntentJudgement {
  expected: string[];
  /** `equals`: any other intent is wrong. */
  closed: boolean;
  /** `excludes` / `notContains`: wrong when present. */
  excluded: string[];
}

interface Sample {
  expect: Expectation[];
  explicit?: string[];
  answer: unknown;
}

const values = (e: Expectation): string[] => (Array.isArray(e.expected) ? e.expected : [e.expected]).map(String);
const onIntents = (expect: readonly Expectation[], matchers: readonly string[]): Expectation[] =>
  expect.filter((e) => e.path === 'intents' && matchers.includes(e.matcher));

/** Expected intents of an expectation list (`includes`/`equals` on `intents`), or undefined. */
export function expectedIntents(expect: readonly Expectation[]): string[] | undefined {
  const found = onIntents(expect, ['includes', 'equals']);
  return found.length === 0 ? undefined : [...new Set(found.flatMap(values))];
}

/** The judgement of one sample (see the module doc), or undefined when it says nothing about intents. */
function intentJudgement(expect: readonly Expectation[], explicit?: readonly string[]): IntentJudgement | undefined {
  const excluded = [...new Set(onIntents(expect, ['excludes', 'notContains']).flatMap(values))];
  const closed = explicit === undefined && onIntents(expect, ['equals']).length > 0;
  const expected = explicit ? [...new Set(explicit)] : expectedIntents(expect);
  if (expected === undefined && excluded.length === 0) return undefined;
  return { expected: expected ?? [], closed, excluded };
}

/** The matrix cells [expected row, returned column] one answer adds (see the module doc). */
export function confusionCells(j: IntentJudgement, answerIntents: readonly string[]): [string, string][] {
  const actual = [...new Set(answerIntents)];
  const expected = new Set(j.expected);
  const cells: [string, string][] = [];
  const misses: string[] = [];
  for (const e of j.expected) {
    if (actual.includes(e)) cells.push([e, e]);
    else misses.push(e);
  }
  const others = actual.filter((a) => !expected.has(a));
  const excludedPresent = others.filter((a) => j.excluded.includes(a));
  const rest = others.filter((a) => !j.excluded.includes(a));
  const wrong = j.closed
    ? [...excludedPresent, ...rest]
    : [...excludedPresent, ...rest.slice(0, Math.max(0, misses.length - excludedPresent.length))];
  const pairs = Math.min(misses.length, wrong.length);
  for (let i = 0; i < pairs; i++) cells.push([misses[i]!, wrong[i]!]);
  for (const m of misses.slice(pairs)) cells.push([m, NONE_LABEL]);
  for (const w of wrong.slice(pairs)) cells.push([NONE_LABEL, w]);
  return cells;
}

const ratioOf = (a: number, b: number): number | null => (b === 0 ? null : a / b);
const labelOrder = (a: string, b: string): number =>
  Number(a === NONE_LABEL) - Number(b === NONE_LABEL) || a.localeCompare(b);

/** Per-intent TP, FP, FN, precision, recall and F1, from the matrix alone. */
function intentMetricsFromConfusion(confusion: IntentConfusion): IntentMetrics[] {
  const tp = new Map<string, number>();
  const fp = new Map<string, number>();
  const fn = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number): void => {
    if (k !== NONE_LABEL) m.set(k, (m.get(k) ?? 0) + n);
  };
  for (const [row, cols] of Object.entries(confusion.counts)) {
    for (const [col, n] of Object.entries(cols)) {
      if (row === col) add(tp, row, n);
      else {
        add(fn, row, n);
        add(fp, col, n);
      }
    }
  }
  const labels = [...new Set([...tp.keys(), ...fp.keys(), ...fn.keys()])].sort(labelOrder);
  return labels.map((intent) => {
    const t = tp.get(intent) ?? 0;
    const p = fp.get(intent) ?? 0;
    const n = fn.get(intent) ?? 0;
    return {
      intent,
      support: t + n,
      predicted: t + p,
      truePositives: t,
      falsePositives: p,
      falseNegatives: n,
      precision: ratioOf(t, t + p),
      recall: ratioOf(t, t + n),
      f1: ratioOf(2 * t, 2 * t + p + n),
    };
  });
}

/** The matrix of `counts`, with its row and column labels sorted (`(none)` last). */
function confusionOf(counts: Record<string, Record<string, number>>): IntentConfusion {
  const expected = Object.keys(counts)
    .filter((r) => Object.values(counts[r] ?? {}).some((n) => n > 0))
    .sort(labelOrder);
  const actual = [
    ...new Set(Object.values(counts).flatMap((row) => Object.keys(row).filter((c) => (row[c] ?? 0) > 0))),
  ].sort(labelOrder);
  return { expected, actual, counts };
}

function samplesOf(r: RequestRecord, sc: Scenario | undefined): Sample[] {
  if (!sc) return [];
  if (!sc.steps)
    return r.outcome === 'answered'
      ? [{ expect: sc.expect, ...(sc.intents ? { explicit: sc.intents } : {}), answer: r.answer }]
      : [];
  const says = sc.steps.filter((s) => s.kind === 'say');
  const lastSay = says[says.length - 1];
  return (r.steps ?? [])
    .filter((res) => res.kind === 'say' && res.outcome === 'answered')
    .flatMap((res) => {
      const step = sc.steps?.[res.index];
      if (!step) return [];
      return [
        { expect: step.expect, ...(sc.intents && step === lastSay ? { explicit: sc.intents } : {}), answer: res.body },
      ];
    });
}

function answerIntents(answer: unknown): string[] {
  const v = answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>).intents : undefined;
  return Array.isArray(v) ? v.map(String) : [];
}

function fieldHitRates(samples: readonly Sample[]): FieldHitRate[] {
  const fieldMap = new Map<string, FieldHitRate>();
  for (const s of samples) {
    for (const e of s.expect) {
      const group = e.path.startsWith('shoppingCart.')
        ? 'cart'
        : e.path.startsWith('addressParsing.')
          ? 'address'
          : undefined;
      // A code check (a function of the suite's) says nothing checkable here of the field's value.
      if (!group || e.matcher === 'code') continue;
      const f = fieldMap.get(e.path) ?? { path: e.path, group, checks: 0, hits: 0, hitRate: 0 };
      f.checks += 1;
      if (evaluatePlainExpectations([e], s.answer).length === 0) f.hits += 1;
      f.hitRate = f.hits / f.checks;
      fieldMap.set(e.path, f);
    }
  }
  return [...fieldMap.values()].sort((a, b) => a.group.localeCompare(b.group) || a.path.localeCompare(b.path));
}

/** Accuracy of a run's `records` against the planned `suites` (see the module doc). */
export function computeAccuracy(records: readonly RequestRecord[], suites: readonly Suite[]): AccuracyReport {
  const scenarios = new Map(
    suites.flatMap((s) => s.scenarios.map((sc) => [JSON.stringify([sc.suite, sc.name]), sc] as const)),
  );
  const samples = records.flatMap((r) => samplesOf(r, scenarios.get(JSON.stringify([r.suite, r.scenario]))));
  const counts: Record<string, Record<string, number>> = {};
  let labelled = 0;
  for (const s of samples) {
    const j = intentJudgement(s.expect, s.explicit);
    if (!j) continue;
    labelled += 1;
    for (const [row, col] of confusionCells(j, answerIntents(s.answer))) {
      const r = (counts[row] ??= {});
      r[col] = (r[col] ?? 0) + 1;
    }
  }
  const confusion = confusionOf(counts);
  return {
    samples: labelled,
    intents: intentMetricsFromConfusion(confusion),
    confusion,
    fields: fieldHitRates(samples),
  };
}

/** Sums accuracy of shards (matrices, samples, field checks); undefined when an input has none. */
export function mergeAccuracy(inputs: readonly (AccuracyReport | undefined)[]): AccuracyReport | undefined {
  const list = fromEvery(inputs, (a) => a);
  if (!list) return undefined;
  const counts: Record<string, Record<string, number>> = {};
  for (const a of list) {
    for (const [e, row] of Object.entries(a.confusion.counts)) {
      const out = (counts[e] ??= {});
      for (const [col, n] of Object.entries(row)) out[col] = (out[col] ?? 0) + n;
    }
  }
  const fields = new Map<string, AccuracyReport['fields'][number]>();
  for (const f of list.flatMap((a) => a.fields)) {
    const prev = fields.get(f.path);
    const next = prev ? { ...prev, checks: prev.checks + f.checks, hits: prev.hits + f.hits } : { ...f };
    fields.set(f.path, { ...next, hitRate: next.checks === 0 ? 0 : next.hits / next.checks });
  }
  const confusion = confusionOf(counts);
  return {
    samples: list.reduce((n, a) => n + a.samples, 0),
    intents: intentMetricsFromConfusion(confusion),
    confusion,
    fields: [...fields.values()].sort((a, b) => a.group.localeCompare(b.group) || a.path.localeCompare(b.path)),
  };
}

type Doc = { accuracy?: AccuracyReport };

export const accuracySection = defineSection({
  name: 'accuracy',
  fields: {
    accuracy: accuracySchema
      .optional()
      .describe('intent precision/recall/f1, confusion table, cart/address hit rates, of the kept records (run)'),
  },
  // From the records a job keeps (each answer against its scenario's expectations); none: no accuracy.
  compute: (input: SectionInput) =>
    input.records && input.suites
      ? {
          accuracy: computeAccuracy(
            input.records.filter((r) => hasVerdict(r.outcome)),
            input.suites,
          ),
        }
      : {},
  merge: (docs: readonly Doc[]) => {
    const accuracy = mergeAccuracy(docs.map((d) => d.accuracy));
    return accuracy ? { accuracy } : {};
  },
  views: (d: Doc) =>
    d.accuracy && (d.accuracy.samples > 0 || d.accuracy.fields.length > 0) ? [accuracyView(d.accuracy)] : [],
  brief: (d: Doc) =>
    d.accuracy && (d.accuracy.samples > 0 || d.accuracy.fields.length > 0) ? [accuracyBrief(d.accuracy)] : [],
});
