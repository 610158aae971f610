/**
 * One answer turn: a humanMessage with its chat history sent to get-droid-answer (sync) or
 * get-droid-answer-async + the webhook (async), judged against expectations, filling a
 * `RequestRecord` (DESIGN.md, Measurements). Used for a plain scenario (execute.ts) and for
 * each `say` step (steps.ts). Never throws for the target's behaviour.
 *
 * Timing: from `start` (monotonic ms; the open model's intended start) to the complete sync
 * response (`syncMs`, metric `sync`), the complete acknowledgement (`ackMs`, metric `ack`) and
 * the receiver accepting the webhook (`answerMs`, metric `answer`).
 */
import { withRetry, type RetryKind } from '../client/retry.js';
import type { ChatHistoryItem } from '../contract/index.js';
import { ApiError, ContractError, TimeoutError, TransportError, AbortedError, isDroidcheckError } from '../errors.js';
import type { AnswerMode, Expectation, ExpectationFailure, SourceLocation } from '../scenario/index.js';
import { evaluatePlainExpectations } from '../scenario/index.js';
import type { ExecuteContext } from './execute.js';
import type { ContractViolationRecord, Outcome, RequestRecord } from './types.js';

export const ASYNC_ENDPOINT = 'get-droid-answer-async';
export const SYNC_ENDPOINT = 'get-droid-answer';

/** What one answer turn sends and checks. */
export interface AnswerTurn {
  humanMessage: string;
  chatHistory: ChatHistoryItem[];
  expect: Expectation[];
  latencyMs?: { max: number; location: SourceLocation } | undefined;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * Contract of a 2xx response beyond its body schema (issue 4, contract checks): status 200 and a
 * JSON content type (spec: "Bodies are JSON (Content-Type: application/json)").
 */
export function responseMetaViolations(status: number, headers: Headers | undefined): { path: string; message: string; value?: unknown }[] {
  const out: { path: string; message: string; value?: unknown }[] = [];
  if (status !== 200) out.push({ path: '(status)', message: 'a successful answer should be HTTP 200', value: status });
  if (headers) {
    const raw = headers['content-type'];
    const ct = Array.isArray(raw) ? raw[0] : raw;
    if (!ct || !/^application\/json\b/i.test(ct)) out.push({ path: '(content-type)', message: 'expected Content-Type application/json', value: ct ?? null });
  }
  return out;
}

export function addContract(
  record: RequestRecord,
  endpoint: string,
  check: { violations: { path: string; message: string; value?: unknown }[]; unknownFields: string[] },
  meta?: { status: number; headers?: Headers },
): void {
  const violations = meta ? [...check.violations, ...responseMetaViolations(meta.status, meta.headers)] : check.violations;
  for (const v of violations) record.contractViolations.push({ endpoint, ...v } as ContractViolationRecord);
  for (const f of check.unknownFields) record.unknownFields.push(`${endpoint}: ${f}`);
}

/** Maps an error thrown by the client or receiver to the record's outcome (DESIGN.md outcomes). */
export function settleError(record: RequestRecord, err: unknown, endpoint: string): void {
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
  // The raw start of a body that broke the contract (HTML page, truncated JSON), token redacted.
  if ((err instanceof ApiError || err instanceof ContractError) && err.bodyExcerpt.length > 0) record.error.excerpt = err.bodyExcerpt;
}

/** A failure when `actualMs` exceeds the limit (compared with `<=`). */
export function latencyFailure(limit: AnswerTurn['latencyMs'], actualMs: number): ExpectationFailure[] {
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

function judge(record: RequestRecord, turn: AnswerTurn, payload: unknown, latencyMs: number): void {
  record.answer = payload;
  record.failures = [...evaluatePlainExpectations(turn.expect, payload), ...latencyFailure(turn.latencyMs, latencyMs)];
  record.passed = record.outcome === 'answered' && record.failures.length === 0;
}

/** The submit, retried per `ctx.retry` (opt-in, client/retry.ts); each retry counted in `record.retries`. */
function submit<T>(ctx: ExecuteContext, record: RequestRecord, kind: RetryKind, fn: () => Promise<T>): Promise<T> {
  if (!ctx.retry) return fn();
  const onRetry = (): void => void (record.retries = (record.retries ?? 0) + 1);
  return withRetry(fn, { policy: ctx.retry, kind, signal: ctx.abortSignal, onRetry });
}

function body(turn: AnswerTurn): { humanMessage: { content: string; type: 'human' }; chatHistory: ChatHistoryItem[] } {
  return { humanMessage: { content: turn.humanMessage, type: 'human' }, chatHistory: turn.chatHistory };
}

async function executeSync(turn: AnswerTurn, ctx: ExecuteContext, start: number, record: RequestRecord): Promise<void> {
  const signal = ctx.abortSignal;
  try {
    const res = await submit(ctx, record, 'sync', () => ctx.client.getDroidAnswer(body(turn), signal ? { signal } : {}));
    const syncMs = ctx.clock.now() - start;
    record.syncMs = syncMs;
    record.httpStatus = res.status;
    addContract(record, SYNC_ENDPOINT, res.contract, { status: res.status, headers: res.headers });
    const requestId = (res.body as { requestId?: unknown }).requestId;
    if (typeof requestId === 'string') record.requestId = requestId;
    record.outcome = 'answered';
    ctx.latency.recordMs('sync', syncMs);
    judge(record, turn, res.body, syncMs);
  } catch (err) {
    if (err instanceof TimeoutError || (err instanceof AbortedError && !signal?.aborted)) {
      record.syncMs = ctx.clock.now() - start;
    }
    settleError(record, err, SYNC_ENDPOINT);
  }
}

async function executeAsync(turn: AnswerTurn, ctx: ExecuteContext, start: number, record: RequestRecord): Promise<void> {
  const receiver = ctx.receiver;
  if (!receiver) throw new Error('executeAsync: a receiver is required for async requests');
  const signal = ctx.abortSignal;
  let requestId: string;
  try {
    const ack = await submit(ctx, record, 'async-submit', () => ctx.client.getDroidAnswerAsync(body(turn), signal ? { signal } : {}));
    const ackMs = ctx.clock.now() - start;
    record.ackMs = ackMs;
    record.httpStatus = ack.status;
    ctx.latency.recordMs('ack', ackMs);
    addContract(record, ASYNC_ENDPOINT, ack.contract, { status: ack.status, headers: ack.headers });
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
  judge(record, turn, match.payload, answerMs);
}

/** Runs one answer turn in `mode`, filling `record` (outcome, latencies, failures, answer). */
export function executeAnswerTurn(mode: AnswerMode, turn: AnswerTurn, ctx: ExecuteContext, start: number, record: RequestRecord): Promise<void> {
  return mode === 'sync' ? executeSync(turn, ctx, start, record) : executeAsync(turn, ctx, start, record);
}
