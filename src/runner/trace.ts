/**
 * Trace context of a job's requests (docs/telemetry.md): each planned request is a conversation
 * with a trace of its own (W3C Trace Context: a 16-byte trace id), and every call it makes to the
 * service carries a `traceparent` header naming that trace and the call, so a service that traces
 * joins droidcheck's trace (W3C Trace Context, section 3.2). `--no-trace-context` sends none.
 *
 * The engine talks to a `RequestTracer` through this port only. Two implement it:
 * - `headerTracer()` (here): ids and headers only, nothing recorded, no OpenTelemetry package
 *   loaded (export off: a random trace id per conversation, a random parent id per call, the
 *   sampled flag clear because nothing is recorded);
 * - src/telemetry's span tracer (loaded only when export is on): the same calls become spans.
 *
 * A conversation's trace is found from its record, and an answer turn's from the turn's record
 * (WeakMaps, so the record keeps its shape and nothing of the trace reaches a report but
 * `traceId`): the model calls grading a turn's answer hang under that turn, even when the
 * grading comes after the turn ended (a `say` step's expectations). Export off, the record's
 * `traceId` is the whole trace: a load holds a conversation per pending answer, so nothing more
 * is kept for it (its header trace is made again, for nothing, where a call needs its headers).
 */
import { randomFillSync } from 'node:crypto';
import type { TraceHeaders } from '../client/index.js';
import type { AnswerMode } from '../scenario/index.js';
import type { RequestRecord } from './types.js';

/** One call to the service: the headers it carries, then how it ended. */
export interface CallTrace {
  readonly headers: TraceHeaders;
  /** The call ended: its HTTP status (undefined: no HTTP answer) and, when it failed, the error's code. */
  end(status: number | undefined, errorCode?: string): void;
}

/**
 * One answer turn of a conversation: from its submit to the webhook's arrival, or to the sync
 * response. Several may be open at once (a burst's messages are in flight together). Model calls
 * that grade its answer take `modelScope` as their parent.
 */
export interface TurnTrace {
  /** What a model call grading this turn's answer passes its observer (opaque here). */
  readonly modelScope: unknown;
  /** A call to `endpoint` (spec name) begins now, under this turn. */
  call(endpoint: string, method: 'GET' | 'POST', path: string): CallTrace;
  /** The asynchronous submit was acknowledged with `requestId`: the wait for its webhook begins. */
  acknowledged(requestId: string): void;
  /** The webhook arrived at `receivedAtMs` (clock ms): `answered` or `failed` (the error payload). */
  delivered(receivedAtMs: number, kind: 'answered' | 'failed'): void;
  /** The turn ended; `turn` is its record (outcome, requestId, error, failures). */
  end(turn: RequestRecord): void;
}

/**
 * One conversation's trace: its answer turns (each a TurnTrace), and the calls made in it outside
 * any turn (a step's call). Model calls made for the conversation as a whole (a simulated
 * customer's lines) take `modelScope` as their parent; those that grade a turn, the turn's.
 */
export interface ConversationTrace {
  /** 32 lowercase hex digits (W3C Trace Context trace-id). */
  readonly traceId: string;
  /** What a model call made for this conversation passes its observer (opaque here). */
  readonly modelScope: unknown;
  /** An answer turn in `mode` begins at `startMs` (clock ms; under the open model the intended start). */
  beginTurn(mode: AnswerMode, startMs: number): TurnTrace;
  /** A call to `endpoint` (spec name) outside any answer turn begins now, under the conversation. */
  call(endpoint: string, method: 'GET' | 'POST', path: string): CallTrace;
}

/** A job's tracer: the trace of each conversation, and what ends it. */
export interface RequestTracer {
  /** A conversation begins at `startMs` (clock ms) for `record` (suite, scenario, seq, mode). */
  conversation(record: RequestRecord, startMs: number): ConversationTrace;
}

const byRecord = new WeakMap<RequestRecord, ConversationTrace>();
/** The answer turn each turn record ran (a plain scenario's record, a say step's or a burst message's own). */
const byTurn = new WeakMap<RequestRecord, TurnTrace>();

