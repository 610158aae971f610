/**
 * Shopping cart (spec: shoppingCart {products, shippingFee, grandTotal}). Product line fields
 * are "not shown" in the spec; droidcheck's contract uses {name, quantity, unitPrice, total}.
 */
import type { CartProduct, ShoppingCart } from '../../contract/index.js';
import { formatMoney, type Catalogue, type CatalogueProduct } from './catalogue.js';

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

/** Prices the lines: flat shipping fee, free from `freeShippingThreshold`; empty cart => zero everything. */
export function priceCart(lines: CartLine[], catalogue: Catalogue): PricedCart {
  const cur = catalogue.currency;
  const products: CartProduct[] = lines.map((l) => ({
    name: l.product.name,
    quantity: l.quantity,
    unitPrice: formatMoney(l.product.price, cur),
    total: formatMoney(l.product.price * l.quantity, cur),
  }));
  const subtotal = lines.reduce((sum, l) => sum + l.product.price * l.quantity, 0);
  const shipping = lines.length === 0 || subtotal >= catalogue.freeShippingThreshold ? 0 : catalogue.shippingFee;
  const grandTotal = subtotal + shipping;
  return {
    cart: { products, shippingFee: formatMoney(shipping, cur), grandTotal: formatMoney(grandTotal, cur) },
    subtotal,
    shipping,
    grandTotal,
  };
}
