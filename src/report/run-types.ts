/**
 * The run types reporters consume, re-exported from where they live (runner/, scenario/,
 * receiver/) so report/ modules import them from one place.
 */
export type { AnswerMode, ExpectationFailure } from '../scenario/index.js';
export type { ReceiverStats } from '../receiver/index.js';
export { OUTCOMES } from '../runner/types.js';
export type { ContractViolationRecord, Outcome, RequestRecord, RunResult } from '../runner/types.js';
