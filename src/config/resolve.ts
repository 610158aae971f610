/**
 * `resolveConfig(command, flags, env, file)`: one resolution for every job (run, load,
 * capacity): what the user gave, from flags, the environment (with `.env` under it, see
 * dotenv.ts), the config file and droidcheck's defaults, in that order of precedence
 * (docs/architecture.md, Conventions), into the `ResolvedConfig` the job runs with.
 * Tokens and secrets come from the environment only (`DROID_API_TOKEN`, `DROID_WEBHOOK_SECRET`);
 * each must be at least 8 characters, so redaction by whole tokens is safe.
 * Throws UsageError / ConfigError (exit 2), naming the flag.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, UsageError } from '../errors.js';
import { resolveLlmConfig, type ResolvedLlmConfig } from '../llm/index.js';
import { constantRate, shareOf, type ModeOverride, type Segment, type Shard, type Stage } from '../runner/index.js';
import type { JobFlags, JobKind } from './flags.js';
import { defaultInFlightCap } from './in-flight.js';
import { flagName, OPTIONS, type OptionKey, type OptionSpec } from './options.js';
import { MIN_SECRET_CHARS, parseRedisUrl, parseStreamKey } from './parse.js';
import { redteamOptions, resolveRedteam, type ResolvedRedteamSettings } from './redteam.js';
import { resolveOptions, type ResolvedOptions } from './values.js';

/** Reporters a job uses when none are named: files land in the report directory. */
const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown', 'ndjson'] as const;

export { MIN_SECRET_CHARS } from './parse.js';

type ResolvedTarget = { kind: 'emulator' } | { kind: 'remote'; baseUrl: string; droidId: string; token: string };

type LoadModel =
  | { kind: 'open'; startRate: number; stages: Stage[] }
  | { kind: 'closed'; concurrency: number; durationMs: number };

export interface ResolvedLoadSettings {
  model: LoadModel;
  warmupMs: number;
  /** Open model: arrivals beyond this many in flight are dropped and counted. */
  maxInFlight: number;
  /** True when `maxInFlight` was derived from the load asked (in-flight.ts), not given. */
  maxInFlightDerived: boolean;
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

/** `--deliveries`: a shard reads its deliveries from the Redis Stream receivers publish to. */
interface ResolvedDeliveries {
  /** May hold a password (from DROIDCHECK_REDIS_URL only): never print it, redactRedisUrl. */
  redisUrl: string;
  stream: string;
}

interface ResolvedCapacitySettings {
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
  /** True when `maxInFlight` was derived from `--max-rate` and the timeout (in-flight.ts). */
  maxInFlightDerived: boolean;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
}

/** What every job's configuration holds; each command adds its own part (RunConfig, LoadConfig, CapacityConfig). */
interface BaseConfig {
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
  /** Honour `think:` pauses in conversations (`--no-think`: skip them). */
  think: boolean;
  retries: number;
  shard: Shard | undefined;
  baseline: string | undefined;
  outputFile: Record<string, string> | undefined;
  /** `--verbose`: the console lists every request and draws every section in full (report/console.ts). */
  verbose: boolean;
  failOnFlaky: boolean;
  /**
   * get-droid-answer's humanMessage form: `auto` (object first, the other form once on 400
   * `Invalid humanMessage format`), or forced (the service reference does not settle which form
   * the sync endpoint takes: its endpoint page says string, the async page an object).
   */
  syncMessage: 'auto' | 'object' | 'string';
  /** The grader of `similar`/`judge` (src/llm); undefined when no model is configured. Holds the API key: never report it (llmSettings). */
  llm: ResolvedLlmConfig | undefined;
  /** Read deliveries from a Redis Stream instead of starting a receiver; undefined: a receiver of our own. */
  deliveries: ResolvedDeliveries | undefined;
  /** `--metrics-port`: serve Prometheus metrics while the job runs (and `lingerMs` after it); undefined: not served. */
  metrics: ResolvedMetrics | undefined;
}

export interface RunConfig extends BaseConfig {
  command: 'run';
}
export interface LoadConfig extends BaseConfig {
  command: 'load';
  load: ResolvedLoadSettings;
}
export interface CapacityConfig extends BaseConfig {
  command: 'capacity';
  capacity: ResolvedCapacitySettings;
}
export interface RedteamConfig extends BaseConfig {
  command: 'redteam';
  redteam: ResolvedRedteamSettings;
}
/** The configuration of one job, typed by its command: `load` always has its load settings. */
export type ResolvedConfig = RunConfig | LoadConfig | CapacityConfig | RedteamConfig;
/** The configuration of `command`. */
export type ConfigOf<K extends JobKind> = Extract<ResolvedConfig, { command: K }>;

/** A token or secret from `env[name]` (undefined when unset or empty). Throws ConfigError when shorter than MIN_SECRET_CHARS. */
export function secretFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (value.length < MIN_SECRET_CHARS) {
    throw new ConfigError(
      `${name} is ${value.length} characters long; use at least ${MIN_SECRET_CHARS} (32 random characters advised: openssl rand -base64 32)`,
    );
  }
  return value;
}

