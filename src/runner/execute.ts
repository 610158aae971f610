/**
 * Executes one planned request against the target and turns whatever happens into exactly
 * one `RequestRecord` (DESIGN.md, Measurements). Never throws for the target's behaviour.
 *
 * Timing: `start` is the request's start on the monotonic clock; under an open model it is
 * the *intended* start, so a stalled target is not hidden (coordinated omission).
 */
import type { DroidClient } from '../client/index.js';
import type { ChatHistoryItem } from '../contract/index.js';
import { ApiError, ContractError, TimeoutError, TransportError, AbortedError, isDroidcheckError } from '../errors.js';
import type { LatencyRecorder } from '../metrics/index.js';
import type { Receiver } from '../receiver/index.js';
import { evaluateExpectations, type ExpectationFailure, type Scenario } from '../scenario/index.js';
import type { Clock } from './clock.js';
import type { PlannedRequest } from './plan.js';
import type { ContractViolationRecord, Outcome, RequestRecord } from './types.js';

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
}

const ASYNC_ENDPOINT = 'get-droid-answer-async';
const SYNC_ENDPOINT = 'get-droid-answer';

function requestBody(scenario: Scenario): { humanMessage: { content: string; type: 'human' }; chatHistory: ChatHistoryItem[] } {
  return { humanMessage: { content: scenario.humanMessage, type: 'human' }, chatHistory: scenario.chatHistory };
}

function newRecord(planned: PlannedRequest, startedAt: string): RequestRecord {
  const { scenario } = planned;
  return {
    seq: planned.seq,
    suite: scenario.suite,
    scenario: scenario.name,
    file: scenario.file,
    mode: planned.mode,
    outcome: 'interrupted',
    passed: false,
    startedAt,
    failures: [],
    contractViolations: [],
    unknownFields: [],
  };
}

function addContract(
  record: RequestRecord,
  endpoint: string,
  check: { violations: { path: string; message: string; value?: unknown }[]; unknownFields: string[] },
): void {
  for (const v of check.violations) record.contractViolations.push({ endpoint, ...v } as ContractViolationRecord);
  for (const f of check.unknownFields) record.unknownFields.push(`${endpoint}: ${f}`);
}

/** Maps an error thrown by the client or receiver to the record's outcome (DESIGN.md outcomes). */
function settleError(record: RequestRecord, err: unknown, endpoint: string): void {
  let outcome: Outcome = 'transport-error';
  if (err instanceof ApiError) {
    outcome = 'rejected';
    record.httpStatus = err.status;
  } else if (err instanceof TimeoutError) outcome = 'timeout';
  else if (err instanceof AbortedError) outcome = 'interrupted';
  else if (err instanceof ContractError) {
    outcome = 'transport-error';
    for (const v of err.violations) record.contractViolations.push({ endpoint, ...v });
  } else if (err instanceof TransportError) outcome = 'transport-error';
  record.outcome = outcome;
  record.error = isDroidcheckError(err)
    ? { code: err.code, message: err.message }
    : { code: 'DROIDCHECK_ERR_UNEXPECTED', message: err instanceof Error ? err.message : String(err) };
}

function latencyFailure(scenario: Scenario, actualMs: number): ExpectationFailure[] {
  const limit = scenario.latencyMs;
  if (!limit || actualMs <= limit.max) return [];
  return [
    {
      path: 'latency',
      matcher: 'lte',
      expected: `<= ${limit.max} ms`,
      actual: `${actualMs.toFixed(1)} ms`,
      message: `latency ${actualMs.toFixed(1)} ms exceeds ${limit.max} ms`,
      location: limit.location,
    },
  ];
}

function judge(record: RequestRecord, scenario: Scenario, payload: unknown, latencyMs: number): void {
  record.answer = payload;
  record.failures = [...evaluateExpectations(scenario.expect, payload), ...latencyFailure(scenario, latencyMs)];
  record.passed = record.outcome === 'answered' && record.failures.length === 0;
}

async function executeSync(planned: PlannedRequest, ctx: ExecuteContext, start: number, record: RequestRecord): Promise<void> {
  const signal = ctx.abortSignal;
  try {
    const res = await ctx.client.getDroidAnswer(requestBody(planned.scenario), signal ? { signal } : {});
    const syncMs = ctx.clock.now() - start;
    record.syncMs = syncMs;
    record.httpStatus = res.status;
    addContract(record, SYNC_ENDPOINT, res.contract);
    const requestId = (res.body as { requestId?: unknown }).requestId;
    if (typeof requestId === 'string') record.requestId = requestId;
    record.outcome = 'answered';
    ctx.latency.recordMs('sync', syncMs);
    judge(record, planned.scenario, res.body, syncMs);
  } catch (err) {
    if (err instanceof TimeoutError || (err instanceof AbortedError && !signal?.aborted)) {
      record.syncMs = ctx.clock.now() - start;
    }
    settleError(record, err, SYNC_ENDPOINT);
  }
}

async function executeAsync(planned: PlannedRequest, ctx: ExecuteContext, start: number, record: RequestRecord): Promise<void> {
  const receiver = ctx.receiver;
  if (!receiver) throw new Error('executeAsync: a receiver is required for async requests');
  const signal = ctx.abortSignal;
  let requestId: string;
  try {
    const ack = await ctx.client.getDroidAnswerAsync(requestBody(planned.scenario), signal ? { signal } : {});
    const ackMs = ctx.clock.now() - start;
    record.ackMs = ackMs;
    record.httpStatus = ack.status;
    ctx.latency.recordMs('ack', ackMs);
    addContract(record, ASYNC_ENDPOINT, ack.contract);
    const id = (ack.body as { requestId?: unknown } | null)?.requestId;
    if (typeof id !== 'string' || id.length === 0) {
      record.outcome = 'transport-error';
      record.error = { code: ContractError.code, message: `${ASYNC_ENDPOINT} acknowledged without a requestId` };
      return;
    }
    requestId = id;
    record.requestId = id;
  } catch (err) {
    settleError(record, err, ASYNC_ENDPOINT);
    return;
  }
  const match = await receiver.waitFor(requestId, start + ctx.timeoutMs, signal);
  if (match.kind === 'timeout') {
    record.outcome = signal?.aborted ? 'interrupted' : 'timeout';
    record.error = {
      code: signal?.aborted ? AbortedError.code : TimeoutError.code,
      message: signal?.aborted
        ? 'run interrupted before the webhook arrived'
        : `no webhook for ${requestId} within ${ctx.timeoutMs} ms`,
    };
    return;
  }
  const answerMs = match.receivedAt - start;
  record.answerMs = answerMs;
  addContract(record, 'webhook', match.contract);
  if (match.kind === 'failed') {
    record.outcome = 'failed';
    record.answer = match.payload;
    record.error = { code: 'DROIDCHECK_ERR_ANSWER_FAILED', message: `error payload: ${match.payload.error}` };
    return;
  }
  record.outcome = 'answered';
  ctx.latency.recordMs('answer', answerMs);
  judge(record, planned.scenario, match.payload, answerMs);
}

/**
 * Sends one request and waits for its end. `intendedStart` (clock ms) is the open model's
 * scheduled time; by default the actual start.
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
  if (planned.mode === 'sync') await executeSync(planned, ctx, start, record);
  else await executeAsync(planned, ctx, start, record);
  return record;
}
