/**
 * Merging the optional sections of several reports (shards): `passRates` (runs and passes
 * summed per scenario x mode, every figure and the requirement computed again on the sums),
 * `parity` (entries concatenated, counts summed) and `accuracy` (confusion matrices and field
 * checks added; precision, recall and F1 computed again from the merged matrix, so a merged run
 * shows what one unsharded run would). Pure.
 *
 * A section is merged only when every input has it; otherwise it is left out, since a partial
 * figure would read as the whole run's.
 */
import { confusionOf, intentMetricsFromConfusion, type AccuracyReport } from './accuracy.js';
import { PARITY_FIELDS, type ParityReport } from './parity.js';
import { passRatesOf, scenarioPassRate, type PassRates, type ScenarioPassRate } from './pass-rates.js';

const all = <T>(items: readonly (T | undefined)[]): T[] | undefined => (items.every((x) => x !== undefined) ? (items as T[]) : undefined);

/**
 * Sums pass rates of shards; undefined when an input has none. `failOnFlaky`: the option, else
 * true when any input was judged with it.
 */
export function mergePassRates(inputs: readonly (PassRates | undefined)[], options: { failOnFlaky?: boolean } = {}): PassRates | undefined {
  const list = all(inputs);
  if (!list || list.length === 0) return undefined;
  const failOnFlaky = options.failOnFlaky ?? list.some((p) => p.failOnFlaky);
  const byKey = new Map<string, ScenarioPassRate>();
  for (const e of list.flatMap((p) => p.scenarios)) {
    const k = JSON.stringify([e.suite, e.scenario, e.mode]);
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...prev, runs: prev.runs + e.runs, passes: prev.passes + e.passes } : { ...e });
  }
  const scenarios = [...byKey.values()].map((e) => scenarioPassRate(e, e.required, failOnFlaky));
  const suites = list.flatMap((p) => p.suites);
  return passRatesOf(scenarios, (name) => suites.find((s) => s.suite === name && s.required !== undefined)?.required, failOnFlaky);
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

/** Sums accuracy of shards (matrices, samples, field checks); undefined when an input has none. */
export function mergeAccuracy(inputs: readonly (AccuracyReport | undefined)[]): AccuracyReport | undefined {
  const list = all(inputs);
  if (!list || list.length === 0) return undefined;
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