/** Environment > file, for the target (flags above both); ConfigError for a real target without a droid id or token. */
function resolveTarget(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedTarget {
  const { baseUrl, droidId } = o.values;
  if (baseUrl === undefined) return { kind: 'emulator' };
  if (droidId === undefined)
    throw new ConfigError(
      `a real target needs a droid id: pass --droid-id N or set DROID_ID (the target is ${o.name('baseUrl')})`,
    );
  const token = secretFrom(env, 'DROID_API_TOKEN');
  if (!token)
    throw new ConfigError(
      'a real target needs its API token in the environment: export DROID_API_TOKEN=... (or put it in .env; never in a file of the repository or a flag)',
    );
  return { kind: 'remote', baseUrl, droidId, token };
}

/**
 * `--deliveries [url]` and `--stream` (env DROIDCHECK_REDIS_URL, DROIDCHECK_STREAM). A stream
 * needs a real target: the service's answer webhook must point at `droidcheck receive`.
 */
function resolveDeliveries(
  o: ResolvedOptions,
  env: NodeJS.ProcessEnv,
  target: ResolvedTarget,
): ResolvedDeliveries | undefined {
  const given = o.values.deliveries;
  if (given === undefined || given === false) {
    if (o.sources.stream?.kind === 'flag')
      throw new UsageError('--stream names the stream of --deliveries: give --deliveries too');
    return undefined;
  }
  let redisUrl: string;
  if (given === true || given === '') {
    const fromEnv = env.DROIDCHECK_REDIS_URL;
    if (!fromEnv)
      throw new UsageError(
        '--deliveries without a URL reads DROIDCHECK_REDIS_URL, which is not set; export it or write --deliveries redis://host:6379/0',
      );
    redisUrl = parseRedisUrl(fromEnv, 'DROIDCHECK_REDIS_URL', true);
  } else redisUrl = parseRedisUrl(given, '--deliveries');
  if (target.kind === 'emulator') {
    throw new ConfigError(
      '--deliveries reads what `droidcheck receive` publishes for a real target: give --base-url, --droid-id and DROID_API_TOKEN of the service (or of `droidcheck emulate --webhook-url <receiver>`) whose answer webhook points at the receivers',
    );
  }
  for (const key of ['receiverPort', 'receiverHost', 'publicUrl'] as const) {
    if (o.given(key))
      throw new UsageError(
        `${o.name(key)} configures a receiver of this process; with --deliveries none is started (the receivers are \`droidcheck receive\`)`,
      );
  }
  return { redisUrl, stream: parseStreamKey(o.values.stream, o.name('stream')) };
}

/** `--metrics-port` / `--metrics-host` / `--metrics-linger`. */
function resolveMetrics(o: ResolvedOptions): ResolvedMetrics | undefined {
  const { metricsPort, metricsHost, metricsLinger } = o.values;
  if (metricsPort === undefined) {
    const other = (['metricsHost', 'metricsLinger'] as const).find((k) => o.given(k));
    if (other) throw new UsageError(`${o.name(other)} needs --metrics-port`);
    return undefined;
  }
  return { host: metricsHost, port: metricsPort, lingerMs: metricsLinger };
}

/** The segment's part of a count (virtual users, a request budget); UsageError when it is none. */
function segmentShare(count: number, segment: Segment | undefined, what: string): number {
  if (!segment) return count;
  const share = shareOf(count, segment);
  if (share === 0)
    throw new UsageError(
      `--shard ${segment.index}/${segment.total}: ${what} ${count} leaves this shard nothing; use at most ${count} shards`,
    );
  return share;
}

/**
 * The load model from whichever source says most: a flag beats the file, so `--rate` or
 * `--stages` on the command line replace a `load.concurrency` of the config file (and `-c`
 * replaces a file's `load.rate`). Two models, or --rate and --stages, from one level are a
 * mistake, reported with where each came from (the file's keys at their line:col).
 */
function loadModel(o: ResolvedOptions, durationMs: number, segment: Segment | undefined): LoadModel {
  const level = (k: OptionKey): number => (o.given(k) ? o.sources[k]!.level : 0);
  const [rate, stages, closed] = [level('rate'), level('stages'), level('concurrency')];
  if (rate > 0 && rate === stages)
    throw new UsageError(
      `give either ${o.name('rate')} (constant arrival rate) or ${o.name('stages')} (ramps), not both`,
    );
  const open = Math.max(rate, stages);
  if (open > 0 && open === closed) {
    const openName = o.name(rate >= stages ? 'rate' : 'stages');
    throw new UsageError(
      `${o.name('concurrency')} sets the closed model and ${openName} the open model: keep one (with the open model, cap requests in flight with --max-in-flight)`,
    );
  }
  const { values: v } = o;
  if (open > closed && stages > rate) return { kind: 'open', startRate: v.startRate, stages: v.stages! };
  if (open > closed) return { kind: 'open', ...constantRate(v.rate!, durationMs) };
  return { kind: 'closed', concurrency: segmentShare(v.concurrency, segment, '--concurrency'), durationMs };
}

/** Highest arrival rate of a model, req/s (0 for the closed model). */
const peakRate = (m: LoadModel): number =>
  m.kind === 'open' ? Math.max(m.startRate, ...m.stages.map((s) => s.target)) : 0;

function resolveLoad(o: ResolvedOptions, timeoutMs: number, segment: Segment | undefined): ResolvedLoadSettings {
  const v = o.values;
  const model = loadModel(o, v.duration, segment);
  const maxRequests = v.maxRequests === undefined ? undefined : segmentShare(v.maxRequests, segment, '--max-requests');
  // This shard sends its share of the arrivals: its cap is its share of the in-flight requests.
  const share = segment ? segment.total : 1;
  return {
    model,
    warmupMs: v.warmup,
    maxInFlight: v.maxInFlight ?? defaultInFlightCap(peakRate(model) / share, timeoutMs),
    maxInFlightDerived: v.maxInFlight === undefined,
    maxRequests,
    weights: v.weights,
    // Each shard draws its own mix (the same seed would send the same sequence n times).
    seed: segment ? (v.seed + segment.index - 1) % 2 ** 32 : v.seed,
    ackOnly: v.ackOnly,
    progressMs: v.progress,
    drainTimeoutMs: timeoutMs + 5_000,
    segment,
    startAt: v.startAt,
  };
}

function resolveCapacity(o: ResolvedOptions, timeoutMs: number): ResolvedCapacitySettings {
  const v = o.values;
  if (v.maxRate < v.startRate)
    throw new UsageError(
      `${o.name('maxRate')} (${v.maxRate} req/s) must be >= ${o.name('startRate')} (${v.startRate} req/s)`,
    );
  return {
    strategy: v.strategy,
    startRate: v.startRate,
    stepRate: v.step ?? v.startRate,
    maxRate: v.maxRate,
    precision: v.precision,
    maxSteps: v.maxSteps,
    stepDurationMs: v.stepDuration,
    warmupMs: v.warmup,
    ackP99Ms: v.ackP99,
    answerP99Ms: v.answerP99,
    maxErrorRate: v.maxErrorRate,
    maxInFlight: v.maxInFlight ?? defaultInFlightCap(v.maxRate, timeoutMs),
    maxInFlightDerived: v.maxInFlight === undefined,
    weights: v.weights,
    seed: v.seed,
    ackOnly: v.ackOnly,
  };
}

/**
 * A table option given for a command it does not belong to: names the commands that have it
 * (`--rate is an option of droidcheck load`), derived from the table.
 */
export function notAnOptionOf(command: string, key: OptionKey): string {
  const o = OPTIONS[key] as OptionSpec;
  return `${flagName(key)} is an option of ${o.commands.map((c) => `\`droidcheck ${c}\``).join(' and ')}, not of \`droidcheck ${command}\``;
}

