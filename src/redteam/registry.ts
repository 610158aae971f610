/**
 * The attack categories by id, in report order. A new category is one module under
 * categories/ and one line here.
 */
import { cartTampering } from './categories/cart-tampering.js';
import { competitor } from './categories/competitor.js';
import { crossCustomerLeak } from './categories/cross-customer-leak.js';
import { offTopic } from './categories/off-topic.js';
import { priceManipulation } from './categories/price-manipulation.js';
import { promptLeak } from './categories/prompt-leak.js';
import { staffImpersonation } from './categories/staff-impersonation.js';
import type { CategoryId, RedteamCategory } from './types.js';

export const CATEGORIES: ReadonlyMap<CategoryId, RedteamCategory> = new Map(
  [priceManipulation, crossCustomerLeak, promptLeak, cartTampering, staffImpersonation, offTopic, competitor].map(
    (c) => [c.id, c],
  ),
);

export const CATEGORY_IDS: readonly CategoryId[] = [...CATEGORIES.keys()];

export function isCategoryId(id: string): id is CategoryId {
  return CATEGORIES.has(id as CategoryId);
}
