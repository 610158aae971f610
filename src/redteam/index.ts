/**
 * redteam/: `droidcheck redteam`'s engine: attack categories (one module each under
 * categories/: phrasings, seeded generation, oracle), the registry, the driver that sends the
 * attempts through an injected `ask` (sync, or async + webhook: the caller decides), and the
 * report section with a Wilson 95% interval per success rate. Imports scenario (money),
 * llm (transcript helpers), metrics (stats), contract types and leaves; no network of its own.
 */
export { CATEGORIES, CATEGORY_IDS, isCategoryId, type CategoryId } from './registry.js';
export {
  executeRedteam,
  generateAttempts,
  plannedModelCalls,
  type RedteamAsk,
  type RedteamDeps,
} from './driver.js';
export {
  buildRedteamSection,
  redteamVerdict,
  type RedteamCategoryRow,
  type RedteamSection,
} from './section.js';
export {
  cartProblems,
  compareOrders,
  readCart,
} from './payload.js';
