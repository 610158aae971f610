/**
 * The one outcome tally of every job (run, load, capacity): outcomes, verdicts, retries,
 * contract violations, the bursts' findings (burst-tally.ts), and per scenario x mode counts with
 * a few failing examples. Records are
 * counted as they end, so a load run need not keep them (docs/architecture.md, Outcomes).
 *
 * Verdicts: a record `not-sent` (interrupted before sending) or `interrupted` (cancelled in
 * flight) has none; a record whose only problem is a graded expectation without a verdict is a
 * *judge error* (never a failure, never a pass: docs/architecture.md, Outcomes); every other record
 * passed or failed. So `requests = sum of outcomes` and `passed + failed + judgeErrors + notSent +
 * interrupted = requests`.
 */
import { InternalError } from '../errors.js';
import { EXAMPLES_PER_SCENARIO, hasVerdict, isOutcome, zeroOutcomes, type Outcome } from '../outcomes.js';
import type { AnswerMode } from '../scenario/index.js';
import { BurstTally, type BurstSnapshot } from './burst-tally.js';
import type { RecordError, RequestRecord } from './types.js';

interface ScenarioExample {
  seq: number;
  outcome: Outcome;
  requestId?: string;
  error?: RecordError;
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

export interface TallySnapshot {
  /** Records counted (planned requests that ended, sent or not). */
  requests: number;
  /** Requests sent (every outcome but `not-sent`). */
  sent: number;
  outcomes: Record<Outcome, number>;
  passed: number;
  /** Records with a verdict (not `not-sent`, not `interrupted`) that did not pass, judge errors apart. */
  failed: number;
  /** Records whose graded expectations got no verdict and nothing else failed. */
  judgeErrors: number;
  /**
   * Of `judgeErrors`, those whose only missing verdicts were not asked because the budget of
   * model calls was spent (DROIDCHECK_ERR_BUDGET): "not judged: budget spent" (exit 98, not 1).
   */
  notJudged: number;
  /** Submit retries (`--retries`) over all records. */
  retries: number;
  contractViolations: number;
  scenarios: ScenarioTally[];
  /** The bursts judged and their findings (burst-tally.ts); absent when none ran. */
  bursts?: BurstSnapshot;
}

/** The code of a graded check left unasked because the budget of model calls was spent (llm/budget.ts). */
const BUDGET_CODE = 'DROIDCHECK_ERR_BUDGET';

/** A judge-error record whose every missing verdict is "not judged: budget spent". */
function notJudged(record: Pick<RequestRecord, 'judgeErrors'>): boolean {
  const j = record.judgeErrors;
  return j !== undefined && j.length > 0 && j.every((e) => e.code === BUDGET_CODE);
}

/** The verdict of an ended record (see the module docs). */
export function verdictOf(record: RequestRecord): 'passed' | 'failed' | 'judge-error' | 'none' {
  if (record.passed) return 'passed';
  if (!hasVerdict(record.outcome)) return 'none';
  if (
    record.outcome === 'answered' &&
    record.failures.length === 0 &&
    record.judgeErrors !== undefined &&
    record.judgeErrors.length > 0
  )
    return 'judge-error';
  return 'failed';
}

export class Tally {
  readonly outcomes = zeroOutcomes();
  requests = 0;
  passed = 0;
  failed = 0;
  judgeErrors = 0;
  notJudged = 0;
  retries = 0;
  contractViolations = 0;
  readonly bursts = new BurstTally();
  /** Per scenario x mode, in first-seen order; looked up by suite, scenario, mode (no key string per record). */
  readonly #scenarios: ScenarioTally[] = [];
  readonly #index = new Map<string, Map<string, Map<AnswerMode, ScenarioTally>>>();

  /** Counts one ended record. */
  add(record: RequestRecord): void {
    if (!isOutcome(record.outcome))
      throw new InternalError(
        `record #${record.seq} (${record.suite} / ${record.scenario} [${record.mode}]) has an unknown outcome "${String(record.outcome)}"`,
      );
    this.requests += 1;
    this.outcomes[record.outcome] += 1;
    this.retries += record.retries ?? 0;
    this.contractViolations += record.contractViolations.length;
    if (record.bursts) this.bursts.add(record);
    const verdict = verdictOf(record);
    if (verdict === 'passed') this.passed += 1;
    else if (verdict === 'failed') this.failed += 1;
    else if (verdict === 'judge-error') {
      this.judgeErrors += 1;
      if (notJudged(record)) this.notJudged += 1;
    }
    const t = this.#scenarioOf(record);
    t.requests += 1;
    t.outcomes[record.outcome] += 1;
    if (verdict === 'passed') t.passed += 1;
    else if (verdict === 'failed' || verdict === 'judge-error') {
      t.failed += 1;
      if (t.examples.length < EXAMPLES_PER_SCENARIO) {
        t.examples.push({
          seq: record.seq,
          outcome: record.outcome,
          ...(record.requestId !== undefined && { requestId: record.requestId }),
          ...(record.error && { error: record.error }),
          failures: record.failures.map((f) => ({ path: f.path, message: f.message })),
        });
      }
    }
  }

  #scenarioOf(record: RequestRecord): ScenarioTally {
    let bySuite = this.#index.get(record.suite);
    if (!bySuite) this.#index.set(record.suite, (bySuite = new Map()));
    let byMode = bySuite.get(record.scenario);
    if (!byMode) bySuite.set(record.scenario, (byMode = new Map()));
    let t = byMode.get(record.mode);
    if (!t) {
      t = {
        suite: record.suite,
        name: record.scenario,
        file: record.file,
        mode: record.mode,
        requests: 0,
        passed: 0,
        failed: 0,
        outcomes: zeroOutcomes(),
        examples: [],
      };
      byMode.set(record.mode, t);
      this.#scenarios.push(t);
    }
    return t;
  }

  /** Ended records whose outcome is not `answered` (and that were sent). */
  get errors(): number {
    return this.requests - this.outcomes.answered - this.outcomes['not-sent'];
  }

  snapshot(): TallySnapshot {
    const bursts = this.bursts.snapshot();
    return {
      ...(bursts && { bursts }),
      requests: this.requests,
      sent: this.requests - this.outcomes['not-sent'],
      outcomes: { ...this.outcomes },
      passed: this.passed,
      failed: this.failed,
      judgeErrors: this.judgeErrors,
      notJudged: this.notJudged,
      retries: this.retries,
      contractViolations: this.contractViolations,
      scenarios: this.#scenarios.map((s) => ({ ...s, outcomes: { ...s.outcomes }, examples: [...s.examples] })),
    };
  }
}
