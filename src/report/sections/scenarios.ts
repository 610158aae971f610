/**
 * `scenarios` (one entry per request record of a run: outcome, latency, failed expectations
 * with expected, actual and file:line:col, the answer text of a failure) and `tallies` (load and
 * capacity keep no records: per scenario x mode counts with a few failing examples). Shards
 * merge by concatenating the entries and adding the tallies (outcomes.ts, as the capacity
 * search combines its steps).
 *
 * The views here are the tallies of a load (on the console by default only those that failed);
 * the list of entries and the failures are drawn by each reporter (a filterable table in HTML,
 * grouped blocks on the console: failure-groups.ts). JUnit: a testcase per entry (run) or per
 * tally (load, capacity), classname the suite, name `scenario [mode]`, its time from the latency;
 * a `<failure>` holding every failed expectation, an `<error>` for no answer, `<skipped>` when
 * interrupted; a repeated scenario carries its pass rate (pass-rates.ts).
 */
import { z } from 'zod';
import { mergeOutcomeTallies } from '../../outcomes.js';
import type { ExpectationFailure, GradeEntry, JudgeErrorEntry } from '../../scenario/index.js';
import { formatLocation } from '../../errors.js';
import { formatValue } from '../format-value.js';
import type { ContractViolationRecord, RequestRecord, ScenarioTally } from '../run-types.js';
import { defineSection, type JUnitCase, type JUnitSuite } from '../section.js';
import { passRateOf, passRateProperties, passRateSentence, type PassRates } from './pass-rates.js';
import { span, type SectionView, type Text } from '../view.js';
import {
  count,
  ms,
  modeEnum,
  obj,
  outcomeCounts,
  outcomeEnum,
  recordErrorSchema,
  sourceLocationSchema,
  type Assert,
  type Same,
} from './common.js';

const expectationFailureSchema = obj({
  path: z.string(),
  matcher: z.string(),
  expected: z.unknown(),
  // Absent when the path held nothing (JSON drops undefined).
  actual: z.unknown().optional(),
  message: z.string(),
  location: sourceLocationSchema,
  score: z.number().optional().describe('similar/judge: 0..1'),
  reason: z.string().optional().describe("judge: the judge's reason"),
});
const contractViolationSchema = obj({
  endpoint: z.string(),
  path: z.string(),
  message: z.string(),
  value: z.unknown().optional(),
});
const judgeErrorSchema = obj({
  path: z.string(),
  matcher: z.string(),
  code: z.string(),
  message: z.string(),
  location: sourceLocationSchema,
});
const gradeSchema = obj({
  path: z.string(),
  matcher: z.string(),
  score: z.number(),
  pass: z.boolean(),
  reason: z.string().optional(),
  cached: z.boolean(),
  calls: count,
  location: sourceLocationSchema,
});
const _checks: [
  Assert<Same<z.output<typeof expectationFailureSchema>, ExpectationFailure>>,
  Assert<Same<z.output<typeof contractViolationSchema>, ContractViolationRecord>>,
  Assert<Same<z.output<typeof judgeErrorSchema>, JudgeErrorEntry>>,
  Assert<Same<z.output<typeof gradeSchema>, GradeEntry>>,
] = [true, true, true, true];
void _checks;

