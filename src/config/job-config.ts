/**
 * The configuration of a job (`run`, `load`, `capacity`, `redteam`, `webhook-policy`): what every job holds
 * (`BaseConfig`: paths, target, secrets, receiver, reporters, thresholds, the judge...) and each
 * command's own part, shaped from the values the one resolution gave (values.ts, through
 * resolve.ts). Tokens and secrets come from the environment only (`DROID_API_TOKEN`,
 * `DROID_WEBHOOK_SECRET`); each must be at least 8 characters, so redaction by whole tokens is
 * safe. Throws UsageError / ConfigError (exit 2), naming the flag.
 */
import { existsSync } from 'node:fs';
import { resolveLlmConfig, type ResolvedBudget, type ResolvedLlmConfig } from '../llm/index.js';
import { DEFAULT_POLICY_FILE } from '../policy/index.js';
import type { ModeOverride, Shard } from '../runner/index.js';
import type { JobFlags, JobKind } from './flags.js';
import {
  resolveCapacity,
  resolveLoad,
  type ResolvedCapacitySettings,
  type ResolvedLoadSettings,
} from './load-config.js';
import { resolveRedteam, type ResolvedRedteamSettings } from './redteam.js';
import {
  deliveriesOf,
  metricsOf,
  secretFrom,
  sharedSecret,
  targetOf,
  type ResolvedDeliveries,
  type ResolvedMetrics,
  type ResolvedTarget,
} from './target.js';
import type { CommandOptions, ResolvedOptions } from './values.js';
import { resolveWebhookPolicy, type ResolvedWebhookPolicySettings } from './webhook-policy-config.js';
import { telemetryOf, type ResolvedTelemetry } from './telemetry.js';

/**
 * The policy file a job reads when none is named: droidcheck.policy.yaml in the working
 * directory (what `droidcheck init` writes), when it is there; none otherwise.
 */
const defaultPolicyFile = (): string | undefined => (existsSync(DEFAULT_POLICY_FILE) ? DEFAULT_POLICY_FILE : undefined);

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
  /** The service's clock further off than this is a warning of the preflight, ms (the table's default of doctor's `--max-clock-skew`). */
  maxClockSkewMs: number;
  /** `--first-answer-timeout`: stop when nothing at all was delivered this long after the first acknowledgement, ms (runner/first-answer.ts). */
  firstAnswerTimeoutMs: number | undefined;
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
  /** `--burst-gap`: send each conversation's consecutive `say` turns as one burst, this far apart (ms; scenario/bursts.ts); undefined: as written. */
  burstGapMs: number | undefined;
  retries: number;
  shard: Shard | undefined;
  baseline: string | undefined;
  /** `--policy FILE` (or `policy:`); undefined: `droidcheck.policy.yaml` in the working directory when present (jobs/pipeline/pipeline.ts). */
  policy: string | undefined;
  outputFile: Record<string, string> | undefined;
  /** `--verbose`: the console lists every request and draws every section in full (report/console.ts). */
  verbose: boolean;
  failOnFlaky: boolean;
  /** `--keep-answers`: report.json keeps every turn's answer, not only each scenario's last (report/sections/answers.ts). */
  keepAnswers: boolean;
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
  /** OpenTelemetry export (`--otlp-endpoint`, OTEL_*: config/telemetry.ts); undefined: off, no OpenTelemetry package loaded. */
  telemetry: ResolvedTelemetry | undefined;
  /** Send W3C Trace Context (`traceparent`) on every call to the service (`--no-trace-context`: false). */
  traceContext: boolean;
  /** `--trace-url`: report.html links each failure to its trace, `{traceId}` replaced. */
  traceUrl: string | undefined;
  /** The budget of model calls and the prices it is counted in (llm/budget.ts). */
  budget: ResolvedBudget;
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
/**
 * `webhook-policy`'s: the target, receiver and report folder of every job (the options it has no
 * use for hold the table's defaults), and its probes.
 */
export interface WebhookPolicyConfig extends BaseConfig {
  command: 'webhook-policy';
  webhookPolicy: ResolvedWebhookPolicySettings;
}
/** Each job command's configuration. */
export interface JobConfigs {
  run: RunConfig;
  load: LoadConfig;
  capacity: CapacityConfig;
  redteam: RedteamConfig;
  'webhook-policy': WebhookPolicyConfig;
}
/** The configuration of one job, typed by its command: `load` always has its load settings. */
export type ResolvedConfig = JobConfigs[JobKind];

