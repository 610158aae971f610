/**
 * `evaluateExpectations(expectations, payload, ctx?)`: checks an answer payload (spec: Answer
 * payload fields) against a scenario's expectations. Never rejects, for any payload and any
 * grader behaviour.
 *
 * Each failed expectation gives one `ExpectationFailure` `{path, matcher, expected, actual,
 * message, location}` (plus `score` and `reason` for `similar`/`judge`), in expectation order;
 * `actual` is the value at the path (`undefined` when missing). A `json` expectation parses the
 * string at its path and reports inner failures with the path `outer#inner` (e.g.
 * `answer#sentiment`).
 *
 * The plain matchers are checked synchronously, with no allocation beyond the failures; only
 * `similar` and `judge` (matchers/graded.ts) call `ctx.grader`, all of one evaluation at once,
 * and `code` (code.ts) calls the suite's own functions with `ctx.code` (the scenario, its
 * variables, mode and turn), also under `skipGraded`; path `$` gives a check the whole payload.
 * A grader that cannot give a verdict (or no grader at all) makes a judge error: never a
 * failure and never a pass (an unfinished grading must neither fail the droid nor let a gate go green).
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { JudgeError } from '../errors.js';
import { type CodeCheckContext, runCodeCheck, WHOLE_PAYLOAD } from './code.js';
import { GRADED_MATCHERS, type JudgeExpected, type SimilarExpected } from './matchers/graded.js';
import { MATCHERS } from './matchers/registry.js';
import { isAbsent, kindOf, show } from './matchers/values.js';
import { missingPathHint } from './payload-paths.js';
import type { Expectation, ExpectationFailure, SourceLocation } from './types.js';

/** The result of one grader call (src/llm's `GradeResult`). */
interface GradeOutcome {
  pass: boolean;
  score: number;
  reason?: string;
  cached: boolean;
  calls: number;
}

/**
 * What evaluation needs of a grader (src/llm's `Grader` has this shape). Both methods reject
 * (with DROIDCHECK_ERR_JUDGE) when no verdict can be had, or DROIDCHECK_ERR_BUDGET when the
 * budget of model calls is spent (the check is then "not judged: budget spent"). `scope` is
 * passed through as given (what the grade is made for: src/llm/budget.ts).
 */
export interface ExpectationGrader {
  judge(
    request: {
      rubric: string;
      answer: string;
      threshold: number;
      context?: {
        chatHistory: readonly ChatHistoryItem[];
        humanMessage: string;
        shoppingCart?: unknown;
        addressParsing?: unknown;
      };
      scope?: GradeScope | undefined;
    },
    signal?: AbortSignal,
  ): Promise<GradeOutcome>;
  similar(
    request: { text: string; references: readonly string[]; threshold: number; scope?: GradeScope | undefined },
    signal?: AbortSignal,
  ): Promise<GradeOutcome>;
}

/** What a grade is made for, passed to the grader as given: the scenario, and the trace of its conversation (opaque). */
export interface GradeScope {
  scenario?: string | undefined;
  parent?: unknown;
}

/** What a grounded judge is told about the turn: the history sent and the human message. */
interface GroundingContext {
  chatHistory: readonly ChatHistoryItem[];
  humanMessage: string;
}

export interface EvaluationContext {
  /** Needed by `similar` and `judge`; without it they are judge errors. */
  grader?: ExpectationGrader | undefined;
  /** For `judge` with `grounded: true` (the payload's shoppingCart and addressParsing are added). */
  grounding?: GroundingContext | undefined;
  signal?: AbortSignal | undefined;
  /** Leave `similar`/`judge` expectations ungraded (load and capacity: no LLM call per request). */
  skipGraded?: boolean;
  /** Passed to every grade (see GradeScope). */
  scope?: GradeScope | undefined;
  /** What a `code` check is told beside the payload; absent: an empty scenario in sync mode, turn 0. */
  code?: Omit<CodeCheckContext, 'payload'> | undefined;
}

/**
 * A `similar`/`judge` expectation whose grader gave no verdict. `code`: the error's code,
 * `DROIDCHECK_ERR_JUDGE` (unreachable, HTTP error, timeout, no verdict JSON, no grader) or
 * `DROIDCHECK_ERR_ABORTED` (the run was interrupted).
 */
export interface JudgeErrorEntry {
  path: string;
  matcher: string;
  code: string;
  message: string;
  location: SourceLocation;
}

/** Every `similar`/`judge` expectation that was graded, passed or failed. */
export interface GradeEntry {
  path: string;
  matcher: string;
  score: number;
  pass: boolean;
  reason?: string;
  /** No call was made: every verdict or embedding came from the cache. */
  cached: boolean;
  /** Chat or embedding calls made for this grade. */
  calls: number;
  location: SourceLocation;
}

export interface Evaluation {
  failures: ExpectationFailure[];
  judgeErrors: JudgeErrorEntry[];
  grades: GradeEntry[];
}

