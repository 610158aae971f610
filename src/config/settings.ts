/**
 * The settings a report shows (`report.json` `settings`): plain data, never a token, a secret
 * or a value derived from one.
 */
import { llmSettings } from '../llm/index.js';
import { redactRedisUrl } from '../redact.js';
import type { JobKind } from './flags.js';
import type { JobConfigs, ResolvedConfig } from './job-config.js';

/** Each command's own settings, after the ones every job shows: a job command without an entry does not compile. */
const OWN_SETTINGS: { [K in JobKind]: (config: JobConfigs[K]) => Record<string, unknown> } = {
  // The closed model's requests in flight: run's. load keeps its model (closed or open) under `load`.
  run: (config) => ({ concurrency: config.concurrency }),
  load: (config) => ({ load: { ...config.load, maxRequests: config.load.maxRequests ?? null } }),
  capacity: (config) => ({
    capacity: {
      ...config.capacity,
      precision: config.capacity.precision ?? null,
      answerP99Ms: config.capacity.answerP99Ms ?? null,
    },
  }),
  redteam: () => ({}),
  'webhook-policy': (config) => ({
    webhookPolicy: { probes: config.webhookPolicy.probes, quietMs: config.webhookPolicy.quietMs },
  }),
};

const ownSettings = <K extends JobKind>(config: JobConfigs[K]): Record<string, unknown> =>
  OWN_SETTINGS[config.command as K](config);

export function publicSettings(config: ResolvedConfig): Record<string, unknown> {
  return {
    command: config.command,
    paths: config.paths,
    mode: config.mode ?? 'scenario',
    timeoutMs: config.timeoutMs,
    target:
      config.target.kind === 'remote'
        ? { kind: 'remote', baseUrl: config.target.baseUrl, droidId: config.target.droidId }
        : { kind: 'emulator' },
    webhookSecretSet: config.webhookSecret !== null,
    // The user's thresholds, when there are any; the report's `thresholds` lists every one judged.
    ...(config.thresholds.length > 0 && { thresholds: config.thresholds }),
    defaultThresholds: config.defaultThresholds,
    ...(config.retries > 0 && { retries: config.retries }),
    ...(config.tags.length > 0 && { tags: config.tags }),
    ...(config.excludeTags.length > 0 && { excludeTags: config.excludeTags }),
    ...(config.grep !== undefined && { grep: String(config.grep) }),
    ...(config.shard && { shard: `${config.shard.index}/${config.shard.total}` }),
    ...(config.baseline !== undefined && { baseline: config.baseline }),
    ...(config.failOnFlaky && { failOnFlaky: true }),
    ...(config.keepAnswers && { keepAnswers: true }),
    ...(!config.think && { think: false }),
    ...(config.burstGapMs !== undefined && { burstGapMs: config.burstGapMs }),
    ...(config.syncMessage !== 'auto' && { syncMessage: config.syncMessage }),
    ...(config.llm && { judge: llmSettings(config.llm) }),
    // Where report.html links each failure's trace (its headers never: they may hold a key).
    ...(config.traceUrl !== undefined && { traceUrl: config.traceUrl }),
    ...(config.telemetry && {
      telemetry: { endpoint: config.telemetry.endpoint ?? '(per signal)', protocol: config.telemetry.protocol },
    }),
    ...(!config.traceContext && { traceContext: false }),
    ...(config.budget.maxCostUsd !== undefined && { maxCostUsd: config.budget.maxCostUsd }),
    ...(config.budget.maxTokens !== undefined && { maxTokens: config.budget.maxTokens }),
    ...(config.budget.maxConversationTokens !== undefined && {
      maxConversationTokens: config.budget.maxConversationTokens,
    }),
    ...(config.deliveries && {
      deliveries: { redis: redactRedisUrl(config.deliveries.redisUrl), stream: config.deliveries.stream },
    }),
    ...ownSettings(config),
  };
}
