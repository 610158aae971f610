/**
 * What a user gives droidcheck's jobs, as flags, in the config file, or through the API
 * (`JobFlags`), before resolution (resolve.ts). Numbers may arrive as strings (flags) or
 * numbers (YAML, API); durations need their unit ("30s", "500ms").
 */

/** Flags every traffic-sending job (run, load, capacity) takes. */
export interface CommonFlags {
  /** Scenario files or directories. Default `scenarios/`. */
  paths?: string[];
  /** Closed model: requests in flight at most. Default 8 (run). */
  concurrency?: number | string;
  /** Override the scenarios' modes: sync, async or both. */
  mode?: string;
  reportDir?: string;
  /** Deadline per request (sync answer or webhook), e.g. "180s". Default 180 s (spec: Limits). */
  timeout?: string | number;
  /** How long the first reply wait waits for any forwarded message before every reply wait fails at once, e.g. "15s". Default 15 s. */
  messageWebhookCheck?: string | number;
  baseUrl?: string;
  droidId?: string | number;
  receiverHost?: string;
  receiverPort?: number | string;
  /** Public URL of the receiver when a tunnel is in front (the URL to configure in the service). */
  publicUrl?: string;
  thresholds?: string[];
  /** Judge the spec's limits by default (`--no-default-thresholds` turns them off). Default true. */
  defaultThresholds?: boolean;
  /** Grace period for in-flight requests after an interrupt, e.g. "5s". */
  grace?: string | number;
  /** Reporter names (console, json, junit, html, markdown, ndjson, progress). Default: all. */
  reporters?: string[];
  tags?: string[];
  /** Leave out scenarios with any of these tags (`--exclude-tag`, repeatable). */
  excludeTags?: string[];
  grep?: string;
  /** Where the embedded emulator runs. Default `worker`. */
  emulatorThread?: 'worker' | 'inline';
  /** Open connections with a read-only call before measuring. Default true. */
  warmUp?: boolean;
  /** Retries of a 429/5xx answer submit, 0..10. Default 0. */
  retries?: number | string;
  /** `i/n`: this machine's shard. */
  shard?: string;
  /** A report.json to compare with (exit 1 on a regression). */
  baseline?: string;
  /** `name=path` per reporter (repeatable). */
  outputFiles?: string[];
  /** Flaky scenarios (passed some repeats, failed others) fail the run. Default false. */
  failOnFlaky?: boolean;
  /** Chat model of `judge` expectations (`--judge-model`; config file `judge.model`). */
  judgeModel?: string;
  /** Embedding model of `similar` expectations (`--embedding-model`; config file `judge.embeddingModel`). */
  embeddingModel?: string;
  /** `false` from `--no-cache`: judge verdicts and embeddings are neither read from nor written to the cache. */
  cache?: boolean;
  /** Form of get-droid-answer's humanMessage: auto (default), object or string (`--sync-message`). */
  syncMessage?: string;
  /** The config file's `judge:` section, as written (validated by src/llm/config.ts). */
  judge?: unknown;
  /**
   * `--deliveries [redis-url]`: read answer, message and intent deliveries from the Redis Stream
   * that `droidcheck receive` fills instead of starting a receiver (issue 13); `true` (the flag
   * without a value): the URL of `DROIDCHECK_REDIS_URL`.
   */
  deliveries?: string | boolean;
  /** Stream key of `--deliveries` (env `DROIDCHECK_STREAM`). Default `droidcheck:deliveries`. */
  stream?: string;
  /** Serve Prometheus metrics on this port while the job runs (0: any free port). */
  metricsPort?: number | string;
  /** Address of the metrics server. Default 127.0.0.1. */
  metricsHost?: string;
  /** After the job, keep serving metrics this long (the last scrape sees the final counts), e.g. "15s". Default 0. */
  metricsLinger?: string | number;
}

/** `droidcheck load`. */
export interface LoadFlags {
  /** Constant arrival rate, req/s (open model). */
  rate?: number | string;
  /** Length of a constant-rate or closed run, e.g. "30s". */
  duration?: string | number;
  /** k6-style stages `10s:100,30s:100,10s:0` (open model). */
  stages?: string;
  /** Rate at the start of the first stage, req/s. Default 0. */
  startRate?: number | string;
  /** Excluded from the figures, from the start. Default 0. */
  warmup?: string | number;
  /** In-flight cap; arrivals beyond it are dropped and counted. */
  maxInFlight?: number | string;
  /** Requests sent at most (warm-up included). */
  maxRequests?: number | string;
  /** `<scenario>=<weight>` items. */
  weights?: string[];
  seed?: number | string;
  ackOnly?: boolean;
  /** Progress line interval on stderr ("0": none). Default 5 s. */
  progress?: string | number;
  /** `--start-at <ISO 8601 time>`: wait until then before sending (coordinated shards). */
  startAt?: string;
}

/** `droidcheck capacity`. */
export interface CapacityFlags {
  strategy?: string;
  startRate?: number | string;
  step?: number | string;
  maxRate?: number | string;
  precision?: number | string;
  maxSteps?: number | string;
  /** Measured length of each rate, e.g. "10s". */
  stepDuration?: string | number;
  warmup?: string | number;
  /** ack p99 limit, e.g. "100ms" (spec: Limits). */
  ackP99?: string | number;
  /** answer p99 limit; not judged when absent. */
  answerP99?: string | number;
  /** Highest accepted error rate, "1%" or 0.01. */
  maxErrorRate?: string | number;
  maxInFlight?: number | string;
  weights?: string[];
  seed?: number | string;
  ackOnly?: boolean;
}

export type JobFlags = CommonFlags & LoadFlags & CapacityFlags;

export type JobKind = 'run' | 'load' | 'capacity';
