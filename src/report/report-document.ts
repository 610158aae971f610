/**
 * The report of one job as plain data: `run`, `load` and `capacity` write the same document
 * (one schema, `kind` says which), computed once by `buildReport`, then rendered by every
 * reporter (console, JSON, JUnit, HTML, Markdown). Latencies in ms (3 decimals); histograms in
 * HDR compressed base64 of us values; rates in req/s; shares 0..1.
 */
import type { LatencyMetric, LatencySummary, ThresholdResult } from '../metrics/index.js';
import type { AccuracyReport } from './accuracy.js';
import type { ReportComparison } from './compare-types.js';
import type { ParityReport } from './parity.js';
import type { PassRates } from './pass-rates.js';
import type {
  Accounting,
  AnswerMode,
  ContractNote,
  ContractViolationRecord,
  ExpectationFailure,
  GeneratorVerdict,
  Outcome,
  ReceiverStats,
  RecordError,
  ScenarioTally,
  SendDelaySummary,
  Timeline,
} from './run-types.js';
import type { GradeEntry, JudgeErrorEntry } from '../scenario/index.js';

export const REPORT_VERSION = 1;
export type ReportKind = 'run' | 'load' | 'capacity';

/**
 * One latency metric: its summary (ms) with the spec's limit, the statistic it is judged on and
 * the verdict (absent in older reports); `withinLimit` is false only for a breach.
 */
export type LatencyEntry = LatencySummary & {
  limitMs: number;
  limitStat?: 'p99' | 'max';
  limitVerdict?: 'ok' | 'breach' | 'too-few-samples' | 'no-samples';
  withinLimit: boolean;
  /** `ack` of a remote target: its limit is judged on `ackServer` (the verdict is ackServer's). */
  judgedOn?: 'ackServer';
};

/**
 * A remote target's network round trip (jobs/network.ts): the fastest of `samples` TCP connects,
 * ms. `ackServer` = ack - rttMs; the acknowledgement limit is judged on it.
 */
export interface NetworkSection {
  rttMs: number;
  samples: number;
  method: 'tcp-connect';
}

/** The step of a `steps` scenario that failed (the first one that did not pass). */
export interface FailedStep {
  /** 0-based. */
  index: number;
  kind: string;
  endpoint: string;
}

/** One request record (scenario x mode x repeat) as the report shows it. */
export interface ScenarioEntry {
  suite: string;
  name: string;
  file: string;
  mode: AnswerMode;
  /** 0-based repeat index. */
  repeat?: number;
  outcome: Outcome;
  passed: boolean;
  requestId?: string;
  /** End to end, ms: syncMs (sync) or answerMs (async); a scenario of calls only: the sum of its steps' response times. */
  latencyMs?: number;
  /** Retries of the submit (`--retries`, 429/5xx); absent when none. */
  retries?: number;
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  error?: RecordError;
  /** Graded expectations (`similar`, `judge`) that got no verdict: a judge error, not a failure. */
  judgeErrors?: JudgeErrorEntry[];
  /** Every graded expectation: score 0..1, pass, the judge's reason. */
  grades?: GradeEntry[];
  /** Failed entries: the bot's answer text (the payload's `answer`), at most 2,000 characters. */
  answerText?: string;
  /** Failed `steps` scenarios: the first step that did not pass. */
  failedStep?: FailedStep;
}

export interface ReportSummary {
  /** Requests planned (run) or sent (load, capacity): the outcomes add up to it. */
  requests: number;
  /** Requests sent (every outcome but `not-sent`). Absent in older reports (= requests). */
  sent?: number;
  /** Every outcome name, zeros included; they add up to `requests`. */
  outcomes: Record<Outcome, number>;
  /** Records with a verdict (passed or failed; not `not-sent`, not `interrupted`). */
  scenarios: number;
  passed: number;
  failed: number;
  /** passed / scenarios, 0..1; 1 when no scenario had a verdict. */
  passRate: number;
  /** Records whose graded expectations got no verdict (and nothing else failed); absent: 0. */
  judgeErrors?: number;
  /** Retries of submits (`--retries`, 429/5xx) summed over the records; 0 when none. */
  retries: number;
}

/** `load` and `capacity`: how the traffic was generated. */
export interface LoadSection {
  model: 'open' | 'closed';
  /** Measured requests sent. */
  sent: number;
  warmupSent: number;
  /** Arrivals dropped at the in-flight cap (k6 dropped_iterations). */
  dropped: number;
  /** Measured sending time, ms (after the warm-up). */
  measuredMs: number;
  /** Sent / measured time, req/s. */
  achievedRate: number;
  /** Answered / measured time, req/s. */
  answeredRate: number;
  /** Open model: intended vs actual start, ms, with the HDR histogram. */
  sendDelay?: SendDelaySummary & { histogram: string };
  generator?: GeneratorVerdict;
  /** `--shard i/n`: the execution segment this load was (runner/segments.ts); a merged report: every input's. */
  shards?: string[];
  /** `--start-at`: the instant sending was to start (ISO 8601 UTC). */
  startAt?: string;
  /** `--start-at`: how late the engine started after it, ms (a merged report: the latest shard's). */
  startLagMs?: number;
}

