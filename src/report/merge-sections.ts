/**
 * Merging the optional sections of several reports (shards): `passRates` (runs and passes
 * summed per scenario x mode, the requirement judged again on the sums), `parity` (entries
 * concatenated, counts summed) and `accuracy` (support, predictions, true positives, confusion
 * counts and field checks summed; precision, recall and f1 recomputed). Pure.
 *
 * A section is merged only when every input has it; otherwise it is left out, since a partial
 * figure would read as the whole run's.
 */
import type { AccuracyReport, IntentMetrics } from './accuracy.js';
import { PARITY_FIELDS, type ParityReport } from './parity.js';
import type { PassRates, ScenarioPassRate, SuitePassRate } from './pass-rates.js';

const all = <T>(items: readonly (T | undefined)[]): T[] | undefined => (items.every((x) => x !== undefined) ? (items as T[]) : undefined);

function requiredPasses(required: ScenarioPassRate['required'], runs: number): number {
  if ('minPasses' in required) return required.minPasses;
  if ('passRate' in required) return Math.ceil(required.passRate * runs - 1e-9);
  return runs;
}

/** Sums pass rates of shards; undefined when an input has none. */
export function mergePassRates(inputs: readonly (PassRates | undefined)[]): PassRates | undefined {
  const list = all(inputs);
  if (!list || list.length === 0) return undefined;
  const byKey = new Map<string, ScenarioPassRate>();
  for (const e of list.flatMap((p) => p.scenarios)) {
    const k = JSON.stringify([e.suite, e.scenario, e.mode]);
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...prev, runs: prev.runs + e.runs, passes: prev.passes + e.passes } : { ...e });
  }
  const scenarios = [...byKey.values()].map((e) => {
    const need = requiredPasses(e.required, e.runs);
    return { ...e, passRate: e.runs === 0 ? 1 : e.passes / e.runs, requiredPasses: need, flaky: e.passes > 0 && e.passes < e.runs, passed: e.passes >= need };
  });
  const suiteNames = [...new Set(list.flatMap((p) => p.suites.map((s) => s.suite)))];
  const suites = suiteNames.map((name): SuitePassRate => {
    const mine = scenarios.filter((e) => e.suite === name);
    const runs = mine.reduce((n, e) => n + e.runs, 0);
    const passes = mine.reduce((n, e) => n + e.passes, 0);
    const passRate = runs === 0 ? 1 : passes / runs;
    const required = list.flatMap((p) => p.suites).find((s) => s.suite === name && s.required !== undefined)?.required;
    const out: SuitePassRate = { suite: name, runs, passes, passRate, passed: mine.every((e) => e.passed) && (required === undefined || passRate >= required) };
    if (required !== undefined) out.required = required;
    return out;
  });
  return { scenarios, suites, passed: scenarios.every((e) => e.passed) && suites.every((s) => s.passed), flaky: scenarios.filter((e) => e.flaky).length };
}

/** Concatenates parity entries of shards; undefined when an input has none. */
export function mergeParity(inputs: readonly (ParityReport | undefined)[]): ParityReport | undefined {
  const list = all(inputs);
  if (!list || list.length === 0) return undefined;
  const byField = Object.fromEntries(PARITY_FIELDS.map((f) => [f, list.reduce((n, p) => n + p.byField[f], 0)])) as ParityReport['byField'];
  return {
    compared: list.reduce((n, p) => n + p.compared, 0),
    differing: list.reduce((n, p) => n + p.differing, 0),
    byField,
    entries: list.flatMap((p) => p.entries),
  };
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/**
 * Sums accuracy of shards; undefined when an input has none. A shard counts predictions only
 * for the labels it expected somewhere, so a label expected in one shard only may have fewer
 * predictions (hence a higher precision) than a single run would show.
 */
export function mergeAccuracy(inputs: readonly (AccuracyReport | undefined)[]): AccuracyReport | undefined {
  const list = all(inputs);
  if (!list || list.length === 0) return undefined;
  const intents = new Map<string, IntentMetrics>();
  for (const m of list.flatMap((a) => a.intents)) {
    const prev = intents.get(m.intent);
    intents.set(m.intent, prev ? { ...prev, support: prev.support + m.support, predicted: prev.predicted + m.predicted, truePositives: prev.truePositives + m.truePositives } : { ...m });
  }
  const merged = [...intents.values()]
    .map((m) => {
      const precision = ratio(m.truePositives, m.predicted);
      const recall = ratio(m.truePositives, m.support);
      const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
      return { ...m, precision, recall, f1 };
    })
    .sort((a, b) => a.intent.localeCompare(b.intent));
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
  const expected = [...new Set(list.flatMap((a) => a.confusion.expected))].sort();
  const actual = [...new Set(list.flatMap((a) => a.confusion.actual))].sort((a, b) => Number(a === '(none)') - Number(b === '(none)') || a.localeCompare(b));
  return {
    samples: list.reduce((n, a) => n + a.samples, 0),
    intents: merged,
    confusion: { expected, actual, counts },
    fields: [...fields.values()].sort((a, b) => a.group.localeCompare(b.group) || a.path.localeCompare(b.path)),
  };
}
