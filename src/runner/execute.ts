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
import { startAnswerTurn, type TurnEnd } from './answer-turn.js';
import { NO_FAILURES, NO_VIOLATIONS } from './record-lists.js';
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
  // A plain scenario's record starts with the shared empty lists (record-lists.ts).
  const plain = !scenario.steps && !scenario.simulate;
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
    failures: plain ? NO_FAILURES : [],
    contractViolations: plain ? NO_VIOLATIONS : [],
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

/** Where a started request reports its end (runner/answer-turn.ts TurnEnd): exactly once. */
export type RequestEnd = TurnEnd;

/**
 * Starts one request (or one scenario's steps), filling its record as it goes, and tells `end`
 * when it is over (`failed` only for a throw, a droidcheck bug). Returns the record. When the
 * run was aborted before it started, the record is `not-sent` and `end.ended` is called at once.
 * The engine's hot path: a plain async scenario waiting for its webhook holds its record, its
 * `end` and the receiver's PendingAnswer, nothing else (no promise), and a load run holds
 * ~100,000 of them for up to 180 s.
 */
export function startRequest(
  planned: PlannedRequest,
  ctx: ExecuteContext,
  end: RequestEnd,
  intendedStart?: number,
): RequestRecord {
  const start = intendedStart ?? ctx.clock.now();
  if (ctx.abortSignal?.aborted) {
    const record = notSentRecord(planned, ctx.clock.wallNow().toISOString());
    end.ended(record);
    return record;
  }
  const record = newRecord(planned, ctx.clock.wallNow().toISOString());
  startTrace(ctx.tracer, record, start);
  const { scenario } = planned;
  if (!scenario.simulate && !scenario.steps) {
    startAnswerTurn(planned.mode, scenario, ctx, start, record, end);
    return record;
  }
  const done = scenario.simulate
    ? executeSimulation(planned, ctx, start, record)
    : executeSteps(planned, ctx, start, record);
  done.then(
    () => end.ended(record),
    (err: unknown) => end.failed(err),
  );
  return record;
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
  return new Promise((resolve, reject) => {
    startRequest(planned, ctx, { ended: resolve, failed: reject }, intendedStart);
  });
}