const scenarioEntrySchema = obj({
  suite: z.string(),
  name: z.string(),
  file: z.string(),
  mode: modeEnum,
  repeat: count.optional().describe('0-based repeat index; absent for the first'),
  outcome: outcomeEnum,
  passed: z.boolean(),
  requestId: z.string().optional(),
  traceId: z
    .string()
    .optional()
    .describe('the W3C trace id every call of this request carried (traceparent): its trace in a trace view'),
  latencyMs: ms.optional().describe('end to end: sync response or async answer; calls only: the sum of the steps'),
  retries: z.number().int().positive().optional().describe('submit retries (--retries); absent when none'),
  failures: z.array(expectationFailureSchema),
  contractViolations: z.array(contractViolationSchema),
  error: recordErrorSchema.optional(),
  judgeErrors: z
    .array(judgeErrorSchema)
    .optional()
    .describe('graded expectations that got no verdict: a judge error, not a failure'),
  grades: z.array(gradeSchema).optional().describe('every graded expectation: score 0..1, pass, the reason'),
  answerText: z.string().optional().describe('failed entries: the answer text, at most 2,000 characters'),
  failedStep: obj({ index: count.describe('0-based'), kind: z.string(), endpoint: z.string() })
    .optional()
    .describe('failed steps scenarios: the first step that did not pass'),
  simulation: obj({
    end: z
      .string()
      .describe(
        'stop (the customer was done), max-turns, empty (the model said nothing), judge-error, droid-error, aborted',
      ),
    turns: z.array(obj({ customer: z.string(), droid: z.string(), latencyMs: ms.describe("the droid's answer time") })),
    modelCalls: count.describe('chat calls of the simulator model (0: replayed from its cache)'),
    cacheHits: count.optional().describe('customer lines replayed from the cache (no call)'),
    promptTokens: count.optional().describe("tokens of the simulator model's calls, as its endpoint reported them"),
    completionTokens: count.optional().describe("tokens the simulator model's calls produced"),
  })
    .optional()
    .describe('simulate: scenarios: the conversation, each customer line with the answer and its latency'),
});
export type ScenarioEntry = z.output<typeof scenarioEntrySchema>;
type FailedStep = NonNullable<ScenarioEntry['failedStep']>;

const tallySchema = obj({
  suite: z.string(),
  name: z.string(),
  file: z.string(),
  mode: modeEnum,
  requests: count,
  passed: count,
  failed: count,
  outcomes: outcomeCounts,
  examples: z.array(
    obj({
      seq: count,
      outcome: outcomeEnum,
      requestId: z.string().optional(),
      error: recordErrorSchema.optional(),
      failures: z.array(obj({ path: z.string(), message: z.string() })),
    }),
  ),
});
const _tally: Assert<Same<z.output<typeof tallySchema>, ScenarioTally>> = true;
void _tally;

const MAX_ANSWER_CHARS = 2000;

function failedStep(r: RequestRecord): FailedStep | undefined {
  const s = r.steps?.find((x) => !x.passed);
  return s ? { index: s.index, kind: s.kind, endpoint: s.endpoint } : undefined;
}

/** A scenario of calls only (no answer turn): the sum of its steps' response times, ms. */
function stepsMs(r: RequestRecord): number | undefined {
  let sum: number | undefined;
  for (const s of r.steps ?? []) if (s.latencyMs !== undefined) sum = (sum ?? 0) + s.latencyMs;
  return sum;
}

