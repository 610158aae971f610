/**
 * The runner's one call into the scenario language's matchers: the expectations of an answer
 * (or of a step's response) against its body, with the grader for `similar`/`judge` and the
 * turn as grounding (docs/llm.md), and what a `code:` check is told (`codeContext`: the
 * scenario, its variables, mode and turn). Failures in expectation order; judge errors apart
 * (never a failure, never a pass); never throws.
 */
import {
  evaluateExpectations,
  type CodeCheckContext,
  type Evaluation,
  type Expectation,
  type GradeScope,
} from '../scenario/index.js';
import { traceOf, turnTraceOf } from './trace.js';
import type { ChatHistoryItem } from '../contract/index.js';
import type { ExecuteContext } from './context.js';
import type { RequestRecord } from './types.js';

const NOTHING: Evaluation = Object.freeze({ failures: [], judgeErrors: [], grades: [] }) as unknown as Evaluation;

/** What a `code:` check of `record`'s request is told beside the payload (`turn`: 0-based step index). */
export type CodeContext = Omit<CodeCheckContext, 'payload'>;

/** The code context of a request: its scenario and mode, `vars` as they are now (a copy), `turn`. */
export function codeContext(
  record: Pick<RequestRecord, 'scenario' | 'suite' | 'mode'>,
  vars: Readonly<Record<string, unknown>> | undefined,
  turn: number,
): CodeContext {
  return { vars: { ...vars }, scenario: { name: record.scenario, suite: record.suite }, mode: record.mode, turn };
}

/**
 * Evaluates `expect` against `payload`; `turn` grounds a `judge` (its chat history and message);
 * `code` is what a `code:` check is told (only built when `expect` has one: see `codeContext`);
 * `answered`, the record of the answer turn whose answer `payload` is (a `say` step's, a burst
 * message's; default `record`): its grades' model calls hang under that turn's span.
 */
export function judgeAnswer(
  expect: readonly Expectation[],
  payload: unknown,
  turn: { humanMessage: string; chatHistory: readonly ChatHistoryItem[] } | undefined,
  ctx: ExecuteContext,
  record: RequestRecord,
  code?: () => CodeContext,
  answered: RequestRecord = record,
): Promise<Evaluation> {
  if (expect.length === 0) return Promise.resolve(NOTHING);
  return evaluateExpectations(expect, payload, {
    grader: ctx.grader,
    ...(ctx.grader && { scope: gradeScope(record, answered) }),
    ...(turn && { grounding: turn }),
    signal: ctx.abortSignal,
    ...(ctx.skipGraded && { skipGraded: true }),
    ...(code && expect.some(hasCode) && { code: code() }),
  });
}

/**
 * What the grades of `record`'s request are made for: its scenario, and where in its trace they
 * hang: under the answer turn `answered` ran (a plain scenario's, a say step's), else under the
 * conversation (a simulated customer's lines, a check of a whole conversation).
 */
export function gradeScope(record: RequestRecord, answered: RequestRecord = record): GradeScope {
  return {
    scenario: `${record.suite} › ${record.scenario}`,
    parent: turnTraceOf(answered)?.modelScope ?? traceOf(record)?.modelScope,
  };
}

/** Does `e` (or a `json` expectation inside it) call a function? */
function hasCode(e: Expectation): boolean {
  return e.matcher === 'code' || (e.matcher === 'json' && (e.expected as Expectation[]).some(hasCode));
}

/** Adds an evaluation's judge errors and grades to the record (only when there are any). */
export function keepGrades(record: RequestRecord, ev: Evaluation, prefix = ''): void {
  if (ev.judgeErrors.length > 0)
    (record.judgeErrors ??= []).push(
      ...ev.judgeErrors.map((e) => (prefix ? { ...e, message: `${prefix}${e.message}` } : e)),
    );
  if (ev.grades.length > 0) (record.grades ??= []).push(...ev.grades);
}
