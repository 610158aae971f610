/**
 * Executes one planned request against the target and turns whatever happens into exactly
 * one `RequestRecord` (DESIGN.md, Measurements). Never throws for the target's behaviour.
 * A plain scenario is one answer turn (answer-turn.ts); a scenario with `steps` runs them in
 * order (steps.ts), feeding the same record.
 *
 * Timing: `start` is the request's start on the monotonic clock; under an open model it is
 * the *intended* start, so a stalled target is not hidden (coordinated omission).
 */
import type { DroidClient } from '../client/index.js';
import type { RetryPolicy } from '../client/retry.js';
import { AbortedError } from '../errors.js';
import type { LatencyRecorder } from '../metrics/index.js';
import type { Receiver } from '../receiver/index.js';
import { executeAnswerTurn } from './answer-turn.js';
import type { Clock } from './clock.js';
import type { PlannedRequest } from './plan.js';
import { executeSteps } from './steps.js';
import type { RequestRecord } from './types.js';

export interface ExecuteContext {
  client: DroidClient;
  /** Required for async requests. */
  receiver: Receiver | undefined;
  clock: Clock;
  /** Deadline for the sync answer and for the webhook, ms from the start (spec: Limits, 180 s). */
  timeoutMs: number;
  latency: LatencyRecorder;
  /** Cancels in-flight work; the request then ends `interrupted`. */
  abortSignal?: AbortSignal;
  /** Opt-in retry of 429/5xx on the answer submit (client/retry.ts); undefined = no retry. */
  retry?: RetryPolicy | undefined;
}

/** A record before its request ends: outcome `interrupted` until something better is known. */
export function newRecord(planned: PlannedRequest, startedAt: string): RequestRecord {
  const { scenario } = planned;
  return {
    seq: planned.seq,
    suite: scenario.suite,
    scenario: scenario.name,
    file: scenario.file,
    mode: planned.mode,
    repeat: planned.repeat ?? 0,
    outcome: 'interrupted',
    passed: false,
    startedAt,
    failures: [],
    contractViolations: [],
    unknownFields: [],
  };
}

/**
 * Sends one request (or runs one scenario's steps) and waits for its end. `intendedStart`
 * (clock ms) is the open model's scheduled time; by default the actual start.
 */
export async function executeRequest(
  planned: PlannedRequest,
  ctx: ExecuteContext,
  intendedStart?: number,
): Promise<RequestRecord> {
  const start = intendedStart ?? ctx.clock.now();
  const record = newRecord(planned, ctx.clock.wallNow().toISOString());
  if (ctx.abortSignal?.aborted) {
    record.error = { code: AbortedError.code, message: 'run interrupted before the request was sent' };
    return record;
  }
  const { scenario } = planned;
  if (scenario.steps) {
    await executeSteps(planned, ctx, start, record);
    return record;
  }
  await executeAnswerTurn(
    planned.mode,
    { humanMessage: scenario.humanMessage, chatHistory: scenario.chatHistory, expect: scenario.expect, latencyMs: scenario.latencyMs },
    ctx,
    start,
    record,
  );
  return record;
}
