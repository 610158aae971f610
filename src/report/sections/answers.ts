/**
 * `answers`: what the bot answered, kept so that `droidcheck compare` and `--baseline` can say
 * what changed in the answers between two runs (answer-changes.ts). A run only (load and
 * capacity keep no records). Per scenario x mode x repeat, the last answer turn (the last `say`
 * of a conversation, the one answer of a plain scenario); with `--keep-answers`, every turn.
 *
 * Of each answer, the fields of the answer payload that a change of the bot shows in (spec:
 * "Answer payload fields"): `answer` (the text), `intents` (the top-level list, else
 * `customerInsight.intents`), `shoppingCart` (its `products` as lines, whatever their fields:
 * the spec does not show them, and droids differ; `shippingFee`, `grandTotal`) and
 * `addressParsing` (its string fields). Bounded so a report stays small whatever the bot says:
 * a text of at most {@link MAX_TEXT_CHARS} characters, at most {@link MAX_ITEMS} intents, cart
 * lines and address fields, a cart line or field of at most {@link MAX_VALUE_CHARS} characters
 * (a longer one is cut, ending in `…`; a longer cart line is kept as its cut JSON text).
 *
 * Shards merge by concatenating the entries (only when every shard has them).
 */
import { z } from 'zod';
import type { RequestRecord } from '../run-types.js';
import { defineSection, fromEvery } from '../section.js';
import { count, modeEnum, obj, outcomeEnum } from './common.js';

/** Most characters of an answer text kept (as the scenarios section keeps a failed one's). */
const MAX_TEXT_CHARS = 2000;
/** Most intents, cart lines and address fields kept per answer. */
const MAX_ITEMS = 50;
/** Most characters of a cart line's JSON text, an address field, an intent, a fee or a total. */
const MAX_VALUE_CHARS = 300;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const answerTurnSchema = obj({
  turn: z.number().int().positive().describe("1-based: the N-th say of a conversation; 1: a plain scenario's answer"),
  outcome: outcomeEnum.optional().describe('present when the turn got no answer payload: why'),
  text: z.string().optional().describe(`the answer text (payload \`answer\`), at most ${MAX_TEXT_CHARS} characters`),
  intents: z
    .array(z.string())
    .optional()
    .describe(`payload \`intents\` (else customerInsight.intents), at most ${MAX_ITEMS}`),
  cart: obj({
    lines: z
      .array(z.unknown())
      .describe(
        `shoppingCart.products as the bot sent them, at most ${MAX_ITEMS}; a line whose JSON exceeds ${MAX_VALUE_CHARS} characters is kept as that JSON text, cut`,
      ),
    shippingFee: z.string().optional(),
    grandTotal: z.string().optional(),
  })
    .optional()
    .describe('payload shoppingCart'),
  address: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      `payload addressParsing: its string fields, at most ${MAX_ITEMS}, each at most ${MAX_VALUE_CHARS} characters`,
    ),
});
const answerEntrySchema = obj({
  suite: z.string(),
  name: z.string(),
  mode: modeEnum,
  repeat: count.optional().describe('0-based repeat index; absent for the first'),
  turns: z.array(answerTurnSchema).describe('the last answer turn; every turn with --keep-answers'),
});
export type AnswerTurn = z.output<typeof answerTurnSchema>;
export type AnswerEntry = z.output<typeof answerEntrySchema>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? cut(String(v), MAX_VALUE_CHARS) : undefined;
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v)
    ? v
        .filter((x): x is string => typeof x === 'string')
        .slice(0, MAX_ITEMS)
        .map((x) => cut(x, MAX_VALUE_CHARS))
    : undefined;

function cartOf(v: unknown): AnswerTurn['cart'] {
  if (!isObject(v)) return undefined;
  const lines = (Array.isArray(v.products) ? v.products : []).slice(0, MAX_ITEMS).map((line: unknown) => {
    const json = JSON.stringify(line) ?? 'null';
    return json.length > MAX_VALUE_CHARS ? cut(json, MAX_VALUE_CHARS) : line;
  });
  const shippingFee = scalar(v.shippingFee);
  const grandTotal = scalar(v.grandTotal);
  return {
    lines,
    ...(shippingFee !== undefined && { shippingFee }),
    ...(grandTotal !== undefined && { grandTotal }),
  };
}

function addressOf(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const fields = Object.entries(v)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .slice(0, MAX_ITEMS);
  return Object.fromEntries(fields.map(([k, s]) => [k, cut(s, MAX_VALUE_CHARS)]));
}

/** The kept fields of one answer payload (module docs); `outcome` when there is none. */
function answerTurn(turn: number, payload: unknown, outcome: RequestRecord['outcome']): AnswerTurn {
  if (!isObject(payload)) return { turn, outcome };
  const insight = isObject(payload.customerInsight) ? payload.customerInsight : {};
  const intents = strings(payload.intents) ?? strings(insight.intents);
  const cart = cartOf(payload.shoppingCart);
  const address = addressOf(payload.addressParsing);
  return {
    turn,
    ...(typeof payload.answer === 'string' && { text: cut(payload.answer, MAX_TEXT_CHARS) }),
    ...(intents && { intents }),
    ...(cart && { cart }),
    ...(address && { address }),
  };
}

/** A record's answer turns: its `say` steps (a conversation), else its one answer; none for calls only. */
function turnsOf(r: RequestRecord): AnswerTurn[] {
  if (!r.steps) return [answerTurn(1, r.answer, r.outcome)];
  return r.steps
    .filter((s) => s.kind === 'say')
    .map((s, i) => answerTurn(i + 1, s.outcome === 'answered' ? s.body : undefined, s.outcome));
}

/** The entries of a run's records: the last turn of each, or every turn (`keepAnswers`). */
function answerEntries(records: readonly RequestRecord[], keepAnswers: boolean): AnswerEntry[] {
  return records.flatMap((r) => {
    const turns = turnsOf(r);
    if (turns.length === 0) return [];
    return [
      {
        suite: r.suite,
        name: r.scenario,
        mode: r.mode,
        ...(r.repeat !== undefined && r.repeat > 0 && { repeat: r.repeat }),
        turns: keepAnswers ? turns : turns.slice(-1),
      },
    ];
  });
}

type Doc = { answers?: AnswerEntry[] };

export const answersSection = defineSection({
  name: 'answers',
  fields: {
    answers: z
      .array(answerEntrySchema)
      .optional()
      .describe(
        'run: per scenario x mode x repeat, the text, intents, cart and address of its last answer (every turn with --keep-answers), for compare; absent in load and capacity reports and in reports of droidcheck versions before it',
      ),
  },
  // From the records a job keeps; a job that keeps none has no answers to compare.
  compute: (input: { records?: readonly RequestRecord[]; keepAnswers?: boolean }) =>
    input.records ? { answers: answerEntries(input.records, input.keepAnswers ?? false) } : {},
  merge: (docs: readonly Doc[]) => {
    const lists = fromEvery(docs, (d) => d.answers);
    return lists ? { answers: lists.flat() } : {};
  },
  // report.json only: compare and --baseline show what changed (comparison-view.ts).
  views: () => [],
});