/** The report's view of one record: failed ones carry the answer text and the failing step. */
function scenarioEntry(r: RequestRecord): ScenarioEntry {
  const latencyMs = (r.mode === 'sync' ? r.syncMs : r.answerMs) ?? stepsMs(r);
  const text = r.passed ? undefined : (r.answer as { answer?: unknown } | null | undefined)?.answer;
  const step = r.passed ? undefined : failedStep(r);
  return {
    suite: r.suite,
    name: r.scenario,
    file: r.file,
    mode: r.mode,
    ...(r.repeat !== undefined && r.repeat > 0 && { repeat: r.repeat }),
    outcome: r.outcome,
    passed: r.passed,
    ...(r.requestId !== undefined && { requestId: r.requestId }),
    ...(r.traceId !== undefined && { traceId: r.traceId }),
    ...(latencyMs !== undefined && { latencyMs: Math.round(latencyMs * 1000) / 1000 }),
    ...(r.retries !== undefined && r.retries > 0 && { retries: r.retries }),
    failures: r.failures,
    contractViolations: r.contractViolations,
    ...(r.error && { error: r.error }),
    ...(r.judgeErrors && { judgeErrors: r.judgeErrors }),
    ...(r.grades && { grades: r.grades }),
    ...(typeof text === 'string' && {
      answerText: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS - 1)}…` : text,
    }),
    ...(step && { failedStep: step }),
    ...(r.simulation && {
      simulation: {
        end: r.simulation.end,
        turns: r.simulation.turns,
        modelCalls: r.simulation.modelCalls,
        cacheHits: r.simulation.cacheHits,
        promptTokens: r.simulation.promptTokens,
        completionTokens: r.simulation.completionTokens,
      },
    }),
  };
}

const MAX_TALLIES = 50;

/** Per scenario x mode counts of a load, with a failing example each (`title`: the section's). */
function talliesView(tallies: readonly ScenarioTally[], title = 'Scenarios'): SectionView {
  const rows = tallies.slice(0, MAX_TALLIES).map((t): Text[] => {
    const e = t.examples[0];
    const example = e
      ? `#${e.seq} ${e.outcome}${e.error ? `: ${e.error.message}` : ''}${e.failures[0] ? `: ${e.failures[0].message}` : ''}`
      : '';
    return [
      span(`${t.suite} › ${t.name} [${t.mode}]`, t.failed > 0 ? 'fail' : undefined),
      String(t.requests),
      String(t.passed),
      t.failed > 0 ? span(String(t.failed), 'fail') : '0',
      example.slice(0, 120),
    ];
  });
  return {
    id: 'scenarios',
    title,
    tables: [
      {
        columns: [
          { header: 'scenario' },
          { header: 'requests' },
          { header: 'passed' },
          { header: 'failed' },
          { header: 'example failure', align: 'l' },
        ],
        rows,
        ...(tallies.length > MAX_TALLIES && { more: `… ${tallies.length - MAX_TALLIES} more in report.json` }),
      },
    ],
  };
}

// ---- JUnit: a <testsuite> per scenario suite, a <testcase> per scenario x mode (entries of a
// run; a load's tallies) with at most one problem, a repeated scenario's pass rate beside it.

/** Every failed expectation and contract violation of an entry, one block each (a testcase's one failure text). */
function problemLines(s: ScenarioEntry): string[] {
  const lines = s.failures.map((f) =>
    [
      `${f.path} ${f.matcher}: ${f.message}`,
      `  expected: ${formatValue(f.expected, 2000)}`,
      `  actual:   ${formatValue(f.actual, 2000)}`,
      `  at ${formatLocation(f.location)}`,
    ].join('\n'),
  );
  lines.push(...s.contractViolations.map((v) => `contract ${v.endpoint} ${v.path || '(body)'}: ${v.message}`));
  return lines;
}

/** The one problem of an entry (module docs); `note` is its pass rate, when repeated. */
function problemOf(s: ScenarioEntry, note: string): JUnitCase['problem'] {
  if (s.outcome === 'interrupted') return { kind: 'skipped', message: 'run interrupted before this request ended' };
  const where = [...(s.requestId ? [`requestId: ${s.requestId}`] : []), `file: ${s.file}`];
  if (s.outcome !== 'answered') {
    const message = s.error ? `${s.outcome}: ${s.error.message}` : s.outcome;
    const body = [...(s.error ? [`${s.error.code}: ${s.error.message}`] : []), ...problemLines(s), ...where];
    return { kind: 'error', message: message + note, type: s.error?.code ?? s.outcome, text: body.join('\n') };
  }
  if (s.passed) return undefined;
  const problems = problemLines(s);
  const first = s.failures[0];
  const head = first
    ? `${first.path}: ${first.message}`
    : s.contractViolations.length > 0
      ? 'contract violated'
      : 'failed';
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  return {
    kind: 'failure',
    message: `${head}${more}${note}`,
    type: first?.matcher ?? (s.contractViolations.length > 0 ? 'contract' : 'failed'),
    text: [...problems, ...where].join('\n'),
  };
}

