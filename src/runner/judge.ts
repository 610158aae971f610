/**
 * The runner's one call into the scenario language's matchers: the expectations of an answer
 * (or of a step's response) against its body. Failures in expectation order; never throws.
 */
import { evaluateExpectations, type Expectation, type ExpectationFailure } from '../scenario/index.js';

/** Evaluates `expect` against `payload`; `turn` is the grounding context (chat history, message). */
export async function judgeAnswer(expect: Expectation[], payload: unknown, _turn?: { humanMessage: string; chatHistory: unknown[] }): Promise<ExpectationFailure[]> {
  if (expect.length === 0) return [];
  return evaluateExpectations(expect, payload);
}
