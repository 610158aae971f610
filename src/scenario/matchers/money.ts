/**
 * Money values: "2,580.00 THB" (an amount, thousands separators allowed, then an ISO 4217 code;
 * spec: shoppingCart.grandTotal) or `{ amount: 2580, currency: THB }`.
 */
export interface Money {
  amount: number;
  currency: string;
}

const MONEY_RE = /^\s*(-?[\d,]*\d(?:\.\d+)?)\s*([A-Z]{3})\s*$/;

/** Parses a money string; undefined when it is not one. */
export function parseMoney(text: string): Money | undefined {
  const m = MONEY_RE.exec(text);
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  const digits = m[1].replace(/,/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(digits)) return undefined;
  return { amount: Number(digits), currency: m[2] };
}

/** Money in either user form; undefined when it is neither. */
export function toMoney(v: unknown): Money | undefined {
  if (typeof v === 'string') return parseMoney(v);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const { amount, currency } = v as Record<string, unknown>;
    const n = typeof amount === 'string' ? Number(amount.replace(/,/g, '')) : amount;
    if (typeof n === 'number' && Number.isFinite(n) && typeof currency === 'string' && /^[A-Z]{3}$/.test(currency)) {
      return { amount: n, currency };
    }
  }
  return undefined;
}

/** Amounts equal to the cent (avoids float noise), same currency. */
export function sameMoney(a: Money, b: Money): boolean {
  return a.currency === b.currency && Math.round(a.amount * 100) === Math.round(b.amount * 100);
}

export function showMoney(m: Money): string {
  return `${m.amount} ${m.currency}`;
}
