/**
 * What the open and the closed model share during one load run: the execution contexts
 * (measured and warm-up), tallies, the send-delay histogram, the NDJSON writer and the
 * run-wide abort. Warm-up requests run with a throwaway LatencyRecorder, so they are excluded
 * from every latency figure (issue 5).
 */
import { setMaxListeners } from 'node:events';
import type { DroidClient } from '../client/index.js';
import { LatencyRecorder } from '../metrics/index.js';
import type { Receiver } from '../receiver/index.js';
import { systemClock, type Clock } from '../runner/clock.js';
import { executeRequest, type ExecuteContext } from '../runner/execute.js';
import type { PlannedRequest } from '../runner/plan.js';
import type { RequestRecord } from '../runner/types.js';
import { executeAckOnly } from './execute-ack.js';
import { LoadStats } from './load-stats.js';
import type { NdjsonWriter } from './ndjson-writer.js';
import { SendDelayRecorder } from './send-delay.js';

export type Executor = (planned: PlannedRequest, ctx: ExecuteContext, intendedStart?: number) => Promise<RequestRecord>;

export interface LoadSessionOptions {
  client: DroidClient;
  receiver?: Receiver | undefined;
  /** Deadline per request (sync answer or webhook), ms from its (intended) start. */
  timeoutMs: number;
  clock?: Clock;
  writer?: NdjsonWriter | undefined;
  /** Async requests end at the acknowledgement. Default false. */
  ackOnly?: boolean;
  /** Aborted: cancel in-flight requests (they end `interrupted`). */
  abortSignal?: AbortSignal | undefined;
}

export interface LoadSession {
  readonly clock: Clock;
  /** Context of measured requests; `ctx.latency` holds the run's figures. */
  readonly ctx: ExecuteContext;
  /** Context of warm-up requests (throwaway latency). */
  readonly warmupCtx: ExecuteContext;
  readonly execute: Executor;
  readonly stats: LoadStats;
  readonly sendDelay: SendDelayRecorder;
  readonly writer: NdjsonWriter | undefined;
  /** Cancels in-flight work (drain deadline passed, or the caller's abortSignal). */
  readonly abort: AbortController;
  /** Counts and streams one ended record. */
  finish(record: RequestRecord, warmup: boolean): boolean;
}

export function createLoadSession(o: LoadSessionOptions): LoadSession {
  const clock = o.clock ?? systemClock;
  const abort = new AbortController();
  // One run-wide signal is shared by every in-flight request (each adds a listener).
  setMaxListeners(0, abort.signal);
  if (o.abortSignal) {
    if (o.abortSignal.aborted) abort.abort();
    else o.abortSignal.addEventListener('abort', () => abort.abort(), { once: true });
  }
  const base = { client: o.client, receiver: o.receiver, clock, timeoutMs: o.timeoutMs, abortSignal: abort.signal };
  const ctx: ExecuteContext = { ...base, latency: new LatencyRecorder() };
  const warmupCtx: ExecuteContext = { ...base, latency: new LatencyRecorder() };
  const stats = new LoadStats();
  const writer = o.writer;
  return {
    clock,
    ctx,
    warmupCtx,
    execute: o.ackOnly ? executeAckOnly : executeRequest,
    stats,
    sendDelay: new SendDelayRecorder(),
    writer,
    abort,
    finish(record, warmup) {
      if (!warmup) stats.add(record);
      return writer ? writer.writeRecord(record, warmup) : true;
    },
  };
}

/** How a model run went (times in ms on the session clock). */
export interface ModelResult {
  model: 'open' | 'closed';
  /** Wall clock at the start. */
  startedAt: Date;
  /** Start to the last request's end, ms. */
  elapsedMs: number;
  /** Start to the last arrival (open) or the last send (closed), ms. */
  generationMs: number;
  /** Measured generation time (after warm-up), ms: the denominator of the achieved rate. */
  measuredMs: number;
  /** Stopped early by the stop signal, or in-flight work cancelled. */
  interrupted: boolean;
}
