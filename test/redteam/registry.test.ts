/**
 * `CategoryId` is derived from the registry (src/redteam/registry.ts), so a category is one module
 * and one line there; `npm run typecheck` covers this file (each `@ts-expect-error` must meet its
 * error). The registry is checked against the modules of categories/ themselves: one left out of
 * it, one registered twice or under another file's name fails.
 */
import { readdir } from 'node:fs/promises';
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

  it('lists the categories in report order', () => {
    expect(CATEGORY_IDS).toEqual([
      'price-manipulation',
      'cross-customer-leak',
      'prompt-leak',
      'cart-tampering',
      'staff-impersonation',
      'off-topic',
      'competitor',
    ]);
  });

  it('holds every category module of categories/ once, under the id its file is named after', async () => {
    const dir = new URL('../../src/redteam/categories/', import.meta.url);
    const defined: [string, unknown[]][] = [];
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort()) {
      const exports: Record<string, unknown> = await import(new URL(file, dir).href);
      // A category is what defineCategory makes: an id and a generator (helpers export functions only).
      const categories = Object.values(exports).filter(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          'id' in v &&
          typeof (v as { generate?: unknown }).generate === 'function',
      );
      if (categories.length > 0) defined.push([file.replace(/\.ts$/, ''), categories]);
    }
    expect(defined.length, 'category modules').toBeGreaterThanOrEqual(7);
    for (const [name, categories] of defined) {
      expect(categories, `${name}.ts defines one category`).toHaveLength(1);
      expect((categories[0] as { id: string }).id, `the category of ${name}.ts`).toBe(name);
      // The registry holds that very module (not another one under its id), so its id is the type's.
      expect(CATEGORIES.get(name as CategoryId), `${name} is registered`).toBe(categories[0]);
      expect(isCategoryId(name)).toBe(true);
    }
    // Nothing registered that no module of categories/ defines (nor one registered twice: the ids are the modules').
    expect([...CATEGORY_IDS].sort()).toEqual(defined.map(([name]) => name).sort());
  });
});
