/**
 * `passRates`: pass rates over repeated runs (like promptfoo's `repeat`), computed from the
 * records of a run (`computePassRates`), merged by summing runs and passes per scenario x mode
 * and computing every figure again, shown when a scenario ran more than once or was flaky (the
 * console, unless `--verbose`: only the rows that were flaky or missed their requirement).
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
import { z } from 'zod';
import { wilsonInterval } from '../../metrics/index.js';
import { hasVerdict } from '../../outcomes.js';
import type { Suite } from '../../scenario/index.js';
import { formatPercent } from '../../units.js';
import type { AnswerMode, RequestRecord } from '../run-types.js';
import { defineSection, fromEvery, type SectionInput } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import { count, modeEnum, obj, share } from './common.js';

const interval = obj({ low: share, high: share }).describe('Wilson 95% interval, 0..1');
const statusEnum = z.enum(['passed', 'failed', 'flaky', 'not-run']);
const scenarioPassRateSchema = obj({
  suite: z.string(),
  scenario: z.string(),
  mode: modeEnum,
  runs: count,
  passes: count,
  passRate: share.describe('passes / runs, 0..1'),
  interval,
  allPassed: z.boolean().describe('pass^k: all k (= runs) runs passed'),
  status: statusEnum,
  required: z
    .union([obj({ passRate: share }), obj({ minPasses: count }), obj({ all: z.literal(true) })])
    .describe('what was asked; { all: true } when no requirement was written'),
  requiredPasses: count,
  flaky: z.boolean().describe('passed some runs and failed others'),
  passed: z.boolean().describe('met its requirement (and, with failOnFlaky, was not flaky)'),
});
const suitePassRateSchema = obj({
  suite: z.string(),
  runs: count,
  passes: count,
  passRate: share,
  interval,
  required: share.optional().describe("the suite's passRate, when written"),
  passed: z.boolean(),
});
const passRatesSchema = obj({
  scenarios: z.array(scenarioPassRateSchema),
  suites: z.array(suitePassRateSchema),
  passed: z.boolean().describe('every scenario and suite met its requirement'),
  flaky: count.describe('scenario x mode entries with status flaky'),
  failOnFlaky: z.boolean().describe('flaky entries failed their verdict (--fail-on-flaky)'),
});
type PassRateStatus = z.output<typeof statusEnum>;
type RateInterval = z.output<typeof interval>;
export type ScenarioPassRate = z.output<typeof scenarioPassRateSchema>;
type SuitePassRate = z.output<typeof suitePassRateSchema>;
export type PassRates = z.output<typeof passRatesSchema>;

export interface PassRateOptions {
  /** A flaky scenario x mode fails even when it meets its requirement (`--fail-on-flaky`). */
  failOnFlaky?: boolean;
}

/** Outcomes that carry no verdict: the run never finished. */
const NO_VERDICT: ReadonlySet<string> = new Set(['interrupted', 'not-sent']);
const key = (suite: string, scenario: string): string => JSON.stringify([suite, scenario]);

/** Passes a requirement asks of `runs` runs. */
function requiredPassesFor(required: ScenarioPassRate['required'], runs: number): number {
  if ('minPasses' in required) return required.minPasses;
  if ('passRate' in required) return Math.ceil(required.passRate * runs - 1e-9);
  return runs;
}

/** The status of `passes` out of `runs`. */
function passRateStatus(runs: number, passes: number): PassRateStatus {
  return runs === 0 ? 'not-run' : passes === runs ? 'passed' : passes === 0 ? 'failed' : 'flaky';
}

