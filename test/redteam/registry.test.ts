/**
 * `CategoryId` is derived from the registry (src/redteam/registry.ts), so a category is one module
 * and one line there; `npm run typecheck` covers this file (each `@ts-expect-error` must meet its error).
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_IDS, isCategoryId, type CategoryId } from '../../src/redteam/index.js';

describe('the red-team registry', () => {
  it('its ids are the type: a registered id compiles, another does not', () => {
    const known: CategoryId = 'price-manipulation';
    // @ts-expect-error: no category of that id is registered
    const unknown: CategoryId = 'price-manipulashun';
    expect(isCategoryId(known)).toBe(true);
    expect(isCategoryId(unknown)).toBe(false);
  });

  it('each registered module answers to its own id, in report order', () => {
    expect(CATEGORY_IDS).toEqual([
      'price-manipulation',
      'cross-customer-leak',
      'prompt-leak',
      'cart-tampering',
      'staff-impersonation',
      'off-topic',
      'competitor',
    ]);
    for (const [id, category] of CATEGORIES) expect(category.id).toBe(id);
  });
});
