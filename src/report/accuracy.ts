/**
 * `computeAccuracy(records, suites)`: Rasa-style accuracy over a run (issue 4, Accuracy report).
 * Pure. Samples: every `answered` record (each mode and repeat counts), and, for scenarios with
 * steps, each answered `say` turn.
 *
 * Intents (multi-label). A sample's expected intents are the scenario's `intents:` (for steps:
 * applied to the last `say`), else the values of its `includes`/`equals` expectations on
 * `intents`; samples without any are skipped. The labels are the intents expected anywhere in the
 * run, so an incidental intent nobody tests (e.g. `greeting`) is not counted against precision.
 * Per label: support (expected), predicted, true positives, precision = tp / predicted,
 * recall = tp / support, f1 (null when undefined: 0 / 0). Confusion table: rows expected labels,
 * columns actual intents; an expected label found counts on the diagonal, else once in the column
 * of each unexpected actual intent, or in `(none)`.
 *
 * Fields: each expectation on a `shoppingCart.*` (cart) or `addressParsing.*` (address) path is
 * one check; hit rate = checks that held / checks.
 */
import { evaluatePlainExpectations, type Expectation, type Scenario, type Suite } from '../scenario/index.js';
import type { RequestRecord } from './run-types.js';

export const NONE_LABEL = '(none)';

export interface IntentMetrics {
  intent: string;
  support: number;
  predicted: number;
  truePositives: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface FieldHitRate {
  path: string;
  group: 'cart' | 'address';
  checks: number;
  hits: number;
  hitRate: number;
}

export interface AccuracyReport {
  /** Samples with expected intents. */
  samples: number;
  intents: IntentMetrics[];
  confusion: { expected: string[]; actual: string[]; counts: Record<string, Record<string, number>> };
  fields: FieldHitRate[];
}

interface Sample {
  expect: Expectation[];
  explicit?: string[];
  answer: unknown;
}

/** Expected intents of an expectation list (`includes`/`equals` on `intents`), or undefined. */
export function expectedIntents(expect: readonly Expectation[]): string[] | undefined {
  const found = expect.filter((e) => e.path === 'intents' && (e.matcher === 'includes' || e.matcher === 'equals'));
  if (found.length === 0) return undefined;
  return [...new Set(found.flatMap((e) => (Array.isArray(e.expected) ? e.expected : [e.expected])).map(String))];
}

function samplesOf(r: RequestRecord, sc: Scenario | undefined): Sample[] {
  if (!sc) return [];
  if (!sc.steps) return r.outcome === 'answered' ? [{ expect: sc.expect, ...(sc.intents ? { explicit: sc.intents } : {}), answer: r.answer }] : [];
  const says = sc.steps.filter((s) => s.kind === 'say');
  const lastSay = says[says.length - 1];
  return (r.steps ?? [])
    .filter((res) => res.kind === 'say' && res.outcome === 'answered')
    .flatMap((res) => {
      const step = sc.steps?.[res.index];
      if (!step) return [];
      return [{ expect: step.expect, ...(sc.intents && step === lastSay ? { explicit: sc.intents } : {}), answer: res.body }];
    });
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function computeAccuracy(records: readonly RequestRecord[], suites: readonly Suite[]): AccuracyReport {
  const scenarios = new Map(suites.flatMap((s) => s.scenarios.map((sc) => [JSON.stringify([sc.suite, sc.name]), sc] as const)));
  const samples = records.flatMap((r) => samplesOf(r, scenarios.get(JSON.stringify([r.suite, r.scenario]))));

  const labelled = samples
    .map((s) => ({ expected: s.explicit ?? expectedIntents(s.expect), actual: (get(s.answer, 'intents') as unknown[] | undefined) ?? [] }))
    .filter((s): s is { expected: string[]; actual: unknown[] } => s.expected !== undefined)
    .map((s) => ({ expected: new Set(s.expected), actual: new Set(Array.isArray(s.actual) ? s.actual.map(String) : []) }));
  const labels = [...new Set(labelled.flatMap((s) => [...s.expected]))].sort();
  const counts: Record<string, Record<string, number>> = {};
  const actualCols = new Set<string>();
  const bump = (e: string, a: string): void => {
    actualCols.add(a);
    const row = (counts[e] ??= {});
    row[a] = (row[a] ?? 0) + 1;
  };
  const intents: IntentMetrics[] = labels.map((intent) => {
    let support = 0, predicted = 0, tp = 0;
    for (const s of labelled) {
      if (s.expected.has(intent)) support += 1;
      if (s.actual.has(intent)) predicted += 1;
      if (s.expected.has(intent) && s.actual.has(intent)) tp += 1;
    }
    const precision = ratio(tp, predicted);
    const recall = ratio(tp, support);
    const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
    return { intent, support, predicted, truePositives: tp, precision, recall, f1 };
  });
  for (const s of labelled) {
    const extra = [...s.actual].filter((a) => !s.expected.has(a));
    for (const e of s.expected) {
      if (s.actual.has(e)) bump(e, e);
      else if (extra.length === 0) bump(e, NONE_LABEL);
      else for (const a of extra) bump(e, a);
    }
  }

  const fieldMap = new Map<string, FieldHitRate>();
  for (const s of samples) {
    for (const e of s.expect) {
      const group = e.path.startsWith('shoppingCart.') ? 'cart' : e.path.startsWith('addressParsing.') ? 'address' : undefined;
      if (!group) continue;
      const f = fieldMap.get(e.path) ?? { path: e.path, group, checks: 0, hits: 0, hitRate: 0 };
      f.checks += 1;
      if (evaluatePlainExpectations([e], s.answer).length === 0) f.hits += 1;
      f.hitRate = f.hits / f.checks;
      fieldMap.set(e.path, f);
    }
  }
  const fields = [...fieldMap.values()].sort((a, b) => a.group.localeCompare(b.group) || a.path.localeCompare(b.path));
  const actual = [...actualCols].sort((a, b) => Number(a === NONE_LABEL) - Number(b === NONE_LABEL) || a.localeCompare(b));
  return { samples: labelled.length, intents, confusion: { expected: labels, actual, counts }, fields };
}

function get(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
}