/** One testcase per entry; a repeated scenario's pass rate as properties and beside the message (a CI tab shows only the message). */
function entryCase(s: ScenarioEntry, passRates: PassRates | undefined): JUnitCase {
  const rate = passRateOf(passRates, s.suite, s.name, s.mode);
  const repeated = rate !== undefined && rate.runs > 1 ? rate : undefined;
  const problem = problemOf(s, repeated ? ` (${passRateSentence(repeated)})` : '');
  return {
    classname: s.suite,
    name: `${s.name} [${s.mode}]`,
    timeMs: Math.round(s.latencyMs ?? 0),
    file: s.file,
    ...(repeated && { properties: passRateProperties(repeated) }),
    ...(problem && { problem }),
  };
}

function tallyCase(t: ScenarioTally): JUnitCase {
  const text = t.examples
    .map(
      (e) =>
        `#${e.seq} ${e.outcome}${e.requestId ? ` ${e.requestId}` : ''}${e.error ? `: ${e.error.code}: ${e.error.message}` : ''}${e.failures.map((f) => `\n  ${f.path}: ${f.message}`).join('')}`,
    )
    .join('\n');
  const problem = {
    kind: 'failure' as const,
    message: `${t.failed} of ${t.requests} requests failed`,
    type: 'load',
    text,
  };
  const properties: [string, string][] = [
    ['requests', String(t.requests)],
    ['passed', String(t.passed)],
  ];
  return {
    classname: t.suite,
    name: `${t.name} [${t.mode}]`,
    timeMs: 0,
    file: t.file,
    properties,
    ...(t.failed > 0 && { problem }),
  };
}

/** `list` grouped by suite name, in order of first appearance. */
function bySuite<T extends { suite: string }>(list: readonly T[], toCase: (x: T) => JUnitCase): JUnitSuite[] {
  const suites = new Map<string, JUnitCase[]>();
  for (const x of list) suites.set(x.suite, [...(suites.get(x.suite) ?? []), toCase(x)]);
  return [...suites].map(([name, cases]) => ({ name, cases }));
}

type Doc = { scenarios: ScenarioEntry[]; tallies?: ScenarioTally[] };

/** The suites of the module docs: of the entries (run), else of the tallies (load, capacity). */
function scenarioSuites(d: Doc & { passRates?: PassRates }): JUnitSuite[] {
  if (d.scenarios.length > 0) return bySuite(d.scenarios, (s) => entryCase(s, d.passRates));
  return bySuite(d.tallies ?? [], tallyCase);
}

export const scenariosSection = defineSection({
  name: 'scenarios',
  fields: {
    scenarios: z
      .array(scenarioEntrySchema)
      .describe('one entry per request record (run); empty for load and capacity (see tallies)'),
    tallies: z
      .array(tallySchema)
      .optional()
      .describe('per scenario x mode counts with failing examples (load, capacity)'),
  },
  // One entry per kept record; a job that keeps none (its records streamed away) has the tally's counts instead.
  compute: (input: { records?: readonly RequestRecord[]; tally: { scenarios: ScenarioTally[] } }) => ({
    scenarios: (input.records ?? []).map(scenarioEntry),
    ...(!input.records && { tallies: input.tally.scenarios }),
  }),
  merge: (docs: readonly Doc[]) => ({
    scenarios: docs.flatMap((d) => d.scenarios),
    ...(docs.some((d) => d.tallies) && { tallies: mergeOutcomeTallies(docs.map((d) => d.tallies ?? [])) }),
  }),
  views: (d: Doc) => (d.scenarios.length === 0 && d.tallies && d.tallies.length > 0 ? [talliesView(d.tallies)] : []),
  // The console's default: the counts of every scenario are in its suite's line (console.ts);
  // the table keeps those that failed, each with its example.
  brief: (d: Doc) => {
    const failed = d.scenarios.length === 0 ? (d.tallies ?? []).filter((t) => t.failed > 0) : [];
    return failed.length > 0 ? [talliesView(failed, 'Scenarios that failed')] : [];
  },
  // Pass rates come before in the registry: a repeated scenario's testcases carry its rate.
  junit: (d: Doc & { passRates?: PassRates }) => scenarioSuites(d),
});
