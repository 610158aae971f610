/**
 * `computePassRates(records, suites, options)`: pass rates over repeated runs (a language
 * model's answers vary, so one run is not a verdict; flakiness statistics like promptfoo's
 * `repeat`). Pure.
 *
 * One entry per scenario x mode (repeat is per mode): `runs` counts its records except
 * `interrupted` and `not-sent` ones (no verdict), `passes` those that passed.
 * - `passRate` = passes / runs (0..1; 1 when no run), with its Wilson 95% interval: the range
 *   the true pass rate lies in, given so few runs (4 of 4 passes: 51%..100%);
 * - `allPassed` (pass^k): every one of the k = runs runs passed;
 * - `status`: `passed` (all runs), `failed` (none), `flaky` (some passed, some failed), `not-run`;
 * - the requirement is the scenario's `requirement` (`passRate` or `minPasses`, resolved by the
 *   scenario loader with the suite's as default); without one every run must pass.
 *   `requiredPasses` = minPasses, or ceil(passRate x runs); `passed` = passes >= requiredPasses,
 *   and not flaky when `failOnFlaky` (`--fail-on-flaky`) is set.
 * One entry per suite sums its scenarios; it passes when all of them do and, with a suite
 * `passRate`, its overall pass rate reaches it.
 */
import { wilsonInterval } from '../metrics/index.js';
import type { Suite } from '../scenario/index.js';
import type { AnswerMode, RequestRecord } from './run-types.js';

export type PassRateStatus = 'passed' | 'failed' | 'flaky' | 'not-run';

/** A 95% interval of a pass rate, each bound 0..1. */
export interface RateInterval {
  low: number;
  high: number;
}

export interface ScenarioPassRate {
  suite: string;
  scenario: string;
  mode: AnswerMode;
  runs: number;
  passes: number;
  /** passes / runs, 0..1. */
  passRate: number;
  /** Wilson 95% interval of passRate. */
  interval: RateInterval;
  /** pass^k: all k (= runs) runs passed. */
  allPassed: boolean;
  status: PassRateStatus;
  /** What was asked: `{ passRate }`, `{ minPasses }`, or `{ all: true }` (no requirement written). */
  required: { passRate: number } | { minPasses: number } | { all: true };
  requiredPasses: number;
  /** Passed some runs and failed others (status `flaky`). */
  flaky: boolean;
  /** Met its requirement (and, with failOnFlaky, was not flaky). */
  passed: boolean;
}

export interface SuitePassRate {
  suite: string;
  runs: number;
  passes: number;
  passRate: number;
  interval: RateInterval;
  /** The suite's `passRate`, when written. */
  required?: number;
  passed: boolean;
}

export interface PassRates {
  scenarios: ScenarioPassRate[];
  suites: SuitePassRate[];
  /** Every scenario and suite met its requirement. */
  passed: boolean;
  /** Scenario x mode entries with status `flaky`. */
  flaky: number;
  /** Flaky entries failed their verdict (`--fail-on-flaky`). */
  failOnFlaky: boolean;
}

export interface PassRateOptions {
  /** A flaky scenario x mode fails even when it meets its requirement (`--fail-on-flaky`). */
  failOnFlaky?: boolean;
}

/** Outcomes that carry no verdict: the run never finished. */
const NO_VERDICT: ReadonlySet<string> = new Set(['interrupted', 'not-sent']);
const key = (suite: string, scenario: string): string => JSON.stringify([suite, scenario]);

/** Passes a requirement asks of `runs` runs. */
export function requiredPassesFor(required: ScenarioPassRate['required'], runs: number): number {
  if ('minPasses' in required) return required.minPasses;
  if ('passRate' in required) return Math.ceil(required.passRate * runs - 1e-9);
  return runs;
}

/** The status of `passes` out of `runs`. */
export function passRateStatus(runs: number, passes: number): PassRateStatus {
  return runs === 0 ? 'not-run' : passes === runs ? 'passed' : passes === 0 ? 'failed' : 'flaky';
}

/** Every figure of one scenario x mode from its counts and requirement. */
export function scenarioPassRate(
  g: { suite: string; scenario: string; mode: AnswerMode; runs: number; passes: number },
  required: ScenarioPassRate['required'],
  failOnFlaky: boolean,
): ScenarioPassRate {
  const requiredPasses = requiredPassesFor(required, g.runs);
  const status = passRateStatus(g.runs, g.passes);
  const flaky = status === 'flaky';
  return {
    suite: g.suite,
    scenario: g.scenario,
    mode: g.mode,
    runs: g.runs,
    passes: g.passes,
    passRate: g.runs === 0 ? 1 : g.passes / g.runs,
    interval: wilsonInterval(g.passes, g.runs),
    allPassed: g.passes === g.runs,
    status,
    required,
    requiredPasses,
    flaky,
    passed: g.passes >= requiredPasses && !(failOnFlaky && flaky),
  };
}

/** Suite entries (in first-seen order) from scenario entries and the suites' `passRate`s. */
export function suitePassRates(entries: readonly ScenarioPassRate[], requiredOf: (suite: string) => number | undefined): SuitePassRate[] {
  return [...new Set(entries.map((e) => e.suite))].map((name): SuitePassRate => {
    const mine = entries.filter((e) => e.suite === name);
    const runs = mine.reduce((n, e) => n + e.runs, 0);
    const passes = mine.reduce((n, e) => n + e.passes, 0);
    const passRate = runs === 0 ? 1 : passes / runs;
    const required = requiredOf(name);
    const out: SuitePassRate = { suite: name, runs, passes, passRate, interval: wilsonInterval(passes, runs), passed: mine.every((e) => e.passed) && (required === undefined || passRate >= required) };
    if (required !== undefined) out.required = required;
    return out;
  });
}

/** The whole section from scenario entries. */
export function passRatesOf(scenarios: ScenarioPassRate[], requiredOf: (suite: string) => number | undefined, failOnFlaky: boolean): PassRates {
  const suites = suitePassRates(scenarios, requiredOf);
  return {
    scenarios,
    suites,
    passed: scenarios.every((e) => e.passed) && suites.every((s) => s.passed),
    flaky: scenarios.filter((e) => e.flaky).length,
    failOnFlaky,
  };
}

/**
 * @param records every record of the run; @param suites the suites that were planned
 * (requirements); @param options `failOnFlaky` (the CLI's `--fail-on-flaky`).
 */
export function computePassRates(records: readonly RequestRecord[], suites: readonly Suite[], options: PassRateOptions = {}): PassRates {
  const failOnFlaky = options.failOnFlaky ?? false;
  const scenarios = new Map(suites.flatMap((s) => s.scenarios.map((sc) => [key(sc.suite, sc.name), sc] as const)));
  const groups = new Map<string, { suite: string; scenario: string; mode: AnswerMode; runs: number; passes: number }>();
  for (const r of records) {
    const k = JSON.stringify([r.suite, r.scenario, r.mode]);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { suite: r.suite, scenario: r.scenario, mode: r.mode, runs: 0, passes: 0 }));
    if (NO_VERDICT.has(r.outcome)) continue;
    g.runs += 1;
    if (r.passed) g.passes += 1;
  }
  const entries = [...groups.values()].map((g) => scenarioPassRate(g, scenarios.get(key(g.suite, g.scenario))?.requirement ?? { all: true }, failOnFlaky));
  return passRatesOf(entries, (name) => suites.find((s) => s.name === name)?.passRate, failOnFlaky);
}
