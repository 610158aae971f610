/**
 * `resolveConfig(command, flags, env, file)`: one resolution for every job (run, load,
 * capacity): what the user gave, from flags, the environment (with `.env` under it, see
 * dotenv.ts), the config file and droidcheck's defaults, in that order of precedence
 * (DESIGN.md, Conventions), into the `ResolvedConfig` the job runs with.
 * Tokens and secrets come from the environment only (`DROID_API_TOKEN`, `DROID_WEBHOOK_SECRET`);
 * each must be at least 8 characters, so redaction by whole tokens is safe.
 * Throws UsageError / ConfigError (exit 2), naming the flag.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, UsageError } from '../errors.js';
import { resolveLlmConfig, type ResolvedLlmConfig } from '../llm/index.js';
import { parseOutputFiles } from '../report/reporter.js';
import { constantRate, parseShard, parseStages, parseWeights, shareOf, type ModeOverride, type Segment, type Shard, type Stage } from '../runner/index.js';
import type { JobFlags, JobKind } from './flags.js';
import { DEFAULT_STREAM, parseChoice, parseDuration, parseGrep, parseInstant, parseInteger, parseNumber, parseRedisUrl, parseShare, parseStreamKey, parseUrl } from './parse.js';

/** Reporters a job uses when none are named: files land in the report directory. */
export const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown', 'ndjson'] as const;

/** Shortest token or secret accepted (issue 11: shorter ones cannot be redacted safely). */
export const MIN_SECRET_CHARS = 8;

export type ResolvedTarget =
  | { kind: 'emulator' }
  | { kind: 'remote'; baseUrl: string; droidId: string; token: string };

export type LoadModel =
  | { kind: 'open'; startRate: number; stages: Stage[] }
  | { kind: 'closed'; concurrency: number; durationMs: number };

export interface ResolvedLoadSettings {
  model: LoadModel;
  warmupMs: number;
  maxInFlight: number;
  maxRequests: number | undefined;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
  /** Progress line interval, ms; 0: none. */
  progressMs: number;
  /** After sending ends, in-flight requests get this long before they are cancelled, ms. */
  drainTimeoutMs: number;
  /**
   * `--shard i/n`: this process's execution segment (runner/segments.ts). The model above is
   * already this shard's part: its arrivals of the stages (open), its virtual users (closed); the
   * request budget and the seed (seed + i - 1) too.
   */
  segment: Segment | undefined;
  /** `--start-at`: the instant sending starts, ISO 8601 UTC; undefined: at once. */
  startAt: string | undefined;
}

/** `--metrics-port`, `--metrics-host`, `--metrics-linger`. */
export interface ResolvedMetrics {
  host: string;
  /** 0: any free port (the URL is logged). */
  port: number;
  /** After the job, the metrics stay served this long, ms. */
  lingerMs: number;
}

/** `--deliveries`: a shard reads its deliveries from the Redis Stream receivers publish to (issue 13). */
export interface ResolvedDeliveries {
  /** May hold a password (from DROIDCHECK_REDIS_URL only): never print it, redactRedisUrl. */
  redisUrl: string;
  stream: string;
}

export interface ResolvedCapacitySettings {
  strategy: 'step' | 'bisect';
  /** req/s */
  startRate: number;
  stepRate: number;
  maxRate: number;
  precision: number | undefined;
  maxSteps: number;
  stepDurationMs: number;
  warmupMs: number;
  /** ms */
  ackP99Ms: number;
  answerP99Ms: number | undefined;
  /** 0..1 */
  maxErrorRate: number;
  maxInFlight: number;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
}

export interface ResolvedConfig {
  command: JobKind;
  paths: string[];
  concurrency: number;
  mode: ModeOverride | undefined;
  reportDir: string;
  timeoutMs: number;
  /** `--message-webhook-check`: the first reply wait's check for any forwarded message, ms (runner/step-waits.ts). */
  messageWebhookCheckMs: number;
  graceMs: number;
  target: ResolvedTarget;
  /** `DROID_WEBHOOK_SECRET`, or a random one for the emulator. Never printed. */
  webhookSecret: string | null;
  /** `DROID_VERIFY_TOKEN` of the message-forwarding webhook (`?verify_token=`), or a random one for the emulator. */
  verifyToken: string | null;
  /** `DROID_INTENT_SECRET`: the intent webhooks' "API Secret Key" (in the body), or a random one for the emulator. */
  intentSecret: string | null;
  receiverHost: string;
  receiverPort: number;
  publicUrl: string | undefined;
  thresholds: string[];
  /** Judge the spec's limits (metrics/thresholds.ts) besides `thresholds`. */
  defaultThresholds: boolean;
  reporters: string[];
  /** True when no reporter was named (the defaults are in use). */
  defaultReporters: boolean;
  tags: string[];
  excludeTags: string[];
  grep: string | RegExp | undefined;
  emulatorThread: 'worker' | 'inline';
  warmUp: boolean;
  retries: number;
  shard: Shard | undefined;
  baseline: string | undefined;
  outputFile: Record<string, string> | undefined;
  failOnFlaky: boolean;
  /**
   * get-droid-answer's humanMessage form: `auto` (object first, the other form once on 400
   * `Invalid humanMessage format`), or forced (spec 8 does not show it; the service's endpoint
   * page says string, the async page an object).
   */
  syncMessage: 'auto' | 'object' | 'string';
  /** The grader of `similar`/`judge` (src/llm); undefined when no model is configured. Holds the API key: never report it (llmSettings). */
  llm: ResolvedLlmConfig | undefined;
  load?: ResolvedLoadSettings;
  capacity?: ResolvedCapacitySettings;
  /** Read deliveries from a Redis Stream instead of starting a receiver; undefined: a receiver of our own. */
  deliveries: ResolvedDeliveries | undefined;
  /** `--metrics-port`: serve Prometheus metrics while the job runs (and `lingerMs` after it); undefined: not served. */
  metrics: ResolvedMetrics | undefined;
}

