/**
 * The settings a report shows (`report.json` `settings`): plain data, never a token, a secret
 * or a value derived from one.
 */
import { llmSettings } from '../llm/index.js';
import { redactRedisUrl } from '../redact.js';
import type { ResolvedConfig } from './resolve.js';

export function publicSettings(config: ResolvedConfig): Record<string, unknown> {
  return {
    command: config.command,
    paths: config.paths,
    // The closed model's requests in flight: run's. load keeps its model (closed or open) under `load`.
    ...(config.command === 'run' && { concurrency: config.concurrency }),
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
    ...(!config.think && { think: false }),
    ...(config.syncMessage !== 'auto' && { syncMessage: config.syncMessage }),
    ...(config.llm && { judge: llmSettings(config.llm) }),
    ...(config.command === 'load' && { load: { ...config.load, maxRequests: config.load.maxRequests ?? null } }),
    ...(config.deliveries && {
      deliveries: { redis: redactRedisUrl(config.deliveries.redisUrl), stream: config.deliveries.stream },
    }),
    ...(config.command === 'capacity' && {
      capacity: {
        ...config.capacity,
        precision: config.capacity.precision ?? null,
        answerP99Ms: config.capacity.answerP99Ms ?? null,
      },
    }),
  };
}