function checkBelongs(command: JobKind, cli: JobFlags): void {
  for (const key of Object.keys(cli)) {
    if (!Object.hasOwn(OPTIONS, key) || (cli as Record<string, unknown>)[key] === undefined) continue;
    if (!(OPTIONS[key as OptionKey] as OptionSpec).commands.includes(command))
      throw new UsageError(notAnOptionOf(command, key as OptionKey));
  }
}

function resolveBase(
  command: JobKind,
  o: ResolvedOptions,
  cli: JobFlags,
  env: NodeJS.ProcessEnv,
  file: JobFlags,
): BaseConfig {
  const v = o.values;
  const target = resolveTarget(o, env);
  const generated = (): string | null => (target.kind === 'emulator' ? randomBytes(24).toString('base64url') : null);
  return {
    command,
    paths: v.paths.length > 0 ? v.paths : ['scenarios'],
    concurrency: v.concurrency ?? 8,
    mode: v.mode,
    reportDir: v.reportDir,
    timeoutMs: v.timeout,
    messageWebhookCheckMs: v.messageWebhookCheck,
    graceMs: v.grace,
    target,
    webhookSecret: secretFrom(env, 'DROID_WEBHOOK_SECRET') ?? generated(),
    verifyToken: secretFrom(env, 'DROID_VERIFY_TOKEN') ?? generated(),
    intentSecret: secretFrom(env, 'DROID_INTENT_SECRET') ?? generated(),
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    thresholds: v.thresholds,
    defaultThresholds: v.defaultThresholds,
    reporters: v.reporters.length > 0 ? v.reporters : [...DEFAULT_REPORTERS],
    defaultReporters: v.reporters.length === 0,
    tags: v.tags,
    excludeTags: v.excludeTags,
    grep: v.grep,
    emulatorThread: cli.emulatorThread ?? file.emulatorThread ?? 'worker',
    warmUp: v.warmUp,
    think: v.think,
    retries: v.retries,
    shard: v.shard,
    baseline: v.baseline,
    outputFile: Object.keys(v.outputFiles).length > 0 ? v.outputFiles : undefined,
    verbose: v.verbose ?? false,
    failOnFlaky: v.failOnFlaky ?? false,
    syncMessage: v.syncMessage,
    llm: resolveLlmConfig(
      {
        ...(v.judgeModel !== undefined && { judgeModel: v.judgeModel }),
        ...(v.simulatorModel !== undefined && { simulatorModel: v.simulatorModel }),
        ...(v.embeddingModel !== undefined && { embeddingModel: v.embeddingModel }),
        ...(!v.cache && { cache: false }),
      },
      env,
      file.judge,
    ),
    deliveries: resolveDeliveries(o, env, target),
    metrics: resolveMetrics(o),
  };
}

