/**
 * One answer turn: a humanMessage with its chat history sent to get-droid-answer (sync) or
 * get-droid-answer-async + the webhook (async), judged against expectations, filling a
 * `RequestRecord` (docs/architecture.md, Measurements). Used for a plain scenario (execute.ts) and
 * for each `say` step (steps.ts). Never throws for the target's behaviour.
 *
 * Timing: from `start` (monotonic ms; the open model's intended start) to the complete sync
 * response (`syncMs`, metric `sync`), the complete acknowledgement (`ackMs`, metric `ack`) and
 * the receiver accepting the webhook (`answerMs`, metric `answer`). Against a remote target
 * (`ctx.rttMs` set) each acknowledgement also records `ackServer` = ack - the network round trip,
 * the server-side estimate the spec's 100 ms limit is judged on (jobs/pipeline/network.ts).
 *
 * Against a remote target (`ctx.webhooks` set), an async answer whose deadline passes while
 * nothing at all has reached the receiver ends `timeout` with cause NO_DELIVERY_CAUSE and a
 * sentence naming the URL to configure: the set-up breaker (setup-breaker.ts) stops the run on
 * the first few of them instead of letting every request wait out its deadline.
 */
import type { ClientResponse } from '../client/index.js';
import type { ChatHistoryItem } from '../contract/index.js';
import type { AnswerWaiter, WebhookMatch } from '../receiver/index.js';
import { AbortedError, ContractError, TimeoutError } from '../errors.js';
import type { AnswerMode, Expectation, ExpectationFailure, SourceLocation } from '../scenario/index.js';
import type { ExecuteContext } from './context.js';
import { formatMs } from '../units.js';
import { nothingReceived } from './first-answer.js';
import { NO_DELIVERY_CAUSE } from './setup-breaker.js';
import { addContract } from './contract-notes.js';
import { codeContext, judgeAnswer, keepGrades } from './judge.js';
import { answerChecks, turnSent } from './turn-checks.js';
import { settleError } from './settle.js';
import { beginTurn, shareTrace, turnTraceOf, type CallTrace } from './trace.js';
import type { PlannedRequest, RequestRecord, StepResult } from './types.js';

const ASYNC_ENDPOINT = 'get-droid-answer-async';
const SYNC_ENDPOINT = 'get-droid-answer';

/** What one answer turn sends and checks. */
export interface AnswerTurn {
  humanMessage: string;
  chatHistory: ChatHistoryItem[];
  expect: Expectation[];
  latencyMs?: { max: number; location: SourceLocation } | undefined;
  /** What a `code:` check is told as `vars` (a plain scenario's `vars:`, a table's row). */
  vars?: Readonly<Record<string, unknown>> | undefined;
  /** Where the turn is written (a scenario's own location, a `say` step's): what a policy finding on the answer's own arithmetic points at. */
  location?: SourceLocation | undefined;
}

/** Runs `what` with the run's context from `start` (clock ms) into `record`. */
type Run<W, T> = (what: W, ctx: ExecuteContext, start: number, record: RequestRecord) => Promise<T>;
/** A step of one answer turn's run. */
type TurnRun<T> = Run<AnswerTurn, T>;
/** How a whole planned request runs (execute.ts). */
export type RequestRun = Run<PlannedRequest, void>;

/**
 * The bodies of a turn, built once (a plain scenario's turn is sent many times under load).
 * Sync: `humanMessage` as text; the client sends it in the form the target accepts (a string,
 * as the service's endpoint page shows, or `{content, type}` as the async page defines).
 */
interface TurnBodies {
  async: { humanMessage: { content: string; type: 'human' }; chatHistory: ChatHistoryItem[] };
  sync: { humanMessage: string; chatHistory: ChatHistoryItem[] };
}

const bodies = new WeakMap<AnswerTurn, TurnBodies>();

