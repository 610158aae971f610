/**
 * Phrases of the pass-rate section (pass-rates.ts) shared by the console, Markdown, JUnit and
 * HTML renderers: the requirement, the Wilson interval, pass^k and the flaky status. Pure.
 */
import { formatPercent } from '../units.js';
import type { PassRates, RateInterval, ScenarioPassRate } from './pass-rates.js';

const pct0 = (x: number): string => formatPercent(x, 0);

/** `≥ 80%`, `≥ 3 passes`, or `all`. */
export function requirementText(r: ScenarioPassRate['required']): string {
  return 'passRate' in r ? `≥ ${pct0(r.passRate)}` : 'minPasses' in r ? `≥ ${r.minPasses} passes` : 'all';
}

/** `30–95%` (Wilson 95% interval). */
export function intervalText(i: RateInterval): string {
  return `${formatPercent(i.low, 0).replace('%', '')}–${pct0(i.high)}`;
}

/** `pass^4 ✓` / `pass^4 ✗`: whether all k runs passed. */
export function passKText(e: Pick<ScenarioPassRate, 'runs' | 'allPassed'>): string {
  return `pass^${e.runs} ${e.allPassed ? '✓' : '✗'}`;
}

/** Should the section be shown: some scenario x mode ran more than once, or was flaky. */
export function showPassRates(p: PassRates | undefined): p is PassRates {
  return p !== undefined && p.scenarios.some((e) => e.runs > 1 || e.flaky);
}

/** Header of the pass-rate table. */
export const PASS_RATE_HEADER: readonly string[] = ['scenario', 'passes', 'rate', '95% CI', 'pass^k', 'required', 'verdict'];

/** `ok`, `FAIL`, `ok flaky`, `FAIL flaky`: the verdict against the requirement, then the flaky status. */
export function verdictText(e: Pick<ScenarioPassRate, 'passed' | 'flaky'>): string {
  return `${e.passed ? 'ok' : 'FAIL'}${e.flaky ? ' flaky' : ''}`;
}

/** One row: `Shop › buys shirts [sync]`, `3/4`, `75%`, `30–95%`, `pass^4 ✗`, `≥ 50%`, `ok flaky`. */
export function passRateCells(e: ScenarioPassRate): string[] {
  return [`${e.suite} › ${e.scenario} [${e.mode}]`, `${e.passes}/${e.runs}`, pct0(e.passRate), intervalText(e.interval), passKText(e), requirementText(e.required), verdictText(e)];
}

/** The section's title line: `Pass rates  1 flaky` (`, flaky fails (--fail-on-flaky)` when set). */
export function passRatesTitle(p: PassRates): string {
  return `${p.flaky} flaky${p.failOnFlaky ? ', flaky fails (--fail-on-flaky)' : ''}`;
}

/**
 * One sentence for a JUnit message: `flaky: passed 3 of 4 runs (75%, 95% CI 30–95%), pass^4 ✗,
 * required ≥ 50%`; the leading word is the status.
 */
export function passRateSentence(e: ScenarioPassRate): string {
  return `${e.status}: passed ${e.passes} of ${e.runs} runs (${pct0(e.passRate)}, 95% CI ${intervalText(e.interval)}), ${passKText(e)}, required ${requirementText(e.required)}${e.passed ? '' : ', requirement not met'}`;
}

/** JUnit `<property>` name/value pairs of a scenario x mode's pass rate (on each of its testcases). */
export function passRateProperties(e: ScenarioPassRate): [string, string][] {
  return [
    ['droidcheck.status', e.status],
    ['droidcheck.passes', `${e.passes}/${e.runs}`],
    ['droidcheck.passRate', String(Number(e.passRate.toFixed(4)))],
    ['droidcheck.passRate.ci95', `${Number(e.interval.low.toFixed(4))}..${Number(e.interval.high.toFixed(4))}`],
    ['droidcheck.passK', String(e.allPassed)],
    ['droidcheck.flaky', String(e.flaky)],
  ];
}

/** The pass-rate entry of a scenario x mode, if the report has one. */
export function passRateOf(p: PassRates | undefined, suite: string, scenario: string, mode: string): ScenarioPassRate | undefined {
  return p?.scenarios.find((e) => e.suite === suite && e.scenario === scenario && e.mode === mode);
}
