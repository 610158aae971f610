/**
 * The attack categories by id, in report order. A new category is one module under
 * categories/ and one line in {@link REGISTERED}: `CategoryId` is derived from that list, so the
 * id exists for the compiler (flags, report rows, tests) as soon as the module is registered.
 */
import { cartTampering } from './categories/cart-tampering.js';
import { competitor } from './categories/competitor.js';
import { crossCustomerLeak } from './categories/cross-customer-leak.js';
import { offTopic } from './categories/off-topic.js';
import { priceManipulation } from './categories/price-manipulation.js';
import { promptLeak } from './categories/prompt-leak.js';
import { staffImpersonation } from './categories/staff-impersonation.js';
import type { RedteamCategory } from './types.js';

/** Every category, in report order. */
const REGISTERED = [
  priceManipulation,
  crossCustomerLeak,
  promptLeak,
  cartTampering,
  staffImpersonation,
  offTopic,
  competitor,
] as const;

/** The id of a registered category (`price-manipulation`, ...). */
export type CategoryId = (typeof REGISTERED)[number]['id'];

export const CATEGORIES: ReadonlyMap<CategoryId, RedteamCategory<CategoryId>> = new Map(
  REGISTERED.map((c): [CategoryId, RedteamCategory<CategoryId>] => [c.id, c]),
);

export const CATEGORY_IDS: readonly CategoryId[] = [...CATEGORIES.keys()];

export function isCategoryId(id: string): id is CategoryId {
  return CATEGORIES.has(id as CategoryId);
}