/** The value at a dotted path; numeric segments index arrays; own properties only. */
export function valueAtPath(payload: unknown, path: string): unknown {
  let cur = payload;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (cur !== null && typeof cur === 'object') {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return undefined;
    }
  }
  return cur;
}

/** A graded expectation found by the synchronous walk, graded afterwards. */
interface PendingGrade {
  /** Index in `failures` where its failure (if any) belongs. */
  at: number;
  e: Expectation;
  prefix: string;
  actual: unknown;
}

interface Walk {
  failures: ExpectationFailure[];
  pending: PendingGrade[] | undefined;
}

function failure(e: Expectation, prefix: string, actual: unknown, message: string): ExpectationFailure {
  return {
    path: `${prefix}${e.path}`,
    matcher: e.matcher,
    expected: e.expected,
    actual,
    message: `${prefix}${message}`,
    location: e.location,
  };
}

function walkJson(e: Expectation, actual: unknown, prefix: string, walk: Walk): void {
  const fail = (note: string): void => {
    walk.failures.push({
      ...failure(e, prefix, actual, `${e.path}: expected a JSON string, got ${note}`),
      expected: 'a JSON string',
    });
  };
  if (typeof actual !== 'string') return fail(show(actual));
  let parsed: unknown;
  try {
    parsed = JSON.parse(actual);
  } catch (err) {
    return fail(`${show(actual, 80)} (${err instanceof Error ? err.message : 'not JSON'})`);
  }
  walkExpectations(e.expected as Expectation[], parsed, `${prefix}${e.path}#`, walk);
}

/** `show(actual)`; for a path that finds nothing, with what exists at its deepest part (missingPathHint). */
function shownActual(payload: unknown, path: string, actual: unknown): string {
  if (actual !== undefined) return show(actual);
  const hint = missingPathHint(payload, path);
  return hint === undefined ? show(actual) : `nothing (no value at this path: ${hint})`;
}

