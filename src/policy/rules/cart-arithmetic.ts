/**
 * `cart-arithmetic`: the cart adds up. Each line's count is a whole number, not negative; its
 * total is its unit price x its count; the grand total is the line totals plus the shipping
 * fee. An empty cart is not summed: the service shows its shipping fee with a zero grand total
 * there (its async page's example: `products: []`, `shippingFee: "10"`, `grandTotal: "0.00 THB"`).
 * Undecided: a line without price, count or total, a cart without a grand total or fee, or an
 * amount in another currency than the policy's. Not applicable: no cart, or an empty one.
 *
 * Source: the specification's answer payload (`shoppingCart`: products, shippingFee, grandTotal
 * "amount followed by a currency code"); the line's `price`, `count` and `total` as the service's
 * intent-webhook page documents them.
 */
import { foreign, lineTotal } from '../catalogue.js';
import { formatAmount, sameAmount } from '../money.js';
import { notApplicable, type PolicyRule, type RuleFinding, type RuleResult } from '../types.js';

export const cartArithmetic: PolicyRule<'cart-arithmetic'> = {
  id: 'cart-arithmetic',
  key: 'currency',
  // The cart must add up whatever the policy says: a finding is the answer's, not a policy line's.
  limit: 'answer',
  source: "the specification's answer payload (shoppingCart); line fields of the service's intent-webhook page",
  applies: () => true,
  check(policy, answer) {
    const cart = answer.cart;
    if (!cart || cart.lines.length === 0) return notApplicable();
    const money = (n: number): string => formatAmount(n, policy.currency);
    const findings: RuleFinding[] = [];
    let undecided: string | undefined;
    for (const line of cart.lines) {
      const name = line.name ?? line.code ?? `line ${line.index + 1}`;
      const count = line.count?.value;
      if (line.count && count !== undefined && (count < 0 || !Number.isInteger(count))) {
        findings.push({
          field: line.count.field,
          expected: 'a whole number >= 0',
          got: String(count),
          message: `${name}: a count of ${count} is not a quantity anyone can buy`,
          subject: name,
        });
      }
      if (!line.price || !line.count || !line.total) {
        undecided ??= `a cart line without a ${!line.price ? 'unit price' : !line.count ? 'count' : 'line total'}`;
        continue;
      }
      if (foreign(policy, line.price.value) || foreign(policy, line.total.value)) {
        undecided ??= `an amount in another currency than ${policy.currency}`;
        continue;
      }
      const want = line.price.value.amount * line.count.value;
      if (!sameAmount(line.total.value.amount, want))
        findings.push({
          field: line.total.field,
          expected: money(want),
          got: money(line.total.value.amount),
          message: `${name}: line total ${money(line.total.value.amount)} is not ${line.count.value} x ${money(line.price.value.amount)} = ${money(want)}`,
          subject: name,
        });
    }
    const totals = cart.lines.map(lineTotal);
    const { grandTotal, shippingFee } = cart;
    const cannotSum = (why: string): RuleResult =>
      findings.length > 0 ? { findings } : { findings, undecided: undecided ?? why };
    if (!grandTotal) return cannotSum('no grand total');
    if (!shippingFee) return cannotSum('no shipping fee');
    if (totals.some((t) => t === undefined)) return cannotSum('a cart line whose total cannot be read');
    if (
      foreign(policy, grandTotal.value) ||
      foreign(policy, shippingFee.value) ||
      cart.lines.some((l) => foreign(policy, l.total?.value) || foreign(policy, l.price?.value))
    )
      return cannotSum(`an amount in another currency than ${policy.currency}`);
    const sum = (totals as number[]).reduce((a, b) => a + b, 0);
    const want = sum + shippingFee.value.amount;
    if (!sameAmount(grandTotal.value.amount, want))
      findings.push({
        field: grandTotal.field,
        expected: money(want),
        got: money(grandTotal.value.amount),
        message: `grand total ${money(grandTotal.value.amount)} is not the line totals ${money(sum)} + the shipping fee ${money(shippingFee.value.amount)} = ${money(want)}`,
      });
    return undecided !== undefined && findings.length === 0 ? { findings, undecided } : { findings };
  },
};
