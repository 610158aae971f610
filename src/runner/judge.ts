/**
 * The runner's one call into the scenario language's matchers: the expectations of an answer
 * (or of a step's response) against its body, with the grader for `similar`/`judge` and the
 * turn as grounding (docs/llm.md). Failures in expectation order; judge errors apart (never a
 * failure, never a pass); never throws.
 */
import { evaluateExpectations, type Evaluation, type Expectation } from '../scenario/index.js';
import type { ChatHistoryItem } from '../contract/index.js';
import type { ExecuteContext } from './context.js';
import type { RequestRecord } from './types.js';

const NOTHING: Evaluation = Object.freeze({ failures: [], judgeErrors: [], grades: [] }) as unknown as Evaluation;

/** Evaluates `expect` against `payload`; `turn` grounds a `judge` (its chat history and message). */
export function judgeAnswer(
  expect: readonly Expectation[],
  payload: unknown,
  turn: { humanMessage: string; chatHistory: readonly ChatHistoryItem[] } | undefined,
  ctx: ExecuteContext,
): Promise<Evaluation> {
  if (expect.length === 0) return Promise.resolve(NOTHING);
  return evaluateExpectations(expect, payload, {
    grader: ctx.grader,
    ...(turn && { grounding: turn }),
    signal: ctx.abortSignal,
    ...(ctx.skipGraded && { skipGraded: true }),
  });
}

/** Adds an evaluation's judge errors and grades to the record (only when there are any). */
export function keepGrades(record: RequestRecord, ev: Evaluation, prefix = ''): void {
  if (ev.judgeErrors.length > 0)
    (record.judgeErrors ??= []).push(
      ...ev.judgeErrors.map((e) => (prefix ? { ...e, message: `${prefix}${e.message}` } : e)),
    );
  if (ev.grades.length > 0) (record.grades ??= []).push(...ev.grades);
}