/** The trace of the conversation `record` belongs to (undefined: no trace context). */
export function traceOf(record: RequestRecord): ConversationTrace | undefined {
  const trace = byRecord.get(record);
  if (trace !== undefined || record.traceId === undefined) return trace;
  return new HeaderTrace(record.traceId);
}

/** Starts the trace of `record` (its `traceId` set) when the job traces; returns it. */
export function startTrace(
  tracer: RequestTracer | undefined,
  record: RequestRecord,
  startMs: number,
): ConversationTrace | undefined {
  if (!tracer) return undefined;
  const trace = tracer.conversation(record, startMs);
  if (!(trace instanceof HeaderTrace)) byRecord.set(record, trace);
  record.traceId = trace.traceId;
  return trace;
}

/** `turn`, a record of one of `record`'s turns (a say step, a simulated line), shares its trace. */
export function shareTrace(record: RequestRecord, turn: RequestRecord): void {
  const trace = byRecord.get(record);
  if (trace) byRecord.set(turn, trace);
}

/**
 * Begins the answer turn `turn` (a turn's record) runs, in its conversation's trace, and returns
 * it when it records something of its own (its `end` is then due); undefined without trace
 * context, and for a tracer that records nothing per turn (headers only: the conversation is its
 * own turns' trace), so a turn costs no allocation when export is off.
 */
export function beginTurn(turn: RequestRecord, mode: AnswerMode, startMs: number): TurnTrace | undefined {
  const trace = byRecord.get(turn);
  if (!trace) return undefined;
  const t = trace.beginTurn(mode, startMs);
  if (t === (trace as unknown)) return undefined;
  byTurn.set(turn, t);
  return t;
}

/** The answer turn `turn` (a turn's record) ran or runs: its calls, its delivery, the parent of the model calls grading it. */
export function turnTraceOf(turn: RequestRecord): TurnTrace | undefined {
  const t = byTurn.get(turn);
  if (t) return t;
  // A span tracer's conversation outside any turn has none; export off, the header trace is its turns'.
  if (byRecord.has(turn) || turn.traceId === undefined) return undefined;
  return new HeaderTrace(turn.traceId);
}

/** Random bytes drawn 4 KB at a time (as randomUUID does), handed out as hex. */
const POOL = Buffer.allocUnsafe(4096);
let pooled = POOL.length;

/**
 * `bytes` random bytes as lowercase hex, one flat string (a trace id is kept as long as its
 * conversation: joined slices would be a tree of strings, ~250 B, where this is 48 B).
 */
function randomHex(bytes: number): string {
  if (pooled + bytes > POOL.length) {
    randomFillSync(POOL);
    pooled = 0;
  }
  const hex = POOL.toString('hex', pooled, pooled + bytes);
  pooled += bytes;
  return hex;
}

const ZEROS = /^0+$/;

/** 16 random hex digits: a parent id (W3C Trace Context, section 3.2.2.4: never all zeros). */
function randomHex16(): string {
  const hex = randomHex(8);
  return ZEROS.test(hex) ? randomHex16() : hex;
}

/** A trace id: 32 random hex digits (W3C Trace Context level 2: random, never all zeros). */
function randomTraceId(): string {
  const hex = randomHex(16);
  return ZEROS.test(hex) ? randomTraceId() : hex;
}

const NO_END = (): void => {};

/**
 * Export off: headers only (see module docs): its trace id, and a string per call; it is its own
 * turns' trace too (a turn adds nothing to it). Not kept per record: made from `traceId` when asked.
 */
class HeaderTrace implements ConversationTrace, TurnTrace {
  constructor(readonly traceId: string) {}
  get modelScope(): undefined {
    return undefined;
  }
  beginTurn(): TurnTrace {
    return this;
  }
  call(): CallTrace {
    return { headers: { traceparent: `00-${this.traceId}-${randomHex16()}-00` }, end: NO_END };
  }
  acknowledged(): void {}
  delivered(): void {}
  end(): void {}
}

/** A `traceparent` of a trace of its own (one call outside any conversation: a doctor's probe), not sampled. */
export function newTraceparent(): string {
  return `00-${randomTraceId()}-${randomHex16()}-00`;
}

/** The tracer of a job that sends trace context but exports nothing (see module docs). */
export function headerTracer(): RequestTracer {
  return { conversation: () => new HeaderTrace(randomTraceId()) };
}
