/** A small policy and answer payloads in the specification's shape, for the rule tests. */
import { parsePolicy, type Policy } from '../../src/policy/index.js';

export const POLICY_TEXT = `currency: THB
catalogue:
  - { name: T-Shirt, price: 390.00, aliases: [tee, เสื้อยืด] }
  - { name: Canvas Bag, price: "1,590.00", minPrice: 1500 }
shipping: { fee: 50.00, freeFrom: 1500.00 }
maxDiscount: 10%
forbidden: ["legally binding", "/guarantee(d)? (a )?full refund/i"]
canaries: ["Internal rule 7"]
languages: [th, en]
`;

export const policy = (text = POLICY_TEXT): Policy => parsePolicy(text, 'shop.policy.yaml');

interface Line {
  name?: string;
  price?: unknown;
  count?: unknown;
  total?: unknown;
  [k: string]: unknown;
}

/** An answer payload with `lines`, a fee and a grand total (strings as the service writes them). */
export function answer(
  lines: Line[],
  shippingFee: unknown,
  grandTotal: unknown,
  text = 'Added to your cart.',
): unknown {
  return {
    requestId: 'tpa-test',
    responses: [{ lc: 1, type: 'constructor', id: ['AIMessage'], kwargs: { content: text } }],
    shoppingCart: { products: lines, shippingFee, grandTotal },
    answer: text,
  };
}

/** An answer with text only (an empty cart, as the service shows it: the fee and a zero total). */
export const says = (text: string): unknown => answer([], '50', '0.00 THB', text);
