/**
 * What the rules read of an answer, and only what they can read (a shape the specification
 * leaves "not shown" is read where it is present, never called wrong):
 *
 * - texts: the answer payload's `answer` (spec: Answer payload fields, "the AI answer as plain
 *   text") and every `responses[].kwargs.content` ("the text is in kwargs.content"); a `send`
 *   step's reply, a message-forwarding body (the service's "Receiving Message Webhooks" page),
 *   its `content.value` (a string, or a list of strings for buttons and carousels);
 * - the cart: `shoppingCart` {products, shippingFee, grandTotal} (spec: Answer payload fields).
 *   The spec shows no field of a product line; the service documents one for its intent
 *   webhook (`{code, name, price, count, total, available}`), and other carts commonly write
 *   `quantity`/`qty`, `unitPrice`/`unit_price`, `lineTotal`/`line_total`, `title` for the name
 *   and `sku` for the code. Those are read; a line without them leaves the rules that need them
 *   undecided.
 */
import { type Amount, amountOf } from './money.js';

/** One text of the answer and where it is (`answer`, `responses[2].kwargs.content`, `content.value`). */
interface AnswerText {
  field: string;
  text: string;
}

/** One cart line as read: each value with the field it came from (`shoppingCart.products[0].price`). */
export interface CartLine {
  index: number;
  /** The line's `name` (else `title`); undefined when it has neither. */
  name?: string;
  /** The line's `code` (else `sku`). */
  code?: string;
  price?: Read<Amount>;
  count?: Read<number>;
  total?: Read<Amount>;
}

/** A value and the field (dotted path) it was read from. */
interface Read<T> {
  value: T;
  field: string;
}

interface CartRead {
  lines: CartLine[];
  shippingFee?: Read<Amount>;
  grandTotal?: Read<Amount>;
}

export interface AnswerView {
  texts: AnswerText[];
  /** Undefined when the payload has no `shoppingCart` object. */
  cart?: CartRead;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const PRICE_KEYS = ['price', 'unitPrice', 'unit_price'] as const;
const COUNT_KEYS = ['count', 'quantity', 'qty'] as const;
const TOTAL_KEYS = ['total', 'lineTotal', 'line_total'] as const;

function firstOf<T>(
  r: Record<string, unknown>,
  keys: readonly string[],
  base: string,
  read: (v: unknown) => T | undefined,
): Read<T> | undefined {
  for (const k of keys) {
    if (!Object.hasOwn(r, k)) continue;
    const value = read(r[k]);
    if (value !== undefined) return { value, field: `${base}.${k}` };
  }
  return undefined;
}

const countOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

function lineOf(p: unknown, index: number): CartLine {
  const line: CartLine = { index };
  if (!isRecord(p)) return line;
  const base = `shoppingCart.products[${index}]`;
  const name = [p.name, p.title].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const code = [p.code, p.sku].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (name !== undefined) line.name = name.trim();
  if (code !== undefined) line.code = code.trim();
  const price = firstOf(p, PRICE_KEYS, base, amountOf);
  const count = firstOf(p, COUNT_KEYS, base, countOf);
  const total = firstOf(p, TOTAL_KEYS, base, amountOf);
  if (price) line.price = price;
  if (count) line.count = count;
  if (total) line.total = total;
  return line;
}

function cartOf(payload: Record<string, unknown>): CartRead | undefined {
  const c = payload.shoppingCart;
  if (!isRecord(c)) return undefined;
  const cart: CartRead = { lines: Array.isArray(c.products) ? c.products.map(lineOf) : [] };
  const fee = amountOf(c.shippingFee);
  const total = amountOf(c.grandTotal);
  if (fee) cart.shippingFee = { value: fee, field: 'shoppingCart.shippingFee' };
  if (total) cart.grandTotal = { value: total, field: 'shoppingCart.grandTotal' };
  return cart;
}

function textsOf(payload: Record<string, unknown>): AnswerText[] {
  const out: AnswerText[] = [];
  if (typeof payload.answer === 'string' && payload.answer !== '') out.push({ field: 'answer', text: payload.answer });
  if (Array.isArray(payload.responses)) {
    payload.responses.forEach((r, i) => {
      const content = isRecord(r) && isRecord(r.kwargs) ? r.kwargs.content : undefined;
      if (typeof content === 'string' && content !== '')
        out.push({ field: `responses[${i}].kwargs.content`, text: content });
    });
  }
  // A forwarded message (a `send` step's reply): {content: {type, value}}.
  const content = payload.content;
  if (isRecord(content)) {
    const v = content.value;
    if (typeof v === 'string' && v !== '') out.push({ field: 'content.value', text: v });
    else if (Array.isArray(v))
      v.forEach((s, i) => {
        if (typeof s === 'string' && s !== '') out.push({ field: `content.value[${i}]`, text: s });
      });
  }
  return out;
}

/** The texts and the cart of an answer payload (or of a forwarded reply); empty for anything else. */
export function readAnswer(payload: unknown): AnswerView {
  if (!isRecord(payload)) return { texts: [] };
  const cart = cartOf(payload);
  return cart ? { texts: textsOf(payload), cart } : { texts: textsOf(payload) };
}

/** Case and runs of whitespace folded, for loose text matches. */
export const fold = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ');
