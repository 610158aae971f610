/**
 * What a run produces: one `RequestRecord` per request sent (or not sent, when interrupted),
 * and the `RunResult` the reporters turn into documents (DESIGN.md, Measurements).
 */
import type { ReceiverStats } from '../receiver/index.js';
import type { AnswerMode, CallName, ExpectationFailure } from '../scenario/index.js';
import type { LatencyRecorder } from '../metrics/index.js';

/**
 * Every request ends in exactly one outcome (DESIGN.md, Measurements):
 * - `answered`: a valid answer (sync response, or the first matching webhook);
 * - `failed`: the webhook carried the error payload (spec: Events, rule 1);
 * - `rejected`: the submit got an HTTP error (4xx/5xx, spec: Errors);
 * - `timeout`: no answer (sync) or no webhook (async) by the deadline;
 * - `transport-error`: no usable HTTP answer (reset, refused, body not JSON);
 * - `interrupted`: the run was stopped (SIGINT/SIGTERM) before the request ended.
 */
export const OUTCOMES = ['answered', 'failed', 'rejected', 'timeout', 'transport-error', 'interrupted'] as const;
export type Outcome = (typeof OUTCOMES)[number];

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
  error?: { code: string; message: string };
}

export interface RequestRecord {
  /** 0-based position in the plan. */
  seq: number;
  suite: string;
  scenario: string;
  file: string;
  mode: AnswerMode;
  /** 0-based repeat index (scenario `repeat: N`); absent => 0. */
  repeat?: number;
  requestId?: string;
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
  /** `excerpt`: the first 500 characters of a body that broke the contract or of an HTTP error (token redacted). */
  error?: { code: string; message: string; excerpt?: string };
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  unknownFields: string[];
  /** The answer payload (sync body or webhook body), for parity and accuracy reports. */
  answer?: unknown;
  /** Per-step results of a scenario with `steps` (the answer fields above are its last `say`). */
  steps?: StepResult[];
}

export interface RunResult {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Settings of the run, never the token or the secret. */
  settings: Record<string, unknown>;
  records: RequestRecord[];
  latency: LatencyRecorder;
  receiver: ReceiverStats;
  interrupted: boolean;
}
