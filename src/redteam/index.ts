/**
 * redteam/: `droidcheck redteam`'s engine: attack categories (one module each under
 * categories/: phrasings, seeded generation, oracle), the registry, the driver that sends the
 * attempts through an injected `ask` (sync, or async + webhook: the caller decides), and the
 * report section with a Wilson 95% interval per success rate. Imports scenario (money),
 * llm (transcript helpers), metrics (stats), contract types and leaves; no network of its own.
 */
export type { Attempt, CategoryId, Exchange, GenerateSetup, JudgeNeed, OracleInput, OracleResult, Probe, RedteamCategory, RedteamVerdict, Turn } from './types.js';
export { ATTACK_SLOT } from './types.js';
export { CATEGORIES, CATEGORY_IDS, isCategoryId } from './registry.js';
export { executeRedteam, generateAttempts, type AttemptOutcome, type AttemptResult, type CategoryRun, type RedteamAsk, type RedteamDeps, type RedteamJudge, type RedteamRun } from './driver.js';
export { buildRedteamSection, redteamVerdict, type RedteamCategoryRow, type RedteamFinding, type RedteamSection, type RedteamVerdictOptions } from './section.js';
export { cartProblems, compareOrders, payloadText, readCart, includesLoosely, type CartView, type CartLineView } from './payload.js';
