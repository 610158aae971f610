/**
 * Incremental tallies of a load run (records are streamed, not kept): outcomes, passes,
 * per scenario x mode, dropped arrivals (k6's dropped_iterations), in flight.
 * Invariant at the end: sum of outcomes = measured requests sent (DESIGN.md, Measurements).
 */
import { OUTCOMES, type Outcome, type RequestRecord } from '../runner/types.js';
import type { AnswerMode } from '../scenario/index.js';

/** Up to this many failing records are kept per scenario as examples for the report. */
export const EXAMPLES_PER_SCENARIO = 3;

export interface ScenarioExample {
  seq: number;
  outcome: Outcome;
  requestId?: string;
  error?: { code: string; message: string };
  failures: { path: string; message: string }[];
}

export interface ScenarioTally {
  suite: string;
  name: string;
  file: string;
  mode: AnswerMode;
  requests: number;
  passed: number;
  failed: number;
  outcomes: Record<Outcome, number>;
  examples: ScenarioExample[];
}

export function zeroOutcomes(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

export class LoadStats {
  /** Measured requests sent (warm-up excluded). */
  sent = 0;
  /** Requests sent during the warm-up (excluded from every figure but this). */
  warmupSent = 0;
  /** Arrivals not sent because in-flight work was at `--max-in-flight`. */
  dropped = 0;
  /** Requests started and not yet ended (warm-up included). */
  inFlight = 0;
  /** Measured requests ended. */
  completed = 0;
  passed = 0;
  contractViolations = 0;
  readonly outcomes = zeroOutcomes();
  readonly #scenarios = new Map<string, ScenarioTally>();

  /** Counts one ended measured record. */
  add(record: RequestRecord): void {
    this.completed += 1;
    this.outcomes[record.outcome] += 1;
    if (record.passed) this.passed += 1;
    this.contractViolations += record.contractViolations.length;
    const key = `${record.suite}\u0000${record.scenario}\u0000${record.mode}`;
    let t = this.#scenarios.get(key);
    if (!t) {
      t = { suite: record.suite, name: record.scenario, file: record.file, mode: record.mode, requests: 0, passed: 0, failed: 0, outcomes: zeroOutcomes(), examples: [] };
      this.#scenarios.set(key, t);
    }
    t.requests += 1;
    t.outcomes[record.outcome] += 1;
    if (record.passed) t.passed += 1;
    else {
      t.failed += 1;
      if (t.examples.length < EXAMPLES_PER_SCENARIO) {
        t.examples.push({
          seq: record.seq,
          outcome: record.outcome,
          ...(record.requestId !== undefined ? { requestId: record.requestId } : {}),
          ...(record.error ? { error: record.error } : {}),
          failures: record.failures.map((f) => ({ path: f.path, message: f.message })),
        });
      }
    }
  }

  /** Ended measured requests whose outcome is not `answered`. */
  get errors(): number {
    return this.completed - this.outcomes.answered;
  }

  scenarios(): ScenarioTally[] {
    return [...this.#scenarios.values()];
  }
}
