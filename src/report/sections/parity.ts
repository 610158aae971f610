/**
 * `parity`: for a scenario run in both modes, which answer fields differ between the sync answer
 * and the async one (the webhook) (`computeParity`, pure). Shards merge by concatenating the
 * entries and adding the counts.
 *
 * Records are paired by suite, scenario and repeat index; only `answered` pairs are compared.
 * A scenario with steps is compared turn by turn (its `say` steps, by position). Fields:
 * - `intents`: the set of `intents` (order ignored);
 * - `cart`: `shoppingCart.grandTotal`, `shoppingCart.shippingFee`, `shoppingCart.products`
 *   (name x quantity, order ignored);
 * - `address`: each `addressParsing.*` field;
 * - `language`: `customerInsight.user_language`.
 */
import { z } from 'zod';
import { hasVerdict } from '../../outcomes.js';
import type { RequestRecord } from '../run-types.js';
import { defineSection, fromEvery, type SectionInput } from '../section.js';
import { code, span, type SectionView } from '../view.js';
import { formatValue } from '../format-value.js';
import { count, obj } from './common.js';

const PARITY_FIELDS = ['intents', 'cart', 'address', 'language'] as const;
const fieldEnum = z.enum(PARITY_FIELDS);
const differenceSchema = obj({
  field: fieldEnum,
  path: z.string().describe('dotted path of the differing value'),
  sync: z.unknown(),
  async: z.unknown(),
});
const entrySchema = obj({
  suite: z.string(),
  scenario: z.string(),
  repeat: count,
  turn: count.optional().describe('0-based say turn (scenarios with steps)'),
  differences: z.array(differenceSchema),
});
const paritySchema = obj({
  compared: count.describe('answer pairs compared'),
  differing: count.describe('pairs with at least one difference'),
  byField: obj({ intents: count, cart: count, address: count, language: count }).describe('differing pairs per field'),
  entries: z.array(entrySchema).describe('every compared pair, differences or not'),
});
type ParityField = (typeof PARITY_FIELDS)[number];
export type ParityDifference = z.output<typeof differenceSchema>;
type ParityEntry = z.output<typeof entrySchema>;
export type ParityReport = z.output<typeof paritySchema>;

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
  if (r.steps)
    return r.steps.filter((s) => s.kind === 'say').map((s) => (s.outcome === 'answered' ? s.body : undefined));
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
  return {
    compared: entries.length,
    differing: entries.filter((e) => e.differences.length > 0).length,
    byField,
    entries,
  };
}

/** Concatenates parity entries of shards; undefined when an input has none. */
function mergeParity(inputs: readonly (ParityReport | undefined)[]): ParityReport | undefined {
  const list = fromEvery(inputs, (p) => p);
  if (!list) return undefined;
  const byField = Object.fromEntries(
    PARITY_FIELDS.map((f) => [f, list.reduce((n, p) => n + p.byField[f], 0)]),
  ) as ParityReport['byField'];
  return {
    compared: list.reduce((n, p) => n + p.compared, 0),
    differing: list.reduce((n, p) => n + p.differing, 0),
    byField,
    entries: list.flatMap((p) => p.entries),
  };
}

const MAX_DIFFS = 20;
/** The console's default: a few differences show what kind they are; report.json has them all. */
const BRIEF_DIFFS = 5;

/**
 * The counts and a table of the differences; `brief` (the console's default): one line when
 * nothing differs, at most BRIEF_DIFFS rows otherwise.
 */
function parityView(p: ParityReport, brief = false): SectionView {
  const maxDiffs = brief ? BRIEF_DIFFS : MAX_DIFFS;
  const rows = p.entries.flatMap((e) =>
    e.differences.map((d) => [
      `${e.suite} › ${e.scenario}${e.repeat > 0 ? ` #${e.repeat}` : ''}${e.turn !== undefined ? ` turn ${e.turn}` : ''}`,
      code(d.path),
      span(formatValue(d.sync, 60), 'warn'),
      span(formatValue(d.async, 60), 'warn'),
    ]),
  );
  return {
    id: 'parity',
    title: 'Parity (sync vs async)',
    summary: `compared ${p.compared}, differing ${p.differing}${p.differing === 0 && brief ? '' : ` (intents ${p.byField.intents}, cart ${p.byField.cart}, address ${p.byField.address}, language ${p.byField.language})`}`,
    tables:
      rows.length === 0
        ? []
        : [
            {
              columns: [
                { header: 'scenario' },
                { header: 'path', align: 'l' },
                { header: 'sync', align: 'l' },
                { header: 'async', align: 'l' },
              ],
              rows: rows.slice(0, maxDiffs),
              ...(rows.length > maxDiffs && { more: `… ${rows.length - maxDiffs} more in report.json` }),
            },
          ],
  };
}

type Doc = { parity?: ParityReport };

export const paritySection = defineSection({
  name: 'parity',
  fields: { parity: paritySchema.optional().describe('sync vs async answers of scenarios run in both modes (run)') },
  // From the records a job keeps (a scenario's sync and async answers side by side); none: no parity.
  compute: (input: SectionInput) =>
    input.records ? { parity: computeParity(input.records.filter((r) => hasVerdict(r.outcome))) } : {},
  merge: (docs: readonly Doc[]) => {
    const parity = mergeParity(docs.map((d) => d.parity));
    return parity ? { parity } : {};
  },
  views: (d: Doc) => (d.parity && d.parity.compared > 0 ? [parityView(d.parity)] : []),
  brief: (d: Doc) => (d.parity && d.parity.compared > 0 ? [parityView(d.parity, true)] : []),
});
