/**
 * llm/: LLM-graded matchers' side (docs/llm.md): the provider (any OpenAI-compatible endpoint via
 * the `openai` package), the judge (rubric -> verdict JSON, majority near the threshold),
 * embeddings and cosine similarity, the on-disk cache and token accounting; the simulated
 * customer (simulator.ts), the red-team rephraser (rephrase.ts) and adaptive attacker (attacker.ts). Imports only the
 * leaf modules (errors, redact, units); src/scenario/ takes a Grader structurally.
 */
export type { Grader } from './types.js';
export {
  resolveLlmConfig,
  assertGraderConfig,
  assertSimulatorConfig,
  llmSettings,
  LLM_DEFAULTS,
  type ResolvedLlmConfig,
  type GraderUse,
} from './config.js';
export {
  discoverModels,
  modelKind,
} from './discover.js';
export { createGrader } from './grader.js';
export {
  createOpenAiProvider,
  type LlmProvider,
} from './provider.js';
export { createDiskCache } from './cache.js';
export { openModelEndpoint, type ModelEndpoint } from './endpoint.js';
export { cosineSimilarity } from './similarity.js';
export { formatLlmUsage } from './usage.js';
export {
  createSimulator,
  simulationPayload,
} from './simulator.js';
export { createRephraser, type Rephraser } from './rephrase.js';
export { createAttacker, type Attacker } from './attacker.js';
export {
  ModelBudget,
  type BudgetSnapshot,
  type ModelCallInfo,
  type ModelCallObserver,
  type ModelRole,
  type ResolvedBudget,
  type Spend,
} from './budget.js';