/**
 * Resolves `cli` (what the user typed, `JobFlags` names) over `file` (the config file's flags
 * for this command, file.ts `fileFlags`) against `env` (the environment with `.env` under it),
 * every option through the table (options.ts, values.ts). The result is typed by `command`:
 * `resolveConfig('load', ...)` has its `load` settings.
 * Throws UsageError / ConfigError (exit 2) naming the flag, the variable or the file's key at
 * its line:col; ConfigFileError for a file value its parser refuses.
 */
export function resolveConfig<K extends JobKind>(
  command: K,
  cli: JobFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ConfigOf<K> {
  checkBelongs(command, cli);
  const o = command === 'redteam' ? redteamOptions(cli, env, file) : resolveOptions(command, cli, env, file);
  const base = resolveBase(command, o, cli, env, file);
  // load: --shard splits the arrivals (execution segments), every shard runs every scenario.
  if (command === 'load')
    return { ...base, command: 'load', load: resolveLoad(o, base.timeoutMs, base.shard) } as ConfigOf<K>;
  if (command === 'capacity')
    return { ...base, command: 'capacity', capacity: resolveCapacity(o, base.timeoutMs) } as ConfigOf<K>;
  if (command === 'redteam') return { ...base, command: 'redteam', redteam: resolveRedteam(o) } as ConfigOf<K>;
  return { ...base, command: 'run' } as ConfigOf<K>;
}