/** Every figure of one scenario x mode from its counts and requirement. */
function scenarioPassRate(
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
function suitePassRates(
  entries: readonly ScenarioPassRate[],
  requiredOf: (suite: string) => number | undefined,
): SuitePassRate[] {
  return [...new Set(entries.map((e) => e.suite))].map((name): SuitePassRate => {
    const mine = entries.filter((e) => e.suite === name);
    const runs = mine.reduce((n, e) => n + e.runs, 0);
    const passes = mine.reduce((n, e) => n + e.passes, 0);
    const passRate = runs === 0 ? 1 : passes / runs;
    const required = requiredOf(name);
    const out: SuitePassRate = {
      suite: name,
      runs,
      passes,
      passRate,
      interval: wilsonInterval(passes, runs),
      passed: mine.every((e) => e.passed) && (required === undefined || passRate >= required),
    };
    if (required !== undefined) out.required = required;
    return out;
  });
}

/** The whole section from scenario entries. */
function passRatesOf(
  scenarios: ScenarioPassRate[],
  requiredOf: (suite: string) => number | undefined,
  failOnFlaky: boolean,
): PassRates {
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
/** A record whose every missing verdict is "not judged: budget spent" (runner/tally.ts notJudged). */
const budgetOnly = (r: RequestRecord): boolean =>
  r.judgeErrors !== undefined &&
  r.judgeErrors.length > 0 &&
  r.judgeErrors.every((j) => j.code === 'DROIDCHECK_ERR_BUDGET');

export function computePassRates(
  records: readonly RequestRecord[],
  suites: readonly Suite[],
  options: PassRateOptions = {},
): PassRates {
  const failOnFlaky = options.failOnFlaky ?? false;
  const scenarios = new Map(suites.flatMap((s) => s.scenarios.map((sc) => [key(sc.suite, sc.name), sc] as const)));
  const groups = new Map<string, { suite: string; scenario: string; mode: AnswerMode; runs: number; passes: number }>();
  for (const r of records) {
    const k = JSON.stringify([r.suite, r.scenario, r.mode]);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { suite: r.suite, scenario: r.scenario, mode: r.mode, runs: 0, passes: 0 }));
    // A run left "not judged: budget spent" says nothing of the droid: no run, like an interrupted one.
    if (NO_VERDICT.has(r.outcome) || budgetOnly(r)) continue;
    g.runs += 1;
    if (r.passed) g.passes += 1;
  }
  const entries = [...groups.values()].map((g) =>
    scenarioPassRate(g, scenarios.get(key(g.suite, g.scenario))?.requirement ?? { all: true }, failOnFlaky),
  );
  return passRatesOf(entries, (name) => suites.find((s) => s.name === name)?.passRate, failOnFlaky);
}

/**
 * Sums pass rates of shards; undefined when an input has none. `failOnFlaky`: the option, else
 * true when any input was judged with it.
 */
export function mergePassRates(
  inputs: readonly (PassRates | undefined)[],
  options: { failOnFlaky?: boolean } = {},
): PassRates | undefined {
  const list = fromEvery(inputs, (p) => p);
  if (!list) return undefined;
  const failOnFlaky = options.failOnFlaky ?? list.some((p) => p.failOnFlaky);
  const byKey = new Map<string, ScenarioPassRate>();
  for (const e of list.flatMap((p) => p.scenarios)) {
    const k = JSON.stringify([e.suite, e.scenario, e.mode]);
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...prev, runs: prev.runs + e.runs, passes: prev.passes + e.passes } : { ...e });
  }
  const scenarios = [...byKey.values()].map((e) => scenarioPassRate(e, e.required, failOnFlaky));
  const suites = list.flatMap((p) => p.suites);
  return passRatesOf(
    scenarios,
    (name) => suites.find((s) => s.suite === name && s.required !== undefined)?.required,
    failOnFlaky,
  );
}

// ---------------------------------------------------------------- phrases (every format, JUnit too)

const pct0 = (x: number): string => formatPercent(x, 0);

/** `≥ 80%`, `≥ 3 passes`, or `all`. */
function requirementText(r: ScenarioPassRate['required']): string {
  return 'passRate' in r ? `≥ ${pct0(r.passRate)}` : 'minPasses' in r ? `≥ ${r.minPasses} passes` : 'all';
}

/** `30–95%` (Wilson 95% interval). */
function intervalText(i: RateInterval): string {
  return `${formatPercent(i.low, 0).replace('%', '')}–${pct0(i.high)}`;
}

/** `pass^4 ✓` / `pass^4 ✗`: whether all k runs passed. */
function passKText(e: Pick<ScenarioPassRate, 'runs' | 'allPassed'>): string {
  return `pass^${e.runs} ${e.allPassed ? '✓' : '✗'}`;
}

/** Should the section be shown: some scenario x mode ran more than once, or was flaky. */
function showPassRates(p: PassRates | undefined): p is PassRates {
  return p?.scenarios.some((e) => e.runs > 1 || e.flaky) ?? false;
}

