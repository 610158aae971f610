/**
 * What the engine produces: one `RequestRecord` per planned request (sent, or `not-sent` when
 * interrupted), the shapes of steps and contract findings (docs/architecture.md, Outcomes).
 */
import type { Outcome } from '../outcomes.js';
import type {
  AnswerMode,
  CallName,
  ExpectationFailure,
  GradeEntry,
  JudgeErrorEntry,
  Scenario,
} from '../scenario/index.js';

export type { Outcome } from '../outcomes.js';

/** One request to send: scenario x mode x repeat (a plan), or one draw of a mix. */
export interface PlannedRequest {
  /** 0-based position in the plan, or the draw number of a mix. */
  seq: number;
  scenario: Scenario;
  mode: AnswerMode;
  /** 0-based repeat index (scenario `repeat: N` plans N of each mode); absent => 0. */
  repeat?: number;
}

/** A finding: a response broke a shape the specification or the service's documentation shows. */
export interface ContractViolationRecord {
  /** Endpoint name, e.g. `get-droid-answer-async`, `webhook`. */
  endpoint: string;
  path: string;
  message: string;
  value?: unknown;
}

/**
 * The result of one step of a scenario with `steps` (runner/steps.ts).
 * - `endpoint`: spec name (`get-droid-answer`, `get-droid-answer-async`, `channels`, `send`,
 *   `customer-update`, `get-image-alt`, ...);
 * - `outcome`: `answered` when the step got its response (a non-2xx that the step's `status`
 *   expected counts as answered), else the error's outcome (the scenario stops there);
 * - `latencyMs`: step start to complete response (say, async: to the webhook), ms;
 * - `body`: the response body (say: the answer payload; expected non-2xx: `{error, message}`);
 * - `captured`: variables this step set (`capture:`).
 */
export interface StepResult {
  index: number;
  kind: 'say' | CallName;
  endpoint: string;
  outcome: Outcome;
  passed: boolean;
  httpStatus?: number;
  requestId?: string;
  latencyMs?: number;
  failures: ExpectationFailure[];
  captured?: Record<string, unknown>;
  body?: unknown;
  error?: RecordError;
  /** How many of its graded expectations got no verdict (judge errors). */
  judgeErrors?: number;
}

/** Why a request did not end `answered`. `excerpt`: the first 500 characters of a body that broke the contract or of an HTTP error. */
export interface RecordError {
  code: string;
  message: string;
  excerpt?: string;
  /** The undici/Node code of a transport error (ECONNREFUSED, UND_ERR_SOCKET...). */
  cause?: string;
}

export interface RequestRecord {
  /** 0-based position in the plan (or draw number of a mix). */
  seq: number;
  suite: string;
  scenario: string;
  file: string;
  mode: AnswerMode;
  /** 0-based repeat index (scenario `repeat: N`); absent => 0. */
  repeat?: number;
  requestId?: string;
  /**
   * The conversation's trace id (32 hex digits, W3C Trace Context): every call of this request
   * carried it in `traceparent` (runner/trace.ts). Absent with `--no-trace-context`.
   */
  traceId?: string;
  outcome: Outcome;
  /** answered, every expectation held. */
  passed: boolean;
  /** Wall-clock ISO 8601 time the request was (intended to be) started. */
  startedAt: string;
  /** Async: start to complete acknowledgement, ms. */
  ackMs?: number;
  /** Async: start to the receiver accepting the webhook, ms. */
  answerMs?: number;
  /** Sync: start to complete response, ms. */
  syncMs?: number;
  /** HTTP status of the submit, when there was one. */
  httpStatus?: number;
  /** Retries of the submit (opt-in `--retries`, client/retry.ts); absent when none. */
  retries?: number;
  error?: RecordError;
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  /**
   * `similar`/`judge` expectations whose grader gave no verdict (docs/llm.md): the record then has
   * the verdict "judge error" (not passed, not failed) unless another expectation failed.
   */
  judgeErrors?: JudgeErrorEntry[];
  /** Every graded expectation (score 0..1, pass, reason, cached). */
  grades?: GradeEntry[];
  /** The answer payload (sync body or webhook body), for parity and accuracy reports. */
  answer?: unknown;
  /** Per-step results of a scenario with `steps` (the answer fields above are its last `say`); a `simulate:` scenario: one `say` per customer line. */
  steps?: StepResult[];
  /** A `simulate:` scenario's conversation (runner/simulate.ts). */
  simulation?: SimulationRecord;
}

/**
 * A simulated customer's conversation: each customer line, the droid's answer text and its
 * latency (ms; sync: the whole request, async: submit to webhook); how it ended (`stop`,
 * `max-turns`, `empty`, `judge-error`, `droid-error`, `aborted`); the model's chat calls, the
 * lines replayed from its cache and the tokens its calls used.
 */
export interface SimulationRecord {
  end: string;
  turns: { customer: string; droid: string; latencyMs: number }[];
  transcript: string;
  modelCalls: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * A run-level note about the target's shapes, at most one per endpoint and kind
 * (droidcheck's own choices where the spec says "not shown" are never findings:
 * docs/service-reference.md).
 * - `unverified-shape`: the body differs from the shape droidcheck chose where nothing is documented;
 * - `unknown-fields`: fields neither the documentation nor droidcheck's choice names.
 */
export interface ContractNote {
  endpoint: string;
  kind: 'unverified-shape' | 'unknown-fields';
  /** One line: what was seen. */
  message: string;
  /** Paths involved (dotted). */
  paths: string[];
}