/** A token or secret from `env[name]` (undefined when unset or empty). Throws ConfigError when shorter than MIN_SECRET_CHARS. */
export function secretFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (value.length < MIN_SECRET_CHARS) {
    throw new ConfigError(`${name} is ${value.length} characters long; use at least ${MIN_SECRET_CHARS} (32 random characters advised: openssl rand -base64 32)`);
  }
  return value;
}

/** Flags > environment > file, for the target (the environment sits between the two). */
function resolveTarget(cli: JobFlags, env: NodeJS.ProcessEnv, file: JobFlags): ResolvedTarget {
  // A droid id is a whole number (spec: the webhook payload's droidId is a number).
  if (cli.droidId !== undefined) parseInteger(cli.droidId, '--droid-id', 1);
  const raw = cli.baseUrl ?? env.DROID_BASE_URL ?? file.baseUrl;
  if (!raw) return { kind: 'emulator' };
  const baseUrl = parseUrl(raw, cli.baseUrl !== undefined ? '--base-url' : env.DROID_BASE_URL !== undefined ? 'DROID_BASE_URL' : 'baseUrl (config file)');
  const droidId = cli.droidId ?? env.DROID_ID ?? file.droidId;
  if (droidId === undefined || String(droidId).trim() === '') throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
  parseInteger(droidId, cli.droidId !== undefined ? '--droid-id' : env.DROID_ID !== undefined ? 'DROID_ID' : 'droidId (config file)', 1);
  const token = secretFrom(env, 'DROID_API_TOKEN');
  if (!token) throw new ConfigError('a real target needs its API token in the environment: export DROID_API_TOKEN=... (or put it in .env; never in a file of the repository or a flag)');
  return { kind: 'remote', baseUrl, droidId: String(droidId), token };
}

/**
 * `--deliveries [url]` and `--stream` (env DROIDCHECK_REDIS_URL, DROIDCHECK_STREAM). A stream
 * needs a real target: the service's answer webhook must point at `droidcheck receive`.
 */
function resolveDeliveries(flags: JobFlags, env: NodeJS.ProcessEnv, target: ResolvedTarget): ResolvedDeliveries | undefined {
  const given = flags.deliveries;
  if (given === undefined || given === false) {
    if (flags.stream !== undefined) throw new UsageError('--stream names the stream of --deliveries: give --deliveries too');
    return undefined;
  }
  let redisUrl: string;
  if (given === true || given === '') {
    const fromEnv = env.DROIDCHECK_REDIS_URL;
    if (!fromEnv) throw new UsageError('--deliveries without a URL reads DROIDCHECK_REDIS_URL, which is not set; export it or write --deliveries redis://host:6379/0');
    redisUrl = parseRedisUrl(fromEnv, 'DROIDCHECK_REDIS_URL', true);
  } else redisUrl = parseRedisUrl(given, '--deliveries');
  if (target.kind === 'emulator') {
    throw new ConfigError(
      '--deliveries reads what `droidcheck receive` publishes for a real target: give --base-url, --droid-id and DROID_API_TOKEN of the service (or of `droidcheck emulate --webhook-url <receiver>`) whose answer webhook points at the receivers',
    );
  }
  for (const [flag, set] of [['--receiver-port', flags.receiverPort], ['--receiver-host', flags.receiverHost], ['--public-url', flags.publicUrl]] as const) {
    if (set !== undefined) throw new UsageError(`${flag} configures a receiver of this process; with --deliveries none is started (the receivers are \`droidcheck receive\`)`);
  }
  const stream = flags.stream ?? env.DROIDCHECK_STREAM ?? DEFAULT_STREAM;
  return { redisUrl, stream: parseStreamKey(stream, flags.stream !== undefined ? '--stream' : env.DROIDCHECK_STREAM !== undefined ? 'DROIDCHECK_STREAM' : 'stream') };
}

