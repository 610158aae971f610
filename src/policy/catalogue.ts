/**
 * The policy's catalogue looked up by a cart line: its `name`, else its `code`, equal to a
 * product's name or one of its aliases, ignoring case and runs of whitespace.
 */
import type { CartLine } from './answer.js';
import { fold } from './answer.js';
import type { Policy } from './types.js';

export type CatalogueEntry = NonNullable<Policy['catalogue']>[number];

const index = new WeakMap<object, Map<string, CatalogueEntry>>();

function byName(policy: Policy): Map<string, CatalogueEntry> {
  const catalogue = policy.catalogue ?? [];
  let map = index.get(catalogue);
  if (!map) {
    map = new Map();
    for (const p of catalogue)
      for (const n of [p.name, ...(p.aliases ?? [])]) if (!map.has(fold(n).trim())) map.set(fold(n).trim(), p);
    index.set(catalogue, map);
  }
  return map;
}

/** The catalogue entry a line names; undefined when the line names none of them (or has no name). */
export function productOf(policy: Policy, line: CartLine): CatalogueEntry | undefined {
  const map = byName(policy);
  for (const n of [line.name, line.code]) {
    const hit = n === undefined ? undefined : map.get(fold(n).trim());
    if (hit) return hit;
  }
  return undefined;
}

/** The fee the policy's shipping rule gives for a cart subtotal (0 without a shipping rule). */
export function feeFor(policy: Policy, subtotal: number): number {
  const s = policy.shipping;
  if (!s) return 0;
  return s.freeFrom !== undefined && Math.round(subtotal * 100) >= Math.round(s.freeFrom * 100) ? 0 : s.fee;
}

/** A line's total: its own, else price x count; undefined when neither can be read. */
export function lineTotal(line: CartLine): number | undefined {
  if (line.total) return line.total.value.amount;
  return line.price && line.count ? line.price.value.amount * line.count.value : undefined;
}

/** True when an amount is written in another currency than the policy's (it cannot be compared). */
export const foreign = (policy: Policy, a: { currency?: string } | undefined): boolean =>
  a?.currency !== undefined && a.currency !== policy.currency;
