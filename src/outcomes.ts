/**
 * The outcome of a request (leaf module; docs/architecture.md, Outcomes). Every request ends in
 * exactly one of them:
 * - `answered`: a valid answer (sync response, or the first matching webhook);
 * - `failed`: the webhook carried the error payload (spec: Events, rule 1);
 * - `rejected`: the submit got an HTTP error status (spec: Errors);
 * - `timeout`: no answer (sync) or no webhook (async) by the deadline;
 * - `transport-error`: no HTTP answer at all (refused, reset, socket error);
 * - `invalid-response`: a 2xx whose body is not JSON (an HTML page, a truncated body);
 * - `interrupted`: sent, then cancelled by an interrupt before it ended;
 * - `not-sent`: the run was interrupted before this planned request was sent.
 */
export const OUTCOMES = [
  'answered',
  'failed',
  'rejected',
  'timeout',
  'transport-error',
  'invalid-response',
  'interrupted',
  'not-sent',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A zero count for every outcome name. */
export function zeroOutcomes(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

/** True when `value` is one of OUTCOMES. */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
}
