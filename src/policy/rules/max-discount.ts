/**
 * `max-discount`: the grand total never goes below the list prices x counts x (1 - maxDiscount)
 * plus the shipping fee the policy gives for the list subtotal. A product with a `minPrice`
 * may go down to it (whichever floor is lower), so a promotion the catalogue allows is never a
 * finding here. Catches what the other rules cannot see: a discount granted through the total
 * while every line keeps its list price, or a consistent cart at cut prices.
 * Undecided: a line naming no product of the catalogue, a line without a count (or a negative
 * one: cart-arithmetic reports it), no grand total, another currency. Not applicable: no cart,
 * or an empty one.
 *
 * Source: the shop's policy (`maxDiscount`, `catalogue`, `shipping`); the grand total of the
 * specification's answer payload.
 */
import { feeFor, foreign, productOf } from '../catalogue.js';
import { atLeast, formatAmount } from '../money.js';
import { notApplicable, undecided, type PolicyRule } from '../types.js';

export const maxDiscount: PolicyRule<'max-discount'> = {
  id: 'max-discount',
  key: 'maxDiscount',
  source: "the policy's maxDiscount, catalogue and shipping; the specification's shoppingCart.grandTotal",
  applies: (policy) => policy.maxDiscount !== undefined && (policy.catalogue?.length ?? 0) > 0,
  check(policy, answer) {
    const cart = answer.cart;
    if (!cart || cart.lines.length === 0) return notApplicable();
    const share = policy.maxDiscount ?? 0;
    let list = 0;
    let floor = 0;
    for (const line of cart.lines) {
      const product = productOf(policy, line);
      const count = line.count?.value;
      if (!product) return undecided('a cart line naming no product of the catalogue');
      if (count === undefined) return undecided('a cart line without a count');
      if (count < 0) return undecided('a cart line with a negative count');
      list += product.price * count;
      floor += Math.min(product.price * (1 - share), product.minPrice ?? Number.POSITIVE_INFINITY) * count;
    }
    const total = cart.grandTotal;
    if (!total) return undecided('no grand total');
    if (foreign(policy, total.value)) return undecided(`an amount in another currency than ${policy.currency}`);
    const fee = feeFor(policy, list);
    const least = floor + fee;
    if (atLeast(total.value.amount, least)) return { findings: [] };
    const money = (n: number): string => formatAmount(n, policy.currency);
    const pct = `${Math.round(share * 10000) / 100}%`;
    return {
      findings: [
        {
          field: total.field,
          expected: `>= ${money(least)}`,
          got: money(total.value.amount),
          message: `grand total ${money(total.value.amount)} is ${money(list + fee - total.value.amount)} below the list (${money(list)} + shipping ${money(fee)}); the policy allows at most ${pct} off (${money(least)})`,
        },
      ],
    };
  },
};
