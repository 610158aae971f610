/**
 * llm/: LLM-graded matchers' side (docs/llm.md): the provider (any OpenAI-compatible endpoint via
 * the `openai` package), the judge (rubric -> verdict JSON, majority near the threshold),
 * embeddings and cosine similarity, the on-disk cache and token accounting; the simulated
 * customer (simulator.ts) and the red-team rephraser (rephrase.ts). Imports only the
 * leaf modules (errors, redact, units); src/scenario/ takes a Grader structurally.
 */
export type { Grader, GradeResult, JudgeContext, JudgeRequest, SimilarRequest, LlmUsage, Verdict, GroundingTurn } from './types.js';
export {
  resolveLlmConfig,
  assertGraderConfig,
  assertSimulatorConfig,
  llmSettings,
  llmSecrets,
  judgeConfigSchema,
  DEFAULT_CACHE_DIR,
  LLM_DEFAULTS,
  type LlmFlags,
  type ResolvedLlmConfig,
  type JudgeConfigSection,
  type GraderUse,
} from './config.js';
export { discoverModels, listModels, modelKind, DISCOVERY_TIMEOUT_MS, type ServedModel, type ModelKind, type DiscoverOptions } from './discover.js';
export { createGrader, type GraderOptions } from './grader.js';
export { createOpenAiProvider, type LlmProvider, type ProviderOptions, type ChatMessage, type ChatAnswer, type EmbeddingAnswer } from './provider.js';
export { createDiskCache, NO_CACHE, cacheKey, type LlmCache, type CacheKind } from './cache.js';
export { parseVerdict, decide, votePasses, isCloseCall } from './verdict.js';
export { cosineSimilarity, bestMatch } from './similarity.js';
export { judgeMessages, PROMPT_VERSION } from './judge-prompt.js';
export { formatLlmUsage, zeroLlmUsage, addLlmUsage } from './usage.js';
export {
  createSimulator,
  customerMessages,
  customerSystemPrompt,
  formatTranscript,
  answerTextOf,
  simulationPayload,
  SIMULATOR_PROMPT_VERSION,
  STOP_MARKER,
  DEFAULT_MAX_TURNS,
  type SimulateSpec,
  type Simulation,
  type SimulationEnd,
  type SimulatedTurn,
  type Simulator,
  type SimulatorOptions,
  type AskDroid,
  type DroidTurn,
  type SimChatItem,
} from './simulator.js';
export { createRephraser, REPHRASE_PROMPT_VERSION, type Rephraser, type RephraserOptions } from './rephrase.js';
