/**
 * The policy rules by id, in report order. A new rule is one module under rules/ and one line in
 * {@link REGISTERED}: `PolicyRuleId` is derived from that list, so the id exists for the
 * compiler (the report's byRule, the threshold metrics, tests) as soon as the module is
 * registered. The threshold metrics (`policy.<rule>.violations`) are parsed in metrics/, which
 * may not import this folder: its list of ids must be this one, checked below at compile time.
 */
import type { POLICY_RULE_IDS } from '../metrics/index.js';
import { cartArithmetic } from './rules/cart-arithmetic.js';
import { cataloguePrice } from './rules/catalogue-price.js';
import { language } from './rules/language.js';
import { maxDiscount } from './rules/max-discount.js';
import { otherCustomerData } from './rules/other-customer-data.js';
import { canary, forbiddenPhrase } from './rules/phrases.js';
import { shippingFee } from './rules/shipping-fee.js';
import type { PolicyRule } from './types.js';

const REGISTERED = [
  cataloguePrice,
  cartArithmetic,
  shippingFee,
  maxDiscount,
  forbiddenPhrase,
  canary,
  otherCustomerData,
  language,
] as const;

/** The id of a registered rule (`catalogue-price`, ...). */
export type PolicyRuleId = (typeof REGISTERED)[number]['id'];

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _sameIds: Same<PolicyRuleId, (typeof POLICY_RULE_IDS)[number]> = true;
void _sameIds;

/** Every rule, in report order. */
export const POLICY_RULES: readonly PolicyRule<PolicyRuleId>[] = REGISTERED;

export const RULE_IDS: readonly PolicyRuleId[] = REGISTERED.map((r) => r.id);
