/**
 * The shop's policy, checked on every answer (docs/policy.md): the policy file's schema and
 * loader, the rules (one module each under rules/, registered in registry.ts), the pure
 * `checkAnswer(policy, payload, context)`, and the run-wide `PolicyJudge` the runner calls.
 */
export { checkAnswer, checkAnswerFully, type RuleOutcome } from './check.js';
export { type CartLine, fold, readAnswer } from './answer.js';
export { feeFor, productOf } from './catalogue.js';
export { CustomerRegistry } from './customers.js';
export { demoCanariesOf, demoShopPolicy } from './demo-shop.js';
export { MAX_DEFECTS, mergeDefects, type PolicyDefect } from './defects.js';
export { MAX_FINDINGS, PolicyJudge, type PolicySnapshot } from './judge.js';
export { DEFAULT_POLICY_FILE, loadPolicy, parsePolicy } from './load.js';
export { amountOf, formatAmount } from './money.js';
export { POLICY_RULES, type PolicyRuleId, RULE_IDS } from './registry.js';
export { policyApplies, policyJsonSchema } from './schema.js';
export type { CheckContext, Policy, PolicyFinding } from './types.js';