/** `--metrics-port` / `--metrics-host` / `--metrics-linger`. */
function resolveMetrics(flags: JobFlags): ResolvedMetrics | undefined {
  if (flags.metricsPort === undefined) {
    if (flags.metricsHost !== undefined || flags.metricsLinger !== undefined) throw new UsageError(`${flags.metricsHost !== undefined ? '--metrics-host' : '--metrics-linger'} needs --metrics-port`);
    return undefined;
  }
  return {
    host: flags.metricsHost ?? '127.0.0.1',
    port: parseInteger(flags.metricsPort, '--metrics-port', 0, 65_535),
    lingerMs: parseDuration(flags.metricsLinger ?? 0, '--metrics-linger'),
  };
}

/** The segment's part of a count (virtual users, a request budget); UsageError when it is none. */
function segmentShare(count: number, segment: Segment | undefined, what: string): number {
  if (!segment) return count;
  const share = shareOf(count, segment);
  if (share === 0) throw new UsageError(`--shard ${segment.index}/${segment.total}: ${what} ${count} leaves this shard nothing; use at most ${count} shards`);
  return share;
}

function resolveLoad(flags: JobFlags, concurrency: number, explicitConcurrency: boolean, timeoutMs: number, segment: Segment | undefined): ResolvedLoadSettings {
  const durationMs = parseDuration(flags.duration ?? '30s', '--duration');
  if (durationMs <= 0) throw new UsageError('--duration: must be > 0, e.g. 30s');
  if (flags.rate !== undefined && flags.stages !== undefined) throw new UsageError('give either --rate (constant arrival rate) or --stages (ramps), not both');
  const open = flags.rate !== undefined || flags.stages !== undefined;
  if (open && explicitConcurrency) throw new UsageError('--concurrency sets the closed model; with --rate or --stages (open model) use --max-in-flight');
  let model: LoadModel;
  if (flags.stages !== undefined) model = { kind: 'open', startRate: parseNumber(flags.startRate ?? 0, '--start-rate', { min: 0, unit: 'req/s' }), stages: parseStages(flags.stages) };
  else if (flags.rate !== undefined) model = { kind: 'open', ...constantRate(parseNumber(flags.rate, '--rate', { min: 0, above: true, unit: 'req/s' }), durationMs) };
  else model = { kind: 'closed', concurrency: segmentShare(concurrency, segment, '--concurrency'), durationMs };
  const maxRequests = flags.maxRequests === undefined ? undefined : segmentShare(parseInteger(flags.maxRequests, '--max-requests', 1), segment, '--max-requests');
  const seed = parseInteger(flags.seed ?? 1, '--seed', 0, 2 ** 32 - 1);
  return {
    model,
    warmupMs: parseDuration(flags.warmup ?? 0, '--warmup'),
    maxInFlight: parseInteger(flags.maxInFlight ?? 100_000, '--max-in-flight', 1),
    maxRequests,
    weights: parseWeights(flags.weights ?? []),
    // Each shard draws its own mix (the same seed would send the same sequence n times).
    seed: segment ? (seed + segment.index - 1) % 2 ** 32 : seed,
    ackOnly: flags.ackOnly ?? false,
    progressMs: parseDuration(flags.progress ?? '5s', '--progress'),
    drainTimeoutMs: timeoutMs + 5_000,
    segment,
    startAt: flags.startAt === undefined ? undefined : parseInstant(flags.startAt, '--start-at'),
  };
}

function resolveCapacity(flags: JobFlags): ResolvedCapacitySettings {
  const rate = (v: number | string | undefined, fallback: number, flag: string): number => parseNumber(v ?? fallback, flag, { min: 0, above: true, unit: 'req/s' });
  const startRate = rate(flags.startRate, 50, '--start-rate');
  const maxRate = rate(flags.maxRate, 2000, '--max-rate');
  if (maxRate < startRate) throw new UsageError(`--max-rate (${maxRate} req/s) must be >= --start-rate (${startRate} req/s)`);
  return {
    strategy: parseChoice(flags.strategy ?? 'step', '--strategy', ['step', 'bisect'] as const),
    startRate,
    stepRate: rate(flags.step, startRate, '--step'),
    maxRate,
    precision: flags.precision === undefined ? undefined : rate(flags.precision, 1, '--precision'),
    maxSteps: parseInteger(flags.maxSteps ?? 20, '--max-steps', 1, 1000),
    stepDurationMs: parseDuration(flags.stepDuration ?? '10s', '--step-duration'),
    warmupMs: parseDuration(flags.warmup ?? '2s', '--warmup'),
    ackP99Ms: parseDuration(flags.ackP99 ?? '100ms', '--ack-p99'),
    answerP99Ms: flags.answerP99 === undefined ? undefined : parseDuration(flags.answerP99, '--answer-p99'),
    maxErrorRate: parseShare(flags.maxErrorRate ?? '1%', '--max-error-rate'),
    maxInFlight: parseInteger(flags.maxInFlight ?? 100_000, '--max-in-flight', 1),
    weights: parseWeights(flags.weights ?? []),
    seed: parseInteger(flags.seed ?? 1, '--seed', 0, 2 ** 32 - 1),
    ackOnly: flags.ackOnly ?? false,
  };
}

