/**
 * Maps what a call threw to the record's outcome (src/outcomes.ts): ApiError => `rejected`,
 * TimeoutError => `timeout`, AbortedError => `interrupted`, ContractError (a 2xx body that is not
 * JSON: an HTML page, a truncated body) => `invalid-response`, anything else => `transport-error`.
 */
import { AbortedError, ApiError, ContractError, TimeoutError, TransportError, isDroidcheckError } from '../errors.js';
import type { Outcome } from '../outcomes.js';
import { addViolation } from './record-lists.js';
import type { RecordError, RequestRecord } from './types.js';

/** The outcome a thrown error stands for. */
export function outcomeOf(err: unknown): Outcome {
  if (err instanceof ApiError) return 'rejected';
  if (err instanceof TimeoutError) return 'timeout';
  if (err instanceof AbortedError) return 'interrupted';
  if (err instanceof ContractError) return 'invalid-response';
  return 'transport-error';
}

/** The record's `error` for a thrown error (token-free: the client redacts its messages). */
export function recordErrorOf(err: unknown): RecordError {
  const error: RecordError = isDroidcheckError(err)
    ? { code: err.code, message: err.message }
    : { code: 'DROIDCHECK_ERR_UNEXPECTED', message: err instanceof Error ? err.message : String(err) };
  if ((err instanceof ApiError || err instanceof ContractError) && err.bodyExcerpt.length > 0)
    error.excerpt = err.bodyExcerpt;
  if (err instanceof TransportError && err.causeCode !== undefined) error.cause = err.causeCode;
  return error;
}

/** Sets `record`'s outcome, HTTP status, error and contract violations from a thrown error. */
export function settleError(record: RequestRecord, err: unknown, endpoint: string): void {
  record.outcome = outcomeOf(err);
  if (err instanceof ApiError) record.httpStatus = err.status;
  if (err instanceof ContractError) for (const v of err.violations) addViolation(record, { endpoint, ...v });
  record.error = recordErrorOf(err);
}
