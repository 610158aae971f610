/**
 * What the engine produces: one `RequestRecord` per planned request (sent, or `not-sent` when
 * interrupted), the shapes of steps and contract findings (docs/architecture.md, Outcomes).
 */
import type { Outcome } from '../outcomes.js';
import type {
  AnswerMode,
  BurstFinal,
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
  kind: 'say' | 'burst' | CallName;
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
  /** The bursts of a steps scenario, one per `burst` step that ran (runner/burst.ts, docs/bursts.md). */
  bursts?: BurstRecord[];
}

/**
 * How one message of a burst ended (docs/bursts.md):
 * - `answered`: an answer payload (the sync response, or the answer webhook);
 * - `declined`: the service's refusal, a strategy it may choose: an error payload on the
 *   webhook (spec: Events, "Answer failed"), or HTTP 409 or 429 to the submit;
 * - `unanswered`: nothing by the deadline, or no usable response (every other error): a defect
 *   whatever the strategy, since every accepted request ends in an answer or an error payload
 *   (spec: States and transitions);
 * - `interrupted`: the run was interrupted before it ended (or before it was sent).
 */
export type BurstMessageStatus = 'answered' | 'declined' | 'unanswered' | 'interrupted';

/** The built-in checks of a burst, each a finding when it fires (docs/bursts.md). */
const BURST_CHECKS = ['unanswered', 'declined', 'out-of-order', 'stale-last', 'cart-regressed'] as const;
export type BurstCheck = (typeof BURST_CHECKS)[number];

/** One message of a burst as it went. Times in ms from the burst's start (its first message's intended start). */
export interface BurstMessageRecord {
  /** 0-based, in the order sent. */
  index: number;
  text: string;
  requestId?: string;
  /** When it was sent, ms from the burst's start. */
  sentAtMs: number;
  /** When its answer (or error payload, or refusal) arrived, ms from the burst's start; absent when nothing came. */
  arrivedAtMs?: number;
  status: BurstMessageStatus;
  outcome: Outcome;
  /** The HTTP status of a refused submit (`declined` with 409 or 429, or `unanswered` with another). */
  httpStatus?: number;
  /** Why it was not answered: the error payload's `error`, or the request's error. */
  error?: string;
  /** Answers of this burst its chatHistory held (those that had arrived when it was sent). */
  answersSeen: number;
  /** Its answer's cart lines, `2 x Cotton T-shirt` (the line's name, else its code; its count); absent without a cart. */
  cart?: string[];
}

/** One finding of a burst: which check fired, the messages involved (0-based), one line saying what was seen. */
export interface BurstFinding {
  check: BurstCheck;
  messages: number[];
  message: string;
}

/** A burst as it went (runner/burst.ts) and what its built-in checks found (runner/burst-checks.ts). */
export interface BurstRecord {
  /** 0-based index of its step. */
  step: number;
  gapMs: number;
  /** Which answer the step's `expect` judged. */
  final: BurstFinal;
  messages: BurstMessageRecord[];
  /** The message whose answer payload arrived last (0-based); absent when none was answered. */
  lastDelivered?: number;
  /** True when the run was interrupted before every message ended: its checks were not run. */
  interrupted?: boolean;
  findings: BurstFinding[];
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