/**
 * Resolves `cli` (what the user typed) over `file` (the config file's flags for this command,
 * config/file.ts `fileFlags`) against `env` (the environment with `.env` under it).
 */
export function resolveConfig(command: JobKind, cli: JobFlags, env: NodeJS.ProcessEnv = process.env, file: JobFlags = {}): ResolvedConfig {
  const flags: JobFlags = { ...file };
  for (const [k, v] of Object.entries(cli)) if (v !== undefined) (flags as Record<string, unknown>)[k] = v;
  const target = resolveTarget(cli, env, file);
  const generated = (): string | null => (target.kind === 'emulator' ? randomBytes(24).toString('base64url') : null);
  const webhookSecret = secretFrom(env, 'DROID_WEBHOOK_SECRET') ?? generated();
  const verifyToken = secretFrom(env, 'DROID_VERIFY_TOKEN') ?? generated();
  const intentSecret = secretFrom(env, 'DROID_INTENT_SECRET') ?? generated();
  const reporters = flags.reporters && flags.reporters.length > 0 ? flags.reporters : [...DEFAULT_REPORTERS];
  const timeoutMs = parseDuration(flags.timeout ?? '180s', '--timeout');
  if (timeoutMs <= 0) throw new UsageError('--timeout: must be > 0, e.g. 180s');
  const messageWebhookCheckMs = parseDuration(flags.messageWebhookCheck ?? '15s', '--message-webhook-check');
  if (messageWebhookCheckMs <= 0) throw new UsageError('--message-webhook-check: must be > 0, e.g. 15s');
  const concurrency = parseInteger(flags.concurrency ?? 8, '--concurrency', 1, 100_000);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.startAt !== undefined && command !== 'load') throw new UsageError('--start-at is an option of load');
  const config: ResolvedConfig = {
    command,
    paths: flags.paths && flags.paths.length > 0 ? flags.paths : ['scenarios'],
    concurrency,
    mode: flags.mode === undefined ? undefined : parseChoice(flags.mode, '--mode', ['sync', 'async', 'both'] as const),
    reportDir: flags.reportDir ?? 'reports',
    timeoutMs,
    messageWebhookCheckMs,
    graceMs: parseDuration(flags.grace ?? '5s', '--grace'),
    target,
    webhookSecret,
    verifyToken,
    intentSecret,
    receiverHost: flags.receiverHost ?? '127.0.0.1',
    receiverPort: parseInteger(flags.receiverPort ?? 0, '--receiver-port', 0, 65_535),
    publicUrl: flags.publicUrl === undefined ? undefined : parseUrl(flags.publicUrl, '--public-url'),
    thresholds: flags.thresholds ?? [],
    defaultThresholds: flags.defaultThresholds ?? true,
    reporters,
    defaultReporters: !(flags.reporters && flags.reporters.length > 0),
    tags: flags.tags ?? [],
    excludeTags: flags.excludeTags ?? [],
    grep: parseGrep(flags.grep),
    emulatorThread: flags.emulatorThread ?? 'worker',
    warmUp: flags.warmUp ?? true,
    retries: parseInteger(flags.retries ?? 0, '--retries', 0, 10),
    shard,
    baseline: flags.baseline,
    outputFile: flags.outputFiles && flags.outputFiles.length > 0 ? parseOutputFiles(flags.outputFiles) : undefined,
    failOnFlaky: flags.failOnFlaky ?? false,
    syncMessage: parseChoice(flags.syncMessage ?? 'auto', '--sync-message', ['auto', 'object', 'string'] as const),
    llm: resolveLlmConfig({ ...(cli.judgeModel !== undefined && { judgeModel: cli.judgeModel }), ...(cli.embeddingModel !== undefined && { embeddingModel: cli.embeddingModel }), ...(cli.cache === false && { cache: false }) }, env, file.judge),
    deliveries: resolveDeliveries(flags, env, target),
    metrics: resolveMetrics(flags),
  };
  // load: --shard splits the arrivals (execution segments), every shard runs every scenario.
  if (command === 'load') config.load = resolveLoad(flags, concurrency, flags.concurrency !== undefined, timeoutMs, shard);
  if (command === 'capacity') config.capacity = resolveCapacity(flags);
  return config;
}
