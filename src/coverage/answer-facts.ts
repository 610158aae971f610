/**
 * What coverage reads of one answer payload besides its texts and cart (policy/answer.ts reads
 * those): its intents, and how far towards an order the conversation got by the droid's own
 * account, each only where the payload holds it in a shape droidcheck can read. What it cannot
 * read counts as not reached, never as wrong: coverage is information, not a verdict.
 *
 * - intents: the answer's `intents` and `customerInsight.intents` (spec: Answer payload fields,
 *   string arrays; the service's async page shows `["product_inquiry"]`); an element that is an
 *   object is read by its `name` (or `intent`), anything else is left out;
 * - a stated total: a non-empty cart (`shoppingCart.products`) with a grand total that reads as
 *   an amount above zero (spec: `grandTotal`, "amount followed by a currency code");
 * - a complete address: `addressParsing` (spec: street_address, subdistrict, district, city,
 *   postal_code, country, empty strings when nothing was extracted) with a street and a postal
 *   code or city, that the customer's own messages hold (the street or the postal code): a test
 *   customer's profile the droid kept from an earlier conversation is not this one's address;
 * - contact details: `customerInsight.contact_info` (spec: name, phone, email) with a phone
 *   number (9 to 15 digits) or an email that the customer's messages hold; a name alone is not a
 *   way to reach anyone;
 * - product keywords: `customerInsight.product_keyword` (spec: an array), which tell a product
 *   was named when the policy has no catalogue to match names against.
 */
import { amountOf, fold } from '../policy/index.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const digits = (s: string): string => s.replace(/\D/g, '');

/** An intents list as the answer gives it: strings, or objects named by `name` / `intent`. */
function namesOf(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    const name = typeof x === 'string' ? x : isRecord(x) ? (x.name ?? x.intent) : undefined;
    return typeof name === 'string' && name.trim() !== '' ? [name.trim()] : [];
  });
}

/** The intents an answer reports (both of the spec's lists, each name once); undefined when it has no list at all. */
export function intentsOf(payload: unknown): string[] | undefined {
  if (!isRecord(payload)) return undefined;
  const insight = isRecord(payload.customerInsight) ? payload.customerInsight : {};
  if (!Array.isArray(payload.intents) && !Array.isArray(insight.intents)) return undefined;
  return [...new Set([...namesOf(payload.intents), ...namesOf(insight.intents)])];
}

/** What one answer says of the sale: see the module docs. */
export interface SaleFacts {
  /** `shoppingCart.products` has at least one line. */
  cart: boolean;
  /** ...and the grand total reads as an amount above zero. */
  total: boolean;
  address: boolean;
  contact: boolean;
  /** `customerInsight.product_keyword` names something. */
  keywords: boolean;
}

/** The customer's messages, prepared once for look-ups. */
interface Said {
  folded: string;
  digitRuns: string[];
}

const saidOf = (texts: readonly string[]): Said => {
  const joined = texts.join('\n');
  return { folded: fold(joined), digitRuns: [...joined.matchAll(/\+?\d[\d\s().-]*\d/g)].map((m) => digits(m[0])) };
};

function addressGiven(payload: Record<string, unknown>, said: () => Said): boolean {
  const a = isRecord(payload.addressParsing) ? payload.addressParsing : undefined;
  if (!a) return false;
  const street = str(a.street_address);
  const postal = str(a.postal_code);
  if (street === '' || (postal === '' && str(a.city) === '')) return false;
  const s = said();
  return (
    s.folded.includes(fold(street)) ||
    (digits(postal).length >= 3 && s.digitRuns.some((run) => run.includes(digits(postal))))
  );
}

function contactGiven(payload: Record<string, unknown>, said: () => Said): boolean {
  const insight = isRecord(payload.customerInsight) ? payload.customerInsight : {};
  const c = isRecord(insight.contact_info) ? insight.contact_info : undefined;
  if (!c) return false;
  const phone = digits(str(c.phone));
  const email = fold(str(c.email));
  if (phone.length >= 9 && phone.length <= 15 && said().digitRuns.some((run) => run.includes(phone))) return true;
  return email.includes('@') && said().folded.includes(email);
}

/** The facts of `payload`, the customer's messages of its conversation being `humanTexts`. */
export function saleFacts(payload: unknown, humanTexts: readonly string[]): SaleFacts {
  const none = { cart: false, total: false, address: false, contact: false, keywords: false };
  if (!isRecord(payload)) return none;
  let said: Said | undefined;
  const lazy = (): Said => (said ??= saidOf(humanTexts));
  const cart = isRecord(payload.shoppingCart) ? payload.shoppingCart : undefined;
  const lines = Array.isArray(cart?.products) ? cart.products.length : 0;
  const total = amountOf(cart?.grandTotal);
  const insight = isRecord(payload.customerInsight) ? payload.customerInsight : {};
  return {
    cart: lines > 0,
    total: lines > 0 && total !== undefined && total.amount > 0,
    address: addressGiven(payload, lazy),
    contact: contactGiven(payload, lazy),
    keywords: Array.isArray(insight.product_keyword) && insight.product_keyword.length > 0,
  };
}
