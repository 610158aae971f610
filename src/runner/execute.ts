/**
 * `executeRequest`: the one per-request path of every job (run, load, capacity). Executes one
 * planned request against the target and turns whatever happens into exactly one
 * `RequestRecord` (docs/architecture.md, Outcomes). Never throws for the target's behaviour.
 * A plain scenario is one answer turn (answer-turn.ts); a scenario with `steps` runs them in
 * order (steps.ts), feeding the same record.
 *
 * Timing: `start` is the request's start on the monotonic clock; under an open model it is
 * the *intended* start, so a stalled target is not hidden (coordinated omission).
 */
import { AbortedError } from '../errors.js';
import { executeAnswerTurn } from './answer-turn.js';
import type { ExecuteContext } from './context.js';
import { executeSimulation } from './simulate.js';
import { executeSteps } from './steps.js';
import { startTrace } from './trace.js';
import type { PlannedRequest, RequestRecord } from './types.js';

/**
 * A record before its request ends: outcome `interrupted` until something better is known.
 * The fields every sent request gets later (ackMs or syncMs, httpStatus, requestId) are there
 * from the start, undefined (JSON.stringify leaves them out): V8 keeps them inside the object
 * instead of a separate property array, ~80 B less per pending request.
 */
function newRecord(planned: PlannedRequest, startedAt: string): RequestRecord {
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
    ackMs: undefined,
    syncMs: undefined,
    httpStatus: undefined,
    requestId: undefined,
    traceId: undefined,
  };
}

/** The record of a planned request that was never sent (the run was interrupted first). */
export function notSentRecord(planned: PlannedRequest, startedAt: string): RequestRecord {
  const record = newRecord(planned, startedAt);
  record.outcome = 'not-sent';
  record.error = { code: AbortedError.code, message: 'run interrupted before the request was sent' };
  return record;
}

/**
 * Starts one request (or one scenario's steps): its record, filled as it goes, and the promise
 * of its end (which never rejects for the target's behaviour). `record` is undefined when the
 * run was aborted before it started: `done` then resolves the `not-sent` record instead.
 * The engine takes both as they are (no promise layered on top per request): a request pending
 * for its webhook holds little more than its record, its own frame and the receiver's waiter,
 * and a load run holds ~100,000 of them for up to 180 s.
 */
export function startRequest(
  planned: PlannedRequest,
  ctx: ExecuteContext,
  intendedStart?: number,
): { record: RequestRecord; done: Promise<unknown> } {
  const start = intendedStart ?? ctx.clock.now();
  if (ctx.abortSignal?.aborted)
    return { record: notSentRecord(planned, ctx.clock.wallNow().toISOString()), done: Promise.resolve() };
  const record = newRecord(planned, ctx.clock.wallNow().toISOString());
  startTrace(ctx.tracer, record, start);
  const done = planned.scenario.simulate
    ? executeSimulation(planned, ctx, start, record)
    : planned.scenario.steps
      ? executeSteps(planned, ctx, start, record)
      : executeAnswerTurn(planned.mode, planned.scenario, ctx, start, record);
  return { record, done };
}

/**
 * Sends one request (or runs one scenario's steps) and waits for its end. `intendedStart`
 * (clock ms) is the open model's scheduled time; by default the actual start.
 */
export function executeRequest(
  planned: PlannedRequest,
  ctx: ExecuteContext,
  intendedStart?: number,
): Promise<RequestRecord> {
  const { record, done } = startRequest(planned, ctx, intendedStart);
  return done.then(() => record);
}
