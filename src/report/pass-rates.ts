/**
 * `computePassRates(records, suites)`: pass rates over repeated runs (issue 4, Nondeterminism;
 * like promptfoo's `repeat`). Pure.
 *
 * One entry per scenario x mode (repeat is per mode): `runs` counts its records except
 * `interrupted` ones (no verdict), `passes` those that passed, `passRate` = passes / runs (0..1;
 * 1 when no run). The requirement is the scenario's `requirement` (`passRate` or `minPasses`,
 * resolved by the scenario loader with the suite's as default); without one every run must
 * pass. `requiredPasses` = minPasses, or ceil(passRate x runs). `flaky`: some runs passed and
 * some failed. One entry per suite sums its scenarios; it passes when all of them do and, with a
 * suite `passRate`, its overall pass rate reaches it.
 */
import type { Suite } from '../scenario/index.js';
import type { AnswerMode, RequestRecord } from './run-types.js';

export interface ScenarioPassRate {
  suite: string;
  scenario: string;
  mode: AnswerMode;
  runs: number;
  passes: number;
  /** passes / runs, 0..1. */
  passRate: number;
  /** What was asked: `{ passRate }`, `{ minPasses }`, or `{ all: true }` (no requirement written). */
  required: { passRate: number } | { minPasses: number } | { all: true };
  requiredPasses: number;
  /** Passed some runs and failed others. */
  flaky: boolean;
  passed: boolean;
}

export interface SuitePassRate {
  suite: string;
  runs: number;
  passes: number;
  passRate: number;
  /** The suite's `passRate`, when written. */
  required?: number;
  passed: boolean;
}

export interface PassRates {
  scenarios: ScenarioPassRate[];
  suites: SuitePassRate[];
  /** Every scenario and suite met its requirement. */
  passed: boolean;
  flaky: number;
}

const key = (suite: string, scenario: string): string => JSON.stringify([suite, scenario]);

/** @param records every record of the run; @param suites the suites that were planned (requirements). */
export function computePassRates(records: readonly RequestRecord[], suites: readonly Suite[]): PassRates {
  const scenarios = new Map(suites.flatMap((s) => s.scenarios.map((sc) => [key(sc.suite, sc.name), sc] as const)));
  const groups = new Map<string, { suite: string; scenario: string; mode: AnswerMode; runs: number; passes: number }>();
  for (const r of records) {
    const k = JSON.stringify([r.suite, r.scenario, r.mode]);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { suite: r.suite, scenario: r.scenario, mode: r.mode, runs: 0, passes: 0 }));
    if (r.outcome === 'interrupted') continue;
    g.runs += 1;
    if (r.passed) g.passes += 1;
  }
  const entries: ScenarioPassRate[] = [...groups.values()].map((g) => {
    const req = scenarios.get(key(g.suite, g.scenario))?.requirement;
    const required: ScenarioPassRate['required'] = req ?? { all: true };
    const requiredPasses = 'minPasses' in required ? required.minPasses : 'passRate' in required ? Math.ceil(required.passRate * g.runs - 1e-9) : g.runs;
    return {
      ...g,
      passRate: g.runs === 0 ? 1 : g.passes / g.runs,
      required,
      requiredPasses,
      flaky: g.passes > 0 && g.passes < g.runs,
      passed: g.passes >= requiredPasses,
    };
  });
  const suiteOrder = [...new Set(entries.map((e) => e.suite))];
  const suiteRates = suiteOrder.map((name): SuitePassRate => {
    const mine = entries.filter((e) => e.suite === name);
    const runs = mine.reduce((n, e) => n + e.runs, 0);
    const passes = mine.reduce((n, e) => n + e.passes, 0);
    const passRate = runs === 0 ? 1 : passes / runs;
    const required = suites.find((s) => s.name === name)?.passRate;
    const out: SuitePassRate = { suite: name, runs, passes, passRate, passed: mine.every((e) => e.passed) && (required === undefined || passRate >= required) };
    if (required !== undefined) out.required = required;
    return out;
  });
  return {
    scenarios: entries,
    suites: suiteRates,
    passed: entries.every((e) => e.passed) && suiteRates.every((s) => s.passed),
    flaky: entries.filter((e) => e.flaky).length,
  };
}
