/**
 * `computeParity(records)`: for a scenario run in both modes, which answer fields differ
 * between the sync answer (spec 8) and the async one (spec 9, webhook; docs/service-reference.md):
 * the two endpoints should answer alike, and a difference is worth seeing. Pure.
 *
 * Records are paired by suite, scenario and repeat index; only `answered` pairs are compared.
 * A scenario with steps is compared turn by turn (its `say` steps, by position). Fields:
 * - `intents`: the set of `intents` (order ignored);
 * - `cart`: `shoppingCart.grandTotal`, `shoppingCart.shippingFee`, `shoppingCart.products`
 *   (name x quantity, order ignored);
 * - `address`: each `addressParsing.*` field;
 * - `language`: `customerInsight.user_language`.
 */
import type { RequestRecord } from './run-types.js';

export const PARITY_FIELDS = ['intents', 'cart', 'address', 'language'] as const;
export type ParityField = (typeof PARITY_FIELDS)[number];

export interface ParityDifference {
  field: ParityField;
  /** Dotted path of the differing value, e.g. `addressParsing.city`. */
  path: string;
  sync: unknown;
  async: unknown;
}

export interface ParityEntry {
  suite: string;
  scenario: string;
  repeat: number;
  /** 0-based `say` turn for scenarios with steps; absent for a plain scenario. */
  turn?: number;
  differences: ParityDifference[];
}

export interface ParityReport {
  /** Answer pairs compared. */
  compared: number;
  /** Pairs with at least one difference. */
  differing: number;
  /** Differing pairs per field. */
  byField: Record<ParityField, number>;
  /** Every compared pair, differences or not. */
  entries: ParityEntry[];
}

const ADDRESS = ['street_address', 'subdistrict', 'district', 'city', 'postal_code', 'country'];

function get(o: unknown, path: string): unknown {
  let cur = o;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

const sortedStrings = (v: unknown): unknown => (Array.isArray(v) ? [...v].map(String).sort() : v);
function products(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.map((p) => `${String(get(p, 'name') ?? '?')} x ${String(get(p, 'quantity') ?? '?')}`).sort();
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The differences between two answer payloads (see module docs for the fields). */
export function diffAnswers(sync: unknown, async: unknown): ParityDifference[] {
  const out: ParityDifference[] = [];
  const check = (field: ParityField, path: string, norm: (v: unknown) => unknown = (v) => v): void => {
    const a = norm(get(sync, path));
    const b = norm(get(async, path));
    if (!same(a, b)) out.push({ field, path, sync: a, async: b });
  };
  check('intents', 'intents', sortedStrings);
  check('cart', 'shoppingCart.products', products);
  check('cart', 'shoppingCart.shippingFee');
  check('cart', 'shoppingCart.grandTotal');
  for (const f of ADDRESS) check('address', `addressParsing.${f}`);
  check('language', 'customerInsight.user_language');
  return out;
}

/** Answers of a record: its `say` step bodies (steps), or its one answer. */
function answers(r: RequestRecord): (unknown | undefined)[] {
  if (r.steps) return r.steps.filter((s) => s.kind === 'say').map((s) => (s.outcome === 'answered' ? s.body : undefined));
  return [r.outcome === 'answered' ? r.answer : undefined];
}

export function computeParity(records: readonly RequestRecord[]): ParityReport {
  const pairs = new Map<string, { sync?: RequestRecord; async?: RequestRecord }>();
  for (const r of records) {
    const k = JSON.stringify([r.suite, r.scenario, r.repeat ?? 0]);
    const p = pairs.get(k) ?? {};
    p[r.mode] = r;
    pairs.set(k, p);
  }
  const byField = Object.fromEntries(PARITY_FIELDS.map((f) => [f, 0])) as Record<ParityField, number>;
  const entries: ParityEntry[] = [];
  for (const { sync, async } of pairs.values()) {
    if (!sync || !async) continue;
    const a = answers(sync);
    const b = answers(async);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] === undefined || b[i] === undefined) continue;
      const differences = diffAnswers(a[i], b[i]);
      const entry: ParityEntry = { suite: sync.suite, scenario: sync.scenario, repeat: sync.repeat ?? 0, differences };
      if (sync.steps) entry.turn = i;
      entries.push(entry);
      for (const f of new Set(differences.map((d) => d.field))) byField[f] += 1;
    }
  }
  return { compared: entries.length, differing: entries.filter((e) => e.differences.length > 0).length, byField, entries };
}
