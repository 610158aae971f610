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

/**
 * A request that ended with a verdict to give: sent and ended, not `not-sent` nor `interrupted`.
 * The tally counts these as passed or failed; the report's sections of kept records (pass rates,
 * parity, accuracy) read only these.
 */
export const hasVerdict = (outcome: Outcome): boolean => outcome !== 'not-sent' && outcome !== 'interrupted';

/** A zero count for every outcome name. */
export function zeroOutcomes(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

/** True when `value` is one of OUTCOMES. */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
}

/** Up to this many failing records are kept per scenario x mode as examples for the report. */
export const EXAMPLES_PER_SCENARIO = 3;

/** The per scenario x mode counts a tally keeps (runner/tally.ts ScenarioTally; report.json `tallies`). */
export interface OutcomeTally<E = unknown> {
  suite: string;
  name: string;
  mode: string;
  requests: number;
  passed: number;
  failed: number;
  outcomes: Record<Outcome, number>;
  examples: E[];
}

/**
 * Tallies of several parts (capacity steps: runner/combine.ts; shards: `droidcheck merge`) as
 * one: per suite x scenario x mode the counts added and the first {@link EXAMPLES_PER_SCENARIO}
 * examples kept, in first-seen order. Pure: the inputs are not changed.
 */
export function mergeOutcomeTallies<T extends OutcomeTally>(lists: readonly (readonly T[])[]): T[] {
  const byKey = new Map<string, T>();
  for (const t of lists.flat()) {
    const key = JSON.stringify([t.suite, t.name, t.mode]);
    const m = byKey.get(key);
    if (!m) {
      byKey.set(key, { ...t, outcomes: { ...t.outcomes }, examples: t.examples.slice(0, EXAMPLES_PER_SCENARIO) });
      continue;
    }
    m.requests += t.requests;
    m.passed += t.passed;
    m.failed += t.failed;
    for (const o of OUTCOMES) m.outcomes[o] += t.outcomes[o];
    m.examples.push(...t.examples.slice(0, Math.max(0, EXAMPLES_PER_SCENARIO - m.examples.length)));
  }
  return [...byKey.values()];
}

/** Notes kept once per endpoint and kind (the first seen), as the engine keeps them. */
export function uniqueNotes<N extends { endpoint: string; kind: string }>(notes: readonly N[]): N[] {
  return notes.filter((n, i, all) => all.findIndex((m) => m.endpoint === n.endpoint && m.kind === n.kind) === i);
}
