/**
 * Closed-model run of suites: scenario x mode x repeat, at most `concurrency` requests in flight
 * (p-limit). Streams each record to `onResult` as it ends and returns the whole `RunResult`.
 */
import pLimit from 'p-limit';
import type { DroidClient } from '../client/index.js';
import type { RetryPolicy } from '../client/retry.js';
import { AbortedError, InternalError } from '../errors.js';
import { LatencyRecorder } from '../metrics/index.js';
import type { Receiver, ReceiverStats } from '../receiver/index.js';
import type { Suite } from '../scenario/index.js';
import { systemClock, type Clock } from './clock.js';
import { executeRequest, newRecord, type ExecuteContext } from './execute.js';
import { planRequests, type ModeOverride, type PlannedRequest } from './plan.js';
import type { RequestRecord, RunResult } from './types.js';

export interface RunSuitesOptions {
  suites: readonly Suite[];
  client: DroidClient;
  /** Required when any request is async. */
  receiver?: Receiver;
  /** Overrides the scenarios' own modes. */
  mode?: ModeOverride;
  /** Requests in flight at most (closed model). Default 8. */
  concurrency?: number;
  /** Deadline per request, ms (spec: Limits, 180 s). Default 180_000. */
  timeoutMs?: number;
  clock?: Clock;
  /** When aborted: no new requests are sent; the rest end `interrupted`. */
  stopSignal?: AbortSignal;
  /** When aborted: in-flight requests are cancelled and end `interrupted`. */
  abortSignal?: AbortSignal;
  /** Called once per record as it ends (streaming reporters, NDJSON). */
  onResult?: (record: RequestRecord) => void | Promise<void>;
  /** Echoed into the result; must not hold the token or secret. */
  settings?: Record<string, unknown>;
  /** Opt-in retry of 429/5xx on the answer submit (client/retry.ts). */
  retry?: RetryPolicy | undefined;
}

const EMPTY_RECEIVER: ReceiverStats = { received: 0, matched: 0, duplicates: 0, late: 0, orphans: 0, foreign: 0, badSecret: 0, malformed: 0, published: 0, unavailable: 0 };

function notSent(planned: PlannedRequest, clock: Clock): RequestRecord {
  const record = newRecord(planned, clock.wallNow().toISOString());
  record.error = { code: AbortedError.code, message: 'run interrupted before the request was sent' };
  return record;
}

/**
 * Runs every planned request once. Errors of the target become outcomes; this throws only
 * `InternalError` (DROIDCHECK_ERR_INTERNAL) when the accounting invariant breaks.
 */
export async function runSuites(options: RunSuitesOptions): Promise<RunResult> {
  const clock = options.clock ?? systemClock;
  const plan = planRequests(options.suites, options.mode);
  if (!options.receiver && plan.some((p) => p.mode === 'async')) {
    throw new InternalError('runSuites: async requests need a receiver');
  }
  const latency = new LatencyRecorder();
  const ctx: ExecuteContext = {
    client: options.client,
    receiver: options.receiver,
    clock,
    timeoutMs: options.timeoutMs ?? 180_000,
    latency,
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
  };
  const startedAt = clock.wallNow();
  const t0 = clock.now();
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  const records: RequestRecord[] = new Array(plan.length);

  await Promise.all(
    plan.map((planned) =>
      limit(async () => {
        const record = options.stopSignal?.aborted ? notSent(planned, clock) : await executeRequest(planned, ctx);
        records[planned.seq] = record;
        await options.onResult?.(record);
      }),
    ),
  );

  const done = records.filter((r) => r !== undefined);
  if (done.length !== plan.length) {
    throw new InternalError(`accounting: ${plan.length} requests planned but ${done.length} ended with an outcome`);
  }
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: clock.wallNow().toISOString(),
    durationMs: clock.now() - t0,
    settings: options.settings ?? {},
    records,
    latency,
    receiver: options.receiver ? options.receiver.stats() : { ...EMPTY_RECEIVER },
    interrupted: Boolean(options.stopSignal?.aborted || options.abortSignal?.aborted),
  };
}
