/**
 * What changed in the bot's answers between two runs (`comparison.answers`): for each scenario
 * x mode x repeat in both reports' `answers` (answers.ts), each answer turn kept by both (by its
 * number) is compared field by field:
 * - `text`: the answer texts, both kept when they differ (the views draw their word diff);
 * - `intents`: the intents added and removed (their order is not a change);
 * - `cart`: the cart lines added and removed (a line is the same when its JSON with sorted keys
 *   is; a line whose quantity changed is one removed and one added), the shipping fee and the
 *   grand total when they differ;
 * - `address`: each address field that differs (a field one side lacks reads as empty);
 * - `outcome`: when one side got an answer and the other did not (the other's fields read as
 *   empty, so what the answered side said is listed as added or removed).
 * A turn neither side got an answer for is not compared. An answer change is never a
 * regression: a bot is expected to word things differently; the expectations judge what must
 * hold. Pure.
 */
import { z } from 'zod';
import type { AnswerEntry, AnswerTurn } from './answers.js';
import { count, modeEnum, obj, outcomeEnum } from './common.js';

const fromTo = obj({ base: z.string(), current: z.string() });
const answerChangeSchema = obj({
  suite: z.string(),
  name: z.string(),
  mode: modeEnum,
  repeat: count.optional().describe('0-based repeat index; absent for the first'),
  turn: z.number().int().positive().describe('1-based answer turn'),
  outcome: obj({ base: outcomeEnum, current: outcomeEnum }).optional().describe('when one side got no answer payload'),
  text: fromTo.optional().describe('both answer texts, when they differ (a side without text: empty)'),
  intents: obj({ added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
  cart: obj({
    added: z.array(z.unknown()),
    removed: z.array(z.unknown()),
    shippingFee: fromTo.optional(),
    grandTotal: fromTo.optional(),
  }).optional(),
  address: z.array(obj({ field: z.string(), base: z.string(), current: z.string() })).optional(),
});
export const answerComparisonSchema = obj({
  notRecorded: z
    .array(z.enum(['base', 'current']))
    .describe(
      'the reports that hold no answers (written by a droidcheck before it recorded them): nothing was compared',
    ),
  compared: count.describe('answer turns compared (present in both, answered in either)'),
  unchanged: count,
  changed: z.array(answerChangeSchema).describe('every compared answer turn that changed'),
});
export type AnswerChange = z.output<typeof answerChangeSchema>;
export type AnswerComparison = z.output<typeof answerComparisonSchema>;

const keyOf = (e: AnswerEntry): string => JSON.stringify([e.suite, e.name, e.mode, e.repeat ?? 0]);

/** JSON with sorted keys: two cart lines that differ only in key order are the same line. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The items of `a` not in `b`, as a multiset (a line twice in `a`, once in `b`: once). */
function minus<T>(a: readonly T[], b: readonly T[], key: (x: T) => string): T[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(key(x), (left.get(key(x)) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(key(x)) ?? 0;
    if (n > 0) left.set(key(x), n - 1);
    return n === 0;
  });
}

const changed = (base: string, current: string) => (base === current ? undefined : { base, current });

/** The differences of two answer turns (module docs); undefined when they are the same. */
function turnChange(
  b: AnswerTurn,
  c: AnswerTurn,
): Omit<AnswerChange, 'suite' | 'name' | 'mode' | 'repeat' | 'turn'> | undefined {
  const text = changed(b.text ?? '', c.text ?? '');
  const [bi, ci] = [b.intents ?? [], c.intents ?? []];
  const intents = { added: [...new Set(minus(ci, bi, String))], removed: [...new Set(minus(bi, ci, String))] };
  const [bl, cl] = [b.cart?.lines ?? [], c.cart?.lines ?? []];
  const shippingFee = changed(b.cart?.shippingFee ?? '', c.cart?.shippingFee ?? '');
  const grandTotal = changed(b.cart?.grandTotal ?? '', c.cart?.grandTotal ?? '');
  const cart = {
    added: minus(cl, bl, canonical),
    removed: minus(bl, cl, canonical),
    ...(shippingFee && { shippingFee }),
    ...(grandTotal && { grandTotal }),
  };
  const fields = [...new Set([...Object.keys(b.address ?? {}), ...Object.keys(c.address ?? {})])];
  const address = fields.flatMap((field) => {
    const d = changed(b.address?.[field] ?? '', c.address?.[field] ?? '');
    return d ? [{ field, ...d }] : [];
  });
  const outcome =
    (b.outcome === undefined) !== (c.outcome === undefined)
      ? { base: b.outcome ?? 'answered', current: c.outcome ?? 'answered' }
      : undefined;
  const out = {
    ...(outcome && { outcome }),
    ...(text && { text }),
    ...((intents.added.length > 0 || intents.removed.length > 0) && { intents }),
    ...((cart.added.length > 0 || cart.removed.length > 0 || shippingFee || grandTotal) && { cart }),
    ...(address.length > 0 && { address }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The answer comparison of two reports' `answers`; undefined when neither report is a run's
 * (no scenario entries: load, capacity), where no answer is kept to compare.
 */
export function compareAnswers(
  base: { scenarios: readonly unknown[]; answers?: readonly AnswerEntry[] },
  current: { scenarios: readonly unknown[]; answers?: readonly AnswerEntry[] },
): AnswerComparison | undefined {
  if (base.scenarios.length === 0 && current.scenarios.length === 0) return undefined;
  const notRecorded = [
    ...(base.answers ? [] : (['base'] as const)),
    ...(current.answers ? [] : (['current'] as const)),
  ];
  const out: AnswerComparison = { notRecorded, compared: 0, unchanged: 0, changed: [] };
  if (!base.answers || !current.answers) return out;
  const before = new Map(base.answers.map((e) => [keyOf(e), e]));
  for (const now of current.answers) {
    const was = before.get(keyOf(now));
    if (!was) continue;
    const baseTurns = new Map(was.turns.map((t) => [t.turn, t]));
    for (const c of now.turns) {
      const b = baseTurns.get(c.turn);
      if (!b || (b.outcome !== undefined && c.outcome !== undefined)) continue;
      out.compared += 1;
      const diff = turnChange(b, c);
      if (!diff) out.unchanged += 1;
      else
        out.changed.push({
          suite: now.suite,
          name: now.name,
          mode: now.mode,
          ...(now.repeat !== undefined && { repeat: now.repeat }),
          turn: c.turn,
          ...diff,
        });
    }
  }
  return out;
}