/** What the shaping of a command reads besides the resolved values: the environment and the config file's flags. */
export interface ShapeInput {
  env: NodeJS.ProcessEnv;
  file: JobFlags;
}

/** The part every job shares, from resolved values (values.ts): nothing here is a default of its own. */
function jobBase<K extends JobKind>(
  command: K,
  o: ResolvedOptions,
  { env, file }: ShapeInput,
): BaseConfig & { command: K } {
  const v = o.values;
  const target = targetOf(o, env);
  return {
    command,
    paths: v.paths,
    concurrency: v.concurrency,
    mode: v.mode,
    reportDir: v.reportDir,
    timeoutMs: v.timeout,
    messageWebhookCheckMs: v.messageWebhookCheck,
    maxClockSkewMs: v.maxClockSkew,
    firstAnswerTimeoutMs: v.firstAnswerTimeout,
    graceMs: v.grace,
    target,
    webhookSecret: sharedSecret(secretFrom(env, 'DROID_WEBHOOK_SECRET'), target),
    verifyToken: sharedSecret(secretFrom(env, 'DROID_VERIFY_TOKEN'), target),
    intentSecret: sharedSecret(secretFrom(env, 'DROID_INTENT_SECRET'), target),
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    thresholds: v.thresholds,
    defaultThresholds: v.defaultThresholds,
    reporters: v.reporters,
    defaultReporters: !o.given('reporters'),
    tags: v.tags,
    excludeTags: v.excludeTags,
    grep: v.grep,
    emulatorThread: v.emulatorThread,
    warmUp: v.warmUp,
    think: v.think,
    burstGapMs: v.burstGap,
    retries: v.retries,
    shard: v.shard,
    baseline: v.baseline,
    policy: v.policy ?? defaultPolicyFile(),
    outputFile: Object.keys(v.outputFiles).length > 0 ? v.outputFiles : undefined,
    verbose: v.verbose,
    failOnFlaky: v.failOnFlaky,
    keepAnswers: v.keepAnswers,
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
    deliveries: deliveriesOf(o, env, target),
    metrics: metricsOf(o),
    telemetry: telemetryOf(o, env),
    traceContext: v.traceContext,
    traceUrl: v.traceUrl,
    budget: {
      ...(v.maxCost !== undefined && { maxCostUsd: v.maxCost }),
      ...(v.maxTokens !== undefined && { maxTokens: v.maxTokens }),
      ...(v.maxConversationTokens !== undefined && { maxConversationTokens: v.maxConversationTokens }),
      prices: v.modelPrices ?? [],
    },
  };
}

/** Each job command's shaping (resolve.ts's table holds them with the other commands'). */
export const runConfig = (o: ResolvedOptions, input: ShapeInput): RunConfig => jobBase('run', o, input);

export function loadConfig(o: ResolvedOptions, input: ShapeInput): LoadConfig {
  const base = jobBase('load', o, input);
  // --shard splits the arrivals (execution segments): every shard runs every scenario.
  return { ...base, load: resolveLoad(o, base.timeoutMs, base.shard) };
}

export function capacityConfig(o: CommandOptions<'capacity'>, input: ShapeInput): CapacityConfig {
  const base = jobBase('capacity', o, input);
  return { ...base, capacity: resolveCapacity(o, base.timeoutMs) };
}

/** The options a red team has no use for (paths, tags, thresholds...) hold the table's defaults (values.ts). */
export function redteamConfig(o: CommandOptions<'redteam'>, input: ShapeInput): RedteamConfig {
  const base = jobBase('redteam', o, input);
  return { ...base, redteam: resolveRedteam(o, base) };
}

/** Likewise webhook-policy's (its probes are no engine requests: no suite, no threshold, no model). */
export const webhookPolicyConfig = (o: ResolvedOptions, input: ShapeInput): WebhookPolicyConfig => ({
  ...jobBase('webhook-policy', o, input),
  webhookPolicy: resolveWebhookPolicy(o),
});
