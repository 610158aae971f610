// mirror of src/runner/types.ts
/**
 * Local copies of the runner's record types (docs/interfaces.md, runner/) and of the
 * `ExpectationFailure`, `AnswerMode` (scenario/) and `ReceiverStats` (receiver/) shapes they
 * use, so report/ compiles on its own. The lead switches these imports to the real modules;
 * keep them structurally identical.
 */
import type { SourceLocation } from '../errors.js';
import type { LatencyRecorder } from '../metrics/index.js';

/** mirror of scenario/ AnswerMode. */
export type AnswerMode = 'sync' | 'async';

/** mirror of scenario/ ExpectationFailure. */
export interface ExpectationFailure {
  path: string;
  matcher: string;
  expected: unknown;
  actual: unknown;
  message: string;
  location: SourceLocation;
}

/** mirror of receiver/ ReceiverStats: counts of webhook deliveries. */
export interface ReceiverStats {
  received: number;
  matched: number;
  duplicates: number;
  late: number;
  orphans: number;
  badSecret: number;
  malformed: number;
}

/** Every request ends in exactly one outcome (DESIGN.md, Measurements). */
export const OUTCOMES = ['answered', 'failed', 'rejected', 'timeout', 'transport-error', 'interrupted'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface ContractViolationRecord {
  endpoint: string;
  path: string;
  message: string;
  value?: unknown;
}

export interface RequestRecord {
  seq: number;
  suite: string;
  scenario: string;
  file: string;
  mode: AnswerMode;
  requestId?: string;
  outcome: Outcome;
  passed: boolean;
  /** Wall-clock ISO 8601. */
  startedAt: string;
  /** ms */
  ackMs?: number;
  /** ms */
  answerMs?: number;
  /** ms */
  syncMs?: number;
  httpStatus?: number;
  error?: { code: string; message: string };
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  unknownFields: string[];
  answer?: unknown;
}

export interface RunResult {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** No token, no secret. */
  settings: Record<string, unknown>;
  records: RequestRecord[];
  latency: LatencyRecorder;
  receiver: ReceiverStats;
  interrupted: boolean;
}