/** One shard's clock skew, measured against Redis TIME (receiver/types.ts ClockSkew), us. */
export interface StreamShardSkew {
  shardId: string;
  /** Redis TIME minus the shard's wall clock, us; known within +- rttUs / 2. */
  redisMinusLocalUs: number;
  rttUs: number;
  /** ISO 8601. */
  measuredAt: string;
  /** Each receiver seen in the stream: its wall clock minus the shard's, us, within +- uncertaintyUs. */
  receivers: { receiverId: string; receiverMinusLocalUs: number; uncertaintyUs: number }[];
}

/**
 * `--deliveries`: the Redis Stream the deliveries were read from (docs/scale.md), and the clock
 * skew measured. Answer latency runs from the shard's submit to the receiver's arrival stamp mapped
 * through Redis TIME, so the skew between machines does not enter it (docs/receiver.md).
 */
export interface StreamSection {
  stream: string;
  /** The Redis URL without its password. */
  redis: string;
  /** One entry per shard (a merged report: every shard's). */
  shards: StreamShardSkew[];
}

/** One measured rate of the capacity search (ms, req/s, counts). */
export interface CapacityPoint {
  /** Intended rate, req/s. */
  rate: number;
  achievedRate: number;
  sent: number;
  dropped: number;
  errors: number;
  /** errors / sent, 0..1. */
  errorRate: number;
  ack: { count: number; p50: number; p99: number };
  answer: { count: number; p50: number; p99: number };
  sync: { count: number; p50: number; p99: number };
  generatorBound: boolean;
  sendDelayP99Ms: number;
  passed: boolean;
  /** Why it failed (empty when passed). */
  reasons: string[];
}

/** `capacity`: the criteria, the rate curve and the verdict. */
export interface CapacitySection {
  /** Highest passing rate measured, req/s; null when none passed. */
  maxRate: number | null;
  /** Lowest failing rate measured, req/s; null when none failed. */
  firstFailingRate: number | null;
  /** The search reached its highest rate and it passed (capacity may be higher). */
  limitedBySearch: boolean;
  /** Some step's generator was bound: its figures are suspect. */
  suspect: boolean;
  criteria: { ackP99Ms: number; answerP99Ms: number | null; maxErrorRate: number };
  /** Points sorted by rate. */
  curve: CapacityPoint[];
}

/** The grader of `similar`/`judge` expectations: settings without the key, calls and tokens. */
export interface JudgeSection {
  settings: Record<string, unknown>;
  usage: { chatCalls: number; embeddingCalls: number; httpRequests: number; promptTokens: number; completionTokens: number; totalTokens: number; cacheHits: number; judgeErrors: number };
}

export interface ReportDocument {
  version: 1;
  tool: 'droidcheck';
  /** Which job wrote it. Absent in older reports (= `run`). */
  kind?: ReportKind;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Settings of the job; never a token or a secret. */
  settings: Record<string, unknown>;
  summary: ReportSummary;
  /** The accounting invariant as checked (docs/architecture.md, Outcomes). */
  accounting?: Accounting;
  /** Remote targets only: the network round trip `ackServer` subtracts. */
  network?: NetworkSection;
  latency: Record<LatencyMetric, LatencyEntry>;
  histograms: Record<LatencyMetric, string>;
  receiver: ReceiverStats;
  thresholds: ThresholdResult[];
  /** One entry per request record (run); empty for load and capacity (see `tallies`). */
  scenarios: ScenarioEntry[];
  /** Per scenario x mode counts with failing examples (load, capacity). */
  tallies?: ScenarioTally[];
  /** Notes on the target's shapes where droidcheck's assumptions are not documented (never findings). */
  notes?: ContractNote[];
  /** Pass rates per scenario x mode and per suite over repeats (pass-rates.ts). */
  passRates?: PassRates;
  /** Sync vs async answers of scenarios run in both modes (parity.ts). */
  parity?: ParityReport;
  /** Intent precision/recall/f1, confusion table, cart/address hit rates (accuracy.ts). */
  accuracy?: AccuracyReport;
  /** Against a baseline report (`--baseline`, compare.ts). */
  comparison?: ReportComparison;
  load?: LoadSection;
  /** Per-interval throughput, in flight and latency (runner/timeline.ts). */
  timeline?: Timeline;
  capacity?: CapacitySection;
  /** LLM-graded matchers: the grader's settings (no key) and its token usage (docs/llm.md). */
  judge?: JudgeSection;
  /** `--deliveries`: the Redis Stream read and the clock skew measured against its receivers. */
  stream?: StreamSection;
  /**
   * 130 interrupted; else 99 a threshold breached (or, capacity, no rate passed); else 1 a
   * scenario missed its pass-rate requirement or the comparison with a baseline regressed; else 0.
   */
  exitCode: number;
}