/** Header of the pass-rate table. */
const PASS_RATE_HEADER: readonly string[] = ['scenario', 'passes', 'rate', '95% CI', 'pass^k', 'required', 'verdict'];

/** `ok`, `FAIL`, `ok flaky`, `FAIL flaky`: the verdict against the requirement, then the flaky status. */
function verdictText(e: Pick<ScenarioPassRate, 'passed' | 'flaky'>): string {
  return `${e.passed ? 'ok' : 'FAIL'}${e.flaky ? ' flaky' : ''}`;
}

/** One row: `Shop › buys shirts [sync]`, `3/4`, `75%`, `30–95%`, `pass^4 ✗`, `≥ 50%`, `ok flaky`. */
function passRateCells(e: ScenarioPassRate): string[] {
  return [
    `${e.suite} › ${e.scenario} [${e.mode}]`,
    `${e.passes}/${e.runs}`,
    pct0(e.passRate),
    intervalText(e.interval),
    passKText(e),
    requirementText(e.required),
    verdictText(e),
  ];
}

/** The section's title line: `Pass rates  1 flaky` (`, flaky fails (--fail-on-flaky)` when set). */
function passRatesTitle(p: PassRates): string {
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
export function passRateOf(
  p: PassRates | undefined,
  suite: string,
  scenario: string,
  mode: string,
): ScenarioPassRate | undefined {
  return p?.scenarios.find((e) => e.suite === suite && e.scenario === scenario && e.mode === mode);
}

/**
 * The table (`brief`: the console's default, only the rows worth a look: scenarios that ran more
 * than once and were flaky or missed their requirement, and the suites that missed theirs; a
 * scenario that ran once is judged in the failures already, one that passed every repeat is in
 * its suite's line). None when `brief` leaves nothing.
 */
function passRatesViews(p: PassRates, brief = false): SectionView[] {
  const scenarios = brief ? p.scenarios.filter((e) => e.runs > 1 && (e.flaky || !e.passed)) : p.scenarios;
  const required = p.suites.filter((s) => s.required !== undefined && (!brief || !s.passed));
  if (brief && scenarios.length === 0 && required.length === 0) return [];
  const rows = scenarios.map((e): Text[] => {
    const cells = passRateCells(e);
    return [
      ...cells.slice(0, 6),
      [span(e.passed ? 'ok' : 'FAIL', e.passed ? 'ok' : 'fail'), ...(e.flaky ? [span(' flaky', 'warn')] : [])],
    ];
  });
  const suites = required.map(
    (s): Text => [
      `suite ${s.suite} ${s.passes}/${s.runs} (${pct0(s.passRate)}, 95% CI ${intervalText(s.interval)}, required ${pct0(s.required ?? 1)}) `,
      span(s.passed ? 'ok' : 'FAIL', s.passed ? 'ok' : 'fail'),
    ],
  );
  const view: SectionView = {
    id: 'pass-rates',
    title: 'Pass rates',
    summary: passRatesTitle(p),
    tables:
      rows.length === 0
        ? []
        : [
            {
              columns: PASS_RATE_HEADER.map((header, i) => ({ header, ...(i >= 4 && { align: 'l' as const }) })),
              rows,
            },
          ],
    notes: suites,
  };
  return [view];
}

type Doc = { passRates?: PassRates };
type Input = SectionInput & { records?: readonly RequestRecord[] };

export const passRatesSection = defineSection({
  name: 'passRates',
  fields: {
    passRates: passRatesSchema.optional().describe('pass rates per scenario x mode and per suite over repeats (run)'),
  },
  // From the records a job keeps (each repeat of each scenario); a job that keeps none has no pass rates.
  compute: (input: Input) =>
    input.records
      ? {
          passRates: computePassRates(
            input.records.filter((r) => hasVerdict(r.outcome)),
            input.suites ?? [],
            {
              failOnFlaky: input.failOnFlaky ?? false,
            },
          ),
        }
      : {},
  merge: (docs: readonly Doc[]) => {
    const passRates = mergePassRates(docs.map((d) => d.passRates));
    return passRates ? { passRates } : {};
  },
  views: (d: Doc) => (showPassRates(d.passRates) ? passRatesViews(d.passRates) : []),
  brief: (d: Doc) => (showPassRates(d.passRates) ? passRatesViews(d.passRates, true) : []),
});
