/**
 * `shipping-fee`: the cart's shipping fee is the one the policy's shipping rule gives for the
 * cart's subtotal (the sum of its line totals): `fee`, or 0 from `freeFrom` on. An empty cart is
 * not judged (the service shows its fee there with a zero grand total: its async page's example).
 * Undecided: no fee in the cart, a line total that cannot be read, another currency. Not
 * applicable: no cart, or an empty one.
 *
 * Source: the specification's answer payload (`shoppingCart.shippingFee`, a string; the
 * service's async page shows a bare amount, "10"); the shop's rule is the policy's `shipping`.
 */
import { feeFor, foreign, lineTotal } from '../catalogue.js';
import { formatAmount, sameAmount } from '../money.js';
import { notApplicable, undecided, type PolicyRule } from '../types.js';

export const shippingFee: PolicyRule<'shipping-fee'> = {
  id: 'shipping-fee',
  key: 'shipping',
  source: "the specification's answer payload (shoppingCart.shippingFee); the policy's shipping rule",
  applies: (policy) => policy.shipping !== undefined,
  check(policy, answer) {
    const cart = answer.cart;
    if (!cart || cart.lines.length === 0) return notApplicable();
    const totals = cart.lines.map(lineTotal);
    const fee = cart.shippingFee;
    if (!fee) return undecided('no shipping fee');
    if (totals.some((t) => t === undefined)) return undecided('a cart line whose total cannot be read');
    if (
      foreign(policy, fee.value) ||
      cart.lines.some((l) => foreign(policy, l.total?.value) || foreign(policy, l.price?.value))
    )
      return undecided(`an amount in another currency than ${policy.currency}`);
    const subtotal = (totals as number[]).reduce((a, b) => a + b, 0);
    const want = feeFor(policy, subtotal);
    if (sameAmount(fee.value.amount, want)) return { findings: [] };
    const money = (n: number): string => formatAmount(n, policy.currency);
    const rule =
      policy.shipping?.freeFrom !== undefined
        ? `${money(policy.shipping.fee)}, free from ${money(policy.shipping.freeFrom)}`
        : money(policy.shipping?.fee ?? 0);
    return {
      findings: [
        {
          field: fee.field,
          expected: money(want),
          got: money(fee.value.amount),
          message: `shipping fee ${money(fee.value.amount)} for a subtotal of ${money(subtotal)}; the shipping rule (${rule}) gives ${money(want)}`,
        },
      ],
    };
  },
};
