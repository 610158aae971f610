/**
 * Shopping cart (spec: shoppingCart {products, shippingFee, grandTotal}). Product line fields
 * are "not shown" in the spec; the emulator's choice is the cart line the service documents for
 * its intent webhook: {code, name, price, count, total, available} (docs intent-webhook.mdx).
 * `shippingFee` is a bare number string ("10" on the async docs page), `grandTotal` an amount and
 * a currency code ("0.00 THB").
 */
import type { CartProduct, ShoppingCart } from '../../contract/index.js';
import { formatAmount, formatMoney, productCode, type Catalogue, type CatalogueProduct } from './catalogue.js';

export interface CartLine {
  product: CatalogueProduct;
  quantity: number;
}

export interface PricedCart {
  cart: ShoppingCart;
  subtotal: number;
  shipping: number;
  grandTotal: number;
}

/** Adds quantities of the same product; keeps first-mention order. At most 99 per line. */
export function mergeLines(lines: CartLine[]): CartLine[] {
  const byName = new Map<string, CartLine>();
  for (const line of lines) {
    const prev = byName.get(line.product.name);
    if (prev) prev.quantity = Math.min(99, prev.quantity + line.quantity);
    else byName.set(line.product.name, { product: line.product, quantity: Math.min(99, line.quantity) });
  }
  return [...byName.values()];
}

/**
 * Prices the lines: flat shipping fee, free from `freeShippingThreshold`. An empty cart shows the
 * droid's shipping fee and a zero grand total, as the async docs page's example does
 * (`products: [], shippingFee: "10", grandTotal: "0.00 THB"`).
 */
export function priceCart(lines: CartLine[], catalogue: Catalogue): PricedCart {
  const products: CartProduct[] = lines.map((l) => ({
    code: productCode(l.product),
    name: l.product.name,
    price: l.product.price,
    count: l.quantity,
    total: l.product.price * l.quantity,
    available: true,
  }));
  const subtotal = lines.reduce((sum, l) => sum + l.product.price * l.quantity, 0);
  const shipping = lines.length === 0 || subtotal >= catalogue.freeShippingThreshold ? 0 : catalogue.shippingFee;
  const grandTotal = subtotal + shipping;
  return {
    cart: {
      products,
      shippingFee: formatAmount(lines.length === 0 ? catalogue.shippingFee : shipping),
      grandTotal: formatMoney(grandTotal, catalogue.currency),
    },
    subtotal,
    shipping,
    grandTotal,
  };
}
