/**
 * The emulator's product catalogue and money formatting. Prices are in the catalogue's
 * currency (THB by default); money strings read "1,290.00 THB" (spec: shoppingCart.grandTotal,
 * "amount followed by a currency code").
 */

export interface CatalogueProduct {
  /** Display name, e.g. "Oxford shirt". */
  name: string;
  /** Product code (intent webhook `shopping_cart.products[].code`). Default: the name as a slug, e.g. "OXFORD-SHIRT". */
  code?: string;
  /** Unit price in the catalogue currency (major units, e.g. 1290 = 1,290.00). */
  price: number;
  /** Lower-case words and phrases (English and Thai) that name the product. */
  keywords: string[];
}

export interface Catalogue {
  /** ISO 4217 code, e.g. THB. */
  currency: string;
  products: CatalogueProduct[];
  /** Flat shipping fee per order. */
  shippingFee: number;
  /** Orders whose subtotal reaches this amount ship free. */
  freeShippingThreshold: number;
}

export const DEFAULT_CATALOGUE: Catalogue = {
  currency: 'THB',
  shippingFee: 50,
  freeShippingThreshold: 1500,
  products: [
    { name: 'Oxford shirt', price: 1290, keywords: ['oxford shirt', 'oxford', 'shirt', 'เสื้อเชิ้ต', 'เชิ้ต'] },
    { name: 'Cotton T-shirt', price: 390, keywords: ['cotton t-shirt', 't-shirt', 'tshirt', 'tee', 'เสื้อยืด'] },
    { name: 'Linen trousers', price: 1590, keywords: ['linen trousers', 'trousers', 'pants', 'chinos', 'กางเกง'] },
    { name: 'Denim jacket', price: 2490, keywords: ['denim jacket', 'jacket', 'denim', 'แจ็คเก็ต', 'แจ็กเก็ต'] },
    { name: 'Canvas sneakers', price: 1890, keywords: ['canvas sneakers', 'sneakers', 'sneaker', 'shoes', 'รองเท้า'] },
    { name: 'Leather belt', price: 690, keywords: ['leather belt', 'belt', 'เข็มขัด'] },
    { name: 'Silk scarf', price: 890, keywords: ['silk scarf', 'silk scarves', 'scarf', 'scarves', 'ผ้าพันคอ'] },
    { name: 'Tote bag', price: 450, keywords: ['tote bag', 'tote', 'bag', 'กระเป๋า'] },
  ],
};

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "Oxford shirt" => "OXFORD-SHIRT" (the default product code). */
export function productCode(product: CatalogueProduct): string {
  return (
    product.code ??
    (product.name
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') ||
      'PRODUCT')
  );
}

/**
 * A bare amount as the service writes `shippingFee` (async docs page example "10"): no
 * currency, no thousands separator, at most two decimals, no trailing zeros. 50 => "50", 12.5 => "12.5".
 */
export function formatAmount(amount: number): string {
  return String(Math.round(amount * 100) / 100);
}

/** 2580 => "2,580.00 THB". */
export function formatMoney(amount: number, currency: string): string {
  return `${amountFormat.format(amount)} ${currency}`;
}

/** Plural "shirts", "sneakers", "trousers" all end in the keyword or keyword+s/es. */
interface KeywordEntry {
  keyword: string;
  product: CatalogueProduct;
  pattern: RegExp;
}

const compiled = new WeakMap<Catalogue, KeywordEntry[]>();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Keyword patterns, longest first, compiled once per catalogue object. */
function keywordIndex(catalogue: Catalogue): KeywordEntry[] {
  let entries = compiled.get(catalogue);
  if (entries) return entries;
  entries = [];
  for (const product of catalogue.products) {
    for (const keyword of product.keywords) {
      const k = keyword.toLowerCase();
      const thai = /[\u0E00-\u0E7F]/.test(k);
      // English: word boundaries and an optional plural; Thai has no spaces, so a plain substring.
      const source = thai ? escapeRegExp(k) : `(?<![a-z-])${escapeRegExp(k)}(?:s|es)?(?![a-z])`;
      entries.push({ keyword: k, product, pattern: new RegExp(source, 'g') });
    }
  }
  entries.sort((a, b) => b.keyword.length - a.keyword.length);
  compiled.set(catalogue, entries);
  return entries;
}

/** A product named in a text, with where its mention starts and ends. */
export interface ProductMention {
  product: CatalogueProduct;
  start: number;
  end: number;
}

/** Finds product mentions in `text`; longer keywords win over the shorter ones they contain. */
export function findProducts(text: string, catalogue: Catalogue): ProductMention[] {
  const lower = text.toLowerCase();
  const taken: ProductMention[] = [];
  for (const entry of keywordIndex(catalogue)) {
    entry.pattern.lastIndex = 0;
    for (let m = entry.pattern.exec(lower), n = 0; m && n < 50; m = entry.pattern.exec(lower), n++) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some((t) => start < t.end && end > t.start)) continue;
      taken.push({ product: entry.product, start, end });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
