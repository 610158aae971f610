/**
 * `runLoadEngine(options)`: one load run over an already opened client and receiver, open or
 * closed model, with live progress. The building block of `runLoad` and of the capacity search.
 */
import type { DroidClient } from '../client/index.js';
import { InternalError } from '../errors.js';
import type { Receiver } from '../receiver/index.js';
import type { Clock } from '../runner/clock.js';
import { ArrivalSchedule } from './arrival-schedule.js';
import { runClosedModel } from './closed-model.js';
import type { LoadModel } from './load-config.js';
import type { ScenarioMix } from './mix.js';
import type { NdjsonWriter } from './ndjson-writer.js';
import { rateAt, startProgress } from './progress.js';
import { runOpenModel } from './open-model.js';
import { createLoadSession, type LoadSession, type ModelResult } from './session.js';

export interface LoadEngineOptions {
  client: DroidClient;
  /** Required when the mix has async entries. */
  receiver?: Receiver | undefined;
  mix: ScenarioMix;
  model: LoadModel;
  /** Deadline per request, ms (spec: Limits, 180 s). */
  timeoutMs: number;
  warmupMs?: number;
  maxInFlight?: number;
  maxRequests?: number | undefined;
  ackOnly?: boolean;
  /** Default timeoutMs + 5 s. */
  drainTimeoutMs?: number;
  writer?: NdjsonWriter | undefined;
  clock?: Clock;
  stopSignal?: AbortSignal | undefined;
  abortSignal?: AbortSignal | undefined;
  /** Progress lines every `intervalMs` (0: none) through `write`. */
  progress?: { intervalMs: number; write: (line: string) => void };
}

export interface LoadEngineResult {
  session: LoadSession;
  model: ModelResult;
}

/** Runs the model to its end. Throws InternalError when async entries have no receiver. */
export async function runLoadEngine(o: LoadEngineOptions): Promise<LoadEngineResult> {
  if (!o.receiver && o.mix.hasAsync() && !o.ackOnly) throw new InternalError('load: async requests need a receiver');
  const session = createLoadSession({
    client: o.client,
    receiver: o.receiver,
    timeoutMs: o.timeoutMs,
    ackOnly: o.ackOnly ?? false,
    writer: o.writer,
    abortSignal: o.abortSignal,
    ...(o.clock ? { clock: o.clock } : {}),
  });
  const drainTimeoutMs = o.drainTimeoutMs ?? o.timeoutMs + 5_000;
  const m = o.model;
  const progress = o.progress
    ? startProgress({
        session,
        intervalMs: o.progress.intervalMs,
        write: o.progress.write,
        ...(m.kind === 'open' ? { targetRate: (t: number) => rateAt(m.startRate, m.stages, t) } : {}),
      })
    : undefined;
  try {
    const common = {
      session,
      mix: o.mix,
      warmupMs: o.warmupMs ?? 0,
      drainTimeoutMs,
      stopSignal: o.stopSignal,
      ...(o.maxRequests !== undefined ? { maxRequests: o.maxRequests } : {}),
    };
    const model =
      m.kind === 'open'
        ? await runOpenModel({ ...common, schedule: new ArrivalSchedule(m.startRate, m.stages), maxInFlight: o.maxInFlight ?? 100_000 })
        : await runClosedModel({ ...common, concurrency: m.concurrency, durationMs: m.durationMs });
    return { session, model };
  } finally {
    progress?.stop();
  }
}
