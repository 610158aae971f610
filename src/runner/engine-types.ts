/**
 * Shapes of the engine (runner/engine.ts): sinks, schedulers, progress snapshots, options and
 * the result. Times in ms on the injected clock, rates in req/s.
 */
import type { Clock } from '../clock.js';
import type { LatencyRecorder } from '../metrics/index.js';
import type { Outcome } from '../outcomes.js';
import type { Stage } from './arrival-schedule.js';
import type { RequestOptions } from './context.js';
import type { Segment } from './segments.js';
import type { SendDelayRecorder } from './send-delay.js';
import type { SetupFailure } from './setup-breaker.js';
import type { RequestSource } from './source.js';
import type { TallySnapshot } from './tally.js';
import type { Timeline } from './timeline.js';
import type { ContractNote, RequestRecord } from './types.js';

/** A consumer of ended records: a reporter's onResult, the NDJSON stream. */
export interface RecordSink {
  /** Called once per ended record, synchronously; `warmup` records count in no figure. */
  onRecord(record: RequestRecord, warmup: boolean): void;
  /** Resolves when the sink can take more; undefined when it can now. */
  drained?(): Promise<void> | undefined;
}

type SchedulerSpec =
  | {
      kind: 'closed';
      /** Requests (or chains) in flight at most. */
      concurrency: number;
      /** Sending stops after this long, ms (load); undefined: when the source is exhausted (run). */
      durationMs?: number | undefined;
      /** At most this many requests, warm-up included. */
      maxRequests?: number | undefined;
    }
  | {
      kind: 'open';
      /** Arrival rate at the start, req/s, then k6-style stages (arrival-schedule.ts). */
      startRate: number;
      stages: readonly Stage[];
      /** Arrivals beyond this many in flight are dropped and counted, never delayed. */
      maxInFlight: number;
      maxRequests?: number | undefined;
      /** `load --shard i/n`: only this execution segment's arrivals of the stages (segments.ts). */
      segment?: Segment | undefined;
    };

/** What a progress display sees every interval (counts; ms; req/s). */
export interface ProgressSnapshot {
  elapsedMs: number;
  /** Requests planned (plan sources). */
  planned: number | undefined;
  /** Requests sent so far (measured and warm-up). */
  sent: number;
  /** Measured records ended so far. */
  ended: number;
  inFlight: number;
  /** Conversations (steps scenarios under load) open now, pauses included; undefined: the run has none. */
  openConversations?: number | undefined;
  dropped: number;
  outcomes: Readonly<Record<Outcome, number>>;
  passed: number;
  failed: number;
  /** Requests started per second over the last interval. */
  rate: number;
  /** Intended arrival rate now (open model), req/s. */
  targetRate: number | undefined;
  /** ack p99 so far, ms, with its count. */
  ack: { count: number; p99Ms: number };
  /**
   * The run's own histograms, live (measured requests only; sendDelay: open model): read-only
   * views for exporters that read them when asked (the Prometheus metrics), never written to.
   */
  histograms?: { latency: LatencyRecorder; sendDelay: SendDelayRecorder | undefined };
}

/** The engine's options: how each request is sent and judged (context.ts RequestOptions), the source, the scheduler and the sinks. */
export interface EngineOptions extends RequestOptions {
  source: RequestSource;
  scheduler: SchedulerSpec;
  clock?: Clock;
  /** Requests started before this (ms from the start) are warm-up. Default 0. */
  warmupMs?: number;
  /** After sending ends (duration or schedule over), in-flight requests get this long, ms. Default timeoutMs + 5 s. */
  drainTimeoutMs?: number;
  /** Keep every record (run: for the per-request report sections). Default false. */
  keepRecords?: boolean;
  sinks?: readonly RecordSink[];
  /** Timeline interval, ms. Default 1000. */
  intervalMs?: number;
  /** Called every interval with a snapshot (progress). */
  onTick?: (snapshot: ProgressSnapshot) => void;
  /** Aborted: send nothing new (first SIGINT). */
  stopSignal?: AbortSignal | undefined;
  /** Stop at the first 3 identical set-up failures (setup-breaker.ts). Default true. */
  setupBreaker?: boolean;
  /**
   * `--first-answer-timeout`, ms: against a remote target, stop the run (exit 2) when this long
   * after the first acknowledgement nothing at all reached the receiver (first-answer.ts).
   * Undefined: only the hint at 15 s.
   */
  firstAnswerTimeoutMs?: number | undefined;
  /** One-line notices of the run (the first-answer hint): the job's log. */
  log?: ((line: string) => void) | undefined;
}

export interface EngineResult {
  model: 'open' | 'closed';
  startedAt: string;
  finishedAt: string;
  /** Start to the last request's end, ms. */
  durationMs: number;
  /** Sending time after the warm-up, ms: the denominator of achieved rates. */
  measuredMs: number;
  planned: number | undefined;
  /** Every record in plan order, `not-sent` ones included, with `keepRecords`; undefined without (they went to the sinks only). */
  records: RequestRecord[] | undefined;
  tally: TallySnapshot;
  latency: LatencyRecorder;
  /** Open model only: intended vs actual start of each measured request. */
  sendDelay: SendDelayRecorder | undefined;
  timeline: Timeline;
  counts: { sent: number; warmupSent: number; dropped: number; notSent: number };
  interrupted: boolean;
  /** Set when every request failed the same set-up way (the job exits 2). */
  setupFailure: SetupFailure | undefined;
  notes: ContractNote[];
}