/** The synchronous pass: plain matchers checked, graded ones queued in `walk.pending`. */
function walkExpectations(expectations: readonly Expectation[], payload: unknown, prefix: string, walk: Walk): void {
  for (const e of expectations) {
    const actual = e.path === WHOLE_PAYLOAD ? payload : valueAtPath(payload, e.path);
    if (e.matcher === 'json') {
      walkJson(e, actual, prefix, walk);
      continue;
    }
    const def = MATCHERS.get(e.matcher);
    if (!def) {
      if (GRADED_MATCHERS.has(e.matcher) || e.matcher === 'code')
        (walk.pending ??= []).push({ at: walk.failures.length, e, prefix, actual });
      else walk.failures.push(failure(e, prefix, actual, `${e.path}: unknown matcher "${e.matcher}"`));
      continue;
    }
    let outcome: ReturnType<typeof def.test>;
    try {
      outcome = def.test(actual, e.expected, e.options);
    } catch (err) {
      outcome = { pass: false, note: `matcher error: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (outcome.pass) continue;
    const note = outcome.note ? ` (${outcome.note})` : '';
    walk.failures.push(
      failure(
        e,
        prefix,
        actual,
        `${e.path}: expected ${def.describe(e.expected, e.options)}, got ${shownActual(payload, e.path, actual)}${note}`,
      ),
    );
  }
}

/** For a grader failure that carries no code of ours. */
const JUDGE_ERROR_CODE = JudgeError.code;

type Graded = { failure?: ExpectationFailure; grade?: GradeEntry; judgeError?: JudgeErrorEntry };

const NO_CODE_CONTEXT: Omit<CodeCheckContext, 'payload'> = Object.freeze({
  vars: Object.freeze({}),
  scenario: Object.freeze({ name: '', suite: '' }),
  mode: 'sync',
  turn: 0,
});

/** Grades one `similar`/`judge` expectation, or runs one `code` check (never rejects). */
async function grade(p: PendingGrade, root: unknown, ctx: EvaluationContext): Promise<Graded> {
  const { e, prefix, actual } = p;
  if (e.matcher === 'code') {
    const f = await runCodeCheck(e, actual, { ...(ctx.code ?? NO_CODE_CONTEXT), payload: root }, prefix);
    return f ? { failure: f } : {};
  }
  const path = `${prefix}${e.path}`;
  const describe = GRADED_MATCHERS.get(e.matcher)!.describe(e.expected);
  const notGradable = (note: string): Graded => ({
    failure: failure(e, prefix, actual, `${e.path}: expected ${describe}, got ${show(actual)} (${note})`),
  });
  if (e.matcher === 'similar' && typeof actual !== 'string') return notGradable(`${kindOf(actual)}, not a string`);
  if (isAbsent(actual)) return notGradable('nothing to grade');
  if (!ctx.grader) {
    return {
      judgeError: {
        path,
        matcher: e.matcher,
        code: JUDGE_ERROR_CODE,
        message: `${path}: "${e.matcher}" needs a grader: configure a ${e.matcher === 'judge' ? 'judge' : 'embedding'} model (docs/llm.md)`,
        location: e.location,
      },
    };
  }
  let outcome: GradeOutcome;
  try {
    if (e.matcher === 'similar') {
      const x = e.expected as SimilarExpected;
      outcome = await ctx.grader.similar(
        { text: actual as string, references: x.values, threshold: x.threshold, scope: ctx.scope },
        ctx.signal,
      );
    } else {
      const x = e.expected as JudgeExpected;
      const answer = typeof actual === 'string' ? actual : JSON.stringify(actual);
      const root_ = root as { shoppingCart?: unknown; addressParsing?: unknown } | null;
      const context = x.grounded
        ? {
            chatHistory: ctx.grounding?.chatHistory ?? [],
            humanMessage: ctx.grounding?.humanMessage ?? '',
            shoppingCart: valueAtPath(root_, 'shoppingCart'),
            addressParsing: valueAtPath(root_, 'addressParsing'),
          }
        : undefined;
      outcome = await ctx.grader.judge(
        { rubric: x.rubric, answer, threshold: x.threshold, ...(context ? { context } : {}), scope: ctx.scope },
        ctx.signal,
      );
    }
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    return {
      judgeError: {
        path,
        matcher: e.matcher,
        code: typeof code === 'string' && code.startsWith('DROIDCHECK_ERR_') ? code : JUDGE_ERROR_CODE,
        message: `${path}: ${err instanceof Error ? err.message : String(err)}`,
        location: e.location,
      },
    };
  }
  const reason = typeof outcome.reason === 'string' && outcome.reason !== '' ? outcome.reason : undefined;
  const g: GradeEntry = {
    path,
    matcher: e.matcher,
    score: outcome.score,
    pass: outcome.pass,
    cached: outcome.cached,
    calls: outcome.calls,
    location: e.location,
  };
  if (reason !== undefined) g.reason = reason;
  if (outcome.pass) return { grade: g };
  const label = e.matcher === 'similar' ? 'similarity' : 'score';
  const f = failure(
    e,
    prefix,
    actual,
    `${e.path}: expected ${describe}, got ${show(actual)} (${label} ${outcome.score.toFixed(2)}${reason ? `: ${reason}` : ''})`,
  );
  f.score = outcome.score;
  if (reason !== undefined) f.reason = reason;
  return { grade: g, failure: f };
}

/**
 * @param expectations from `Scenario.expect` or a step's `expect`.
 * @param payload the answer payload (sync response body or webhook body), any JSON value.
 * @param ctx the grader for `similar`/`judge`, the grounding of a grounded `judge`, an AbortSignal.
 * @returns `{failures, judgeErrors, grades}`: failures in expectation order (`[]` when all
 *   hold); judge errors and grades of the `similar`/`judge` expectations.
 */
export async function evaluateExpectations(
  expectations: readonly Expectation[],
  payload: unknown,
  ctx: EvaluationContext = {},
): Promise<Evaluation> {
  const walk: Walk = { failures: [], pending: undefined };
  walkExpectations(expectations, payload, '', walk);
  const pending = ctx.skipGraded ? walk.pending?.filter((p) => p.e.matcher === 'code') : walk.pending;
  if (!pending || pending.length === 0) return { failures: walk.failures, judgeErrors: [], grades: [] };
  const graded = await Promise.all(pending.map((p) => grade(p, payload, ctx)));
  const judgeErrors: JudgeErrorEntry[] = [];
  const grades: GradeEntry[] = [];
  for (let i = graded.length - 1; i >= 0; i--) {
    const r = graded[i]!;
    if (r.failure) walk.failures.splice(pending[i]!.at, 0, r.failure);
  }
  for (const r of graded) {
    if (r.grade) grades.push(r.grade);
    if (r.judgeError) judgeErrors.push(r.judgeError);
  }
  return { failures: walk.failures, judgeErrors, grades };
}

/**
 * The synchronous evaluation of the plain matchers, for callers that cannot await (e.g. the
 * accuracy table). A `similar`/`judge`/`code` expectation cannot be checked here and gives a
 * failure saying so; use `evaluateExpectations` for those.
 */
export function evaluatePlainExpectations(
  expectations: readonly Expectation[],
  payload: unknown,
): ExpectationFailure[] {
  const walk: Walk = { failures: [], pending: undefined };
  walkExpectations(expectations, payload, '', walk);
  if (!walk.pending) return walk.failures;
  for (let i = walk.pending.length - 1; i >= 0; i--) {
    const { at, e, prefix, actual } = walk.pending[i]!;
    walk.failures.splice(
      at,
      0,
      failure(
        e,
        prefix,
        actual,
        e.matcher === 'code'
          ? `${e.path}: "code" calls a function: use evaluateExpectations`
          : `${e.path}: "${e.matcher}" needs a grader (evaluateExpectations with ctx.grader)`,
      ),
    );
  }
  return walk.failures;
}
