/**
 * The model endpoint a job talks to beside the graders: one provider over its own connections
 * (provider.ts) and the cache of the answers it gave (cache.ts, `judge.cacheDir`; none with
 * `--no-cache`), opened once per job and closed with it. The simulated customer, the red team's
 * rephraser and its adaptive attacker all take theirs from here (the job context's `models`).
 */
import { createDiskCache, NO_CACHE, type LlmCache } from './cache.js';
import type { ResolvedLlmConfig } from './config.js';
import { createOpenAiProvider, type LlmProvider, type ProviderOptions } from './provider.js';

export interface ModelEndpoint {
  provider: LlmProvider;
  cache: LlmCache;
  /** Closes the provider's connections; idempotent. */
  close(): Promise<void>;
}

/** The cache of `config`: on disk at its `cacheDir`, none when it is undefined (`--no-cache`). */
export const cacheOf = (config: ResolvedLlmConfig): LlmCache =>
  config.cacheDir !== undefined ? createDiskCache(config.cacheDir) : NO_CACHE;

/** Opens the endpoint of `config` (no connection until the first call). */
export function openModelEndpoint(config: ResolvedLlmConfig, options: ProviderOptions = {}): ModelEndpoint {
  const provider = createOpenAiProvider(config, options);
  let closing: Promise<void> | undefined;
  return { provider, cache: cacheOf(config), close: () => (closing ??= provider.close()) };
}
