/**
 * Money as answers write it. The specification shows `shoppingCart.grandTotal` as "amount
 * followed by a currency code" and `shippingFee` as a string (the service's async page shows
 * "10", a bare amount, and "0.00 THB"); its intent webhook's cart lines carry numbers. So an
 * amount here is a number, or a string: an optional sign, digits with `,` thousands separators
 * (or spaces), an optional decimal part, and a currency before or after it as an ISO 4217 code
 * (`THB`), a symbol (`฿`, `$`, `€`, `£`, `¥`) or the Thai word `บาท`. Anything else is not an
 * amount (undefined): a rule that needs it is then undecided, never failed.
 */

export interface Amount {
  amount: number;
  /** The ISO 4217 code written with it (a symbol mapped to its code); undefined for a bare amount. */
  currency?: string;
}

const SYMBOLS: Readonly<Record<string, string>> = {
  '฿': 'THB',
  บาท: 'THB',
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
};
const CURRENCY = String.raw`([A-Z]{3}|฿|บาท|\$|€|£|¥)`;
const NUMBER = String.raw`([-+]?\d{1,3}(?:[, ]\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?)`;
const AFTER = new RegExp(String.raw`^\s*${NUMBER}\s*${CURRENCY}?\s*$`);
const BEFORE = new RegExp(String.raw`^\s*${CURRENCY}\s*${NUMBER}\s*$`);

const codeOf = (c: string | undefined): string | undefined => (c === undefined ? undefined : (SYMBOLS[c] ?? c));

/** Reads "1,290.00 THB", "THB 1290", "฿1,290", "10", "-7,420.50"; undefined when `text` is not one amount. */
export function parseAmount(text: string): Amount | undefined {
  let digits: string | undefined;
  let currency: string | undefined;
  const after = AFTER.exec(text);
  if (after) [, digits, currency] = after;
  else {
    const before = BEFORE.exec(text);
    if (!before) return undefined;
    [, currency, digits] = before;
  }
  const n = Number((digits ?? '').replace(/[, ]/g, ''));
  if (!Number.isFinite(n)) return undefined;
  const code = codeOf(currency);
  return code === undefined ? { amount: n } : { amount: n, currency: code };
}

/** A number as is, a string through {@link parseAmount}; undefined otherwise. */
export function amountOf(v: unknown): Amount | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? { amount: v } : undefined;
  return typeof v === 'string' ? parseAmount(v) : undefined;
}

/** Amounts are compared to the cent: float noise (0.1 + 0.2) is not a finding. */
export const sameAmount = (a: number, b: number): boolean => Math.abs(Math.round(a * 100) - Math.round(b * 100)) <= 0;

/** At least `b`, to the cent. */
export const atLeast = (a: number, b: number): boolean => Math.round(a * 100) >= Math.round(b * 100);

const FORMAT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 2580 => "2,580.00 THB" (without a currency: "2,580.00"). */
export function formatAmount(n: number, currency?: string): string {
  return currency ? `${FORMAT.format(n)} ${currency}` : FORMAT.format(n);
}