function bodiesOf(turn: AnswerTurn): TurnBodies {
  let b = bodies.get(turn);
  if (!b) {
    b = {
      // Frozen: the client serialises a frozen body once (client/call.ts), not per request.
      async: Object.freeze({
        humanMessage: Object.freeze({ content: turn.humanMessage, type: 'human' as const }),
        chatHistory: turn.chatHistory,
      }),
      sync: { humanMessage: turn.humanMessage, chatHistory: turn.chatHistory },
    };
    bodies.set(turn, b);
  }
  return b;
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

async function judge(
  record: RequestRecord,
  turn: AnswerTurn,
  payload: unknown,
  latencyMs: number,
  ctx: ExecuteContext,
): Promise<void> {
  record.answer = payload;
  const ev = await judgeAnswer(turn.expect, payload, turn, ctx, record, () => codeContext(record, turn.vars, 0));
  record.failures = [
    ...ev.failures,
    ...latencyFailure(turn.latencyMs, latencyMs),
    ...answerChecks(ctx, record, turn, payload),
  ];
  keepGrades(record, ev);
  record.passed = record.outcome === 'answered' && record.failures.length === 0 && record.judgeErrors === undefined;
}

const NO_OPTIONS = Object.freeze({});
const callOptions = new WeakMap<AbortSignal, { signal: AbortSignal }>();

/** `{ signal }` of the run, built once per signal (not per request). */
function optionsOf(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  if (!signal) return NO_OPTIONS;
  let o = callOptions.get(signal);
  if (!o) callOptions.set(signal, (o = { signal }));
  return o;
}

/**
 * The submit's call options: the run's signal, and `ctx.retry` (opt-in; the client retries, see
 * client/retry.ts) with each retry counted in `record.retries`. A retried submit's latency runs
 * from `start` to its last attempt's response, the waits between attempts included.
 */
function submitOptions(ctx: ExecuteContext, record: RequestRecord, call: CallTrace | undefined) {
  const signal = ctx.abortSignal;
  const trace = call && ctx.traceContext !== false && { trace: call.headers };
  if (!ctx.retry) return trace ? { ...optionsOf(signal), ...trace } : optionsOf(signal);
  const onRetry = (): void => void (record.retries = (record.retries ?? 0) + 1);
  return { ...optionsOf(signal), ...trace, retry: { policy: ctx.retry, onRetry } };
}

/** The submit's call trace (its headers), under the record's turn; undefined without trace context. */
function submitTrace(record: RequestRecord, endpoint: string, path: string): CallTrace | undefined {
  return turnTraceOf(record)?.call(endpoint, 'POST', path);
}

/** Ends a call trace with what the client threw: the HTTP status of an API error, the error's code. */
function endCallWith(call: CallTrace | undefined, err: unknown): void {
  if (!call) return;
  const e = err as { status?: unknown; code?: unknown };
  call.end(typeof e.status === 'number' ? e.status : undefined, typeof e.code === 'string' ? e.code : 'error');
}

/**
 * What every answered submit records: its time from `start` (ms) as `syncMs`/`ackMs` and under
 * the metric `sync`/`ack`, its HTTP status and its contract check. Returns that time.
 */
function recordSubmit(
  record: RequestRecord,
  ctx: ExecuteContext,
  start: number,
  metric: 'sync' | 'ack',
  res: ClientResponse<unknown>,
): number {
  const ms = ctx.clock.now() - start;
  record[`${metric}Ms`] = ms;
  record.httpStatus = res.status;
  ctx.latency.recordMs(metric, ms);
  const endpoint = metric === 'sync' ? SYNC_ENDPOINT : ASYNC_ENDPOINT;
  addContract(record, endpoint, res.contract, ctx.notes, res.headers, res.body);
  return ms;
}

const executeSync: TurnRun<void> = async (turn, ctx, start, record) => {
  const signal = ctx.abortSignal;
  const call = submitTrace(record, SYNC_ENDPOINT, '/get-droid-answer');
  try {
    const sync = bodiesOf(turn).sync;
    const res = await ctx.client.getDroidAnswer(sync, submitOptions(ctx, record, call));
    call?.end(res.status);
    const syncMs = recordSubmit(record, ctx, start, 'sync', res);
    const requestId = (res.body as { requestId?: unknown } | null)?.requestId;
    if (typeof requestId === 'string') record.requestId = requestId;
    record.outcome = 'answered';
    if (ctx.ackOnly) {
      record.passed = true;
      return;
    }
    await judge(record, turn, res.body, syncMs, ctx);
  } catch (err) {
    endCallWith(call, err);
    if (err instanceof TimeoutError || (err instanceof AbortedError && !signal?.aborted))
      record.syncMs = ctx.clock.now() - start;
    settleError(record, err, SYNC_ENDPOINT);
  }
};

/**
 * The async submit up to the acknowledgement: fills the ack fields of `record`, resolves the
 * requestId (undefined when the request ended here). A function of its own so that the ack
 * response (its headers, body and contract check) is garbage once it returns: an async
 * function's suspended frame keeps every local alive while it waits for the webhook, for up
 * to 180 s per pending request.
 */
const acknowledge: TurnRun<string | undefined> = async (turn, ctx, start, record) => {
  const call = submitTrace(record, ASYNC_ENDPOINT, '/get-droid-answer-async');
  try {
    const body = bodiesOf(turn).async;
    const ack = await ctx.client.getDroidAnswerAsync(body, submitOptions(ctx, record, call));
    call?.end(ack.status);
    const ackMs = recordSubmit(record, ctx, start, 'ack', ack);
    if (ctx.rttMs !== undefined) ctx.latency.recordMs('ackServer', Math.max(0, ackMs - ctx.rttMs));
    const id = (ack.body as { requestId?: unknown } | null)?.requestId;
    if (typeof id !== 'string' || id.length === 0) {
      record.outcome = 'invalid-response';
      record.error = { code: ContractError.code, message: `${ASYNC_ENDPOINT} acknowledged without a requestId` };
      return undefined;
    }
    record.requestId = id;
    ctx.onAcknowledged?.();
    turnTraceOf(record)?.acknowledged(id);
    return id;
  } catch (err) {
    endCallWith(call, err);
    settleError(record, err, ASYNC_ENDPOINT);
    return undefined;
  }
};

/**
 * Where an answer turn started with startAnswerTurn reports its end: `ended` once its record is
 * complete, or `failed` when its execution threw (a droidcheck bug). Exactly one of them, once.
 */
export interface TurnEnd {
  ended(record: RequestRecord): void;
  failed(err: unknown): void;
}

/**
 * An async turn from its acknowledgement to its webhook: what the receiver holds for it
 * (DeliverySource.expectAnswer) while the answer is pending, which under load is up to 180 s
 * x the arrival rate of them at once. It is the turn's whole state then: no promise, closure or
 * suspended function stays behind it (test/runner/pending-memory.test.ts measures what does).
 * A field added here costs 8 B per pending answer; what only the end needs belongs in `end`.
 */
class PendingAnswer implements AnswerWaiter {
  constructor(
    readonly turn: AnswerTurn,
    readonly ctx: ExecuteContext,
    readonly start: number,
    readonly record: RequestRecord,
    readonly end: TurnEnd,
  ) {}

  /** Called by the receiver where the match is decided: the judging runs in a microtask, off its route. */
  settle(match: WebhookMatch): void {
    queueMicrotask(() => {
      settleAnswer(this.turn, this.ctx, this.start, this.record, match).then(
        () => turnOver(this.record, this.end),
        (err: unknown) => this.end.failed(err),
      );
    });
  }
}

/** After the acknowledgement: the turn ends here (no requestId, ack-only) or waits for its webhook. */
function awaitAnswer(
  requestId: string | undefined,
  turn: AnswerTurn,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  end: TurnEnd,
): void {
  if (requestId === undefined) return turnOver(record, end);
  const receiver = ctx.receiver;
  if (ctx.ackOnly || !receiver) {
    // Ack-only: "answered" means acknowledged with a requestId (spec 9); the webhook is not awaited.
    record.outcome = 'answered';
    record.passed = true;
    return turnOver(record, end);
  }
  receiver.expectAnswer(
    requestId,
    start + ctx.timeoutMs,
    new PendingAnswer(turn, ctx, start, record, end),
    ctx.abortSignal,
  );
}

/** Fills `record` from what the receiver matched for its requestId: the answer, a failed answer, or none in time. */
async function settleAnswer(
  turn: AnswerTurn,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  match: WebhookMatch,
): Promise<void> {
  if (match.kind === 'timeout') {
    const aborted = ctx.abortSignal?.aborted === true;
    record.outcome = aborted ? 'interrupted' : 'timeout';
    record.error = aborted
      ? { code: AbortedError.code, message: ctx.stopReason?.() ?? 'run interrupted before the webhook arrived' }
      : ctx.webhooks && ctx.receiver && nothingReceived(ctx.receiver)
        ? {
            code: TimeoutError.code,
            message: `no webhook for ${record.requestId} within ${formatMs(ctx.timeoutMs)} and nothing at all reached droidcheck (no answer, no forwarded message, no intent webhook): the service posts answers to the URL in its settings (Settings > Integrations, "When AI Answer Ready"), so set it to ${ctx.webhooks.answer} and check that it reaches this machine (the tunnel is up); if the answers merely take longer, raise --timeout`,
            cause: NO_DELIVERY_CAUSE,
          }
        : { code: TimeoutError.code, message: `no webhook for ${record.requestId} within ${formatMs(ctx.timeoutMs)}` };
    return;
  }
  const answerMs = match.receivedAt - start;
  record.answerMs = answerMs;
  turnTraceOf(record)?.delivered(match.receivedAt, match.kind);
  addContract(record, 'webhook', match.contract, ctx.notes, undefined, match.payload);
  if (match.kind === 'failed') {
    record.outcome = 'failed';
    record.answer = match.payload;
    record.error = { code: 'DROIDCHECK_ERR_ANSWER_FAILED', message: `error payload: ${match.payload.error}` };
    return;
  }
  record.outcome = 'answered';
  ctx.latency.recordMs('answer', answerMs);
  await judge(record, turn, match.payload, answerMs, ctx);
}

/** The turn of `record` is over: its trace's open turn ends (runner/trace.ts), then `end` is told. */
function turnOver(record: RequestRecord, end: TurnEnd): void {
  try {
    turnTraceOf(record)?.end(record);
  } catch (err) {
    return end.failed(err);
  }
  end.ended(record);
}

/**
 * Starts one answer turn in `mode`, filling `record` (outcome, latencies, failures, answer), and
 * tells `end` when it is over. An async turn holds, while its webhook is awaited, only its
 * PendingAnswer (the engine's hot path: a load keeps tens of thousands of them).
 */
export function startAnswerTurn(
  mode: AnswerMode,
  turn: AnswerTurn,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  end: TurnEnd,
): void {
  try {
    turnSent(ctx, record, turn);
    beginTurn(record, mode, start);
  } catch (err) {
    return end.failed(err);
  }
  const failed = (err: unknown): void => end.failed(err);
  if (mode === 'sync') executeSync(turn, ctx, start, record).then(() => turnOver(record, end), failed);
  else
    acknowledge(turn, ctx, start, record).then(
      (requestId) => awaitAnswer(requestId, turn, ctx, start, record, end),
      failed,
    );
}

/** Runs one answer turn in `mode`, filling `record` (outcome, latencies, failures, answer); resolves at its end. */
function executeAnswerTurn(
  mode: AnswerMode,
  turn: AnswerTurn,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
): Promise<void> {
  return new Promise((resolve, reject) =>
    startAnswerTurn(mode, turn, ctx, start, record, { ended: () => resolve(), failed: reject }),
  );
}

/**
 * One answer turn of a conversation (a `say` step, a simulated customer line), run in `mode`
 * into a record of its own (`record`'s fields, a fresh outcome and lists) whose contract
 * violations, requestId, timings and HTTP status are then copied to `record`. Returns that
 * record and the turn's `say` step result at `index` (latency: the sync response, or the
 * webhook of an async answer, ms; the turn's error, when it has one).
 */
export async function conversationTurn(
  mode: AnswerMode,
  turn: AnswerTurn,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  index: number,
): Promise<{ one: RequestRecord; step: StepResult }> {
  const { steps: _steps, ...rest } = record;
  const one: RequestRecord = { ...rest, outcome: 'interrupted', passed: false, failures: [], contractViolations: [] };
  shareTrace(record, one);
  await executeAnswerTurn(mode, turn, ctx, start, one);
  record.contractViolations.push(...one.contractViolations);
  for (const k of ['requestId', 'ackMs', 'answerMs', 'syncMs', 'httpStatus'] as const) {
    if (one[k] !== undefined) (record as unknown as Record<string, unknown>)[k] = one[k];
  }
  const endpoint = mode === 'sync' ? SYNC_ENDPOINT : ASYNC_ENDPOINT;
  const step: StepResult = { index, kind: 'say', endpoint, outcome: one.outcome, passed: false, failures: [] };
  if (one.httpStatus !== undefined) step.httpStatus = one.httpStatus;
  if (one.requestId !== undefined) step.requestId = one.requestId;
  const latencyMs = mode === 'sync' ? one.syncMs : one.answerMs;
  if (latencyMs !== undefined) step.latencyMs = latencyMs;
  if (one.error) step.error = one.error;
  return { one, step };
}

/** `sink`, also recording each ack/answer/sync under answer turn `turn` (1-based; the report's `byTurn`). */
export function turnSink(sink: ExecuteContext['latency'], turn: number): ExecuteContext['latency'] {
  if (!sink.recordTurnMs) return sink;
  return {
    recordMs(metric, ms) {
      sink.recordMs(metric, ms);
      if (metric === 'ack' || metric === 'answer' || metric === 'sync') sink.recordTurnMs?.(turn, metric, ms);
    },
  };
}
