/**
 * `catalogue-price`: every cart line's unit price is the catalogue's list price, or lies
 * between the product's `minPrice` and its `price` when the policy gives a floor for promotions.
 * A line naming no product of the catalogue is a finding of its own ("unknown product"): a
 * droid that sells what the shop does not list has made a commitment the shop cannot keep.
 * Undecided: a line without a name and code, or without a unit price (or one written in another
 * currency). Not applicable: no cart line.
 *
 * Source: the shop's price list (the policy's `catalogue`); the line's fields as the service
 * documents them for its intent webhook (`products[].name`, `price` of one unit, `count`, `total`).
 */
import { foreign, productOf } from '../catalogue.js';
import { formatAmount } from '../money.js';
import { notApplicable, type PolicyRule, type RuleFinding } from '../types.js';

export const cataloguePrice: PolicyRule<'catalogue-price'> = {
  id: 'catalogue-price',
  key: 'catalogue',
  source: "the policy's catalogue; cart lines as the service's intent webhook documents them (price, count, total)",
  applies: (policy) => (policy.catalogue?.length ?? 0) > 0,
  check(policy, answer) {
    const lines = answer.cart?.lines ?? [];
    if (lines.length === 0) return notApplicable();
    const findings: RuleFinding[] = [];
    let undecided: string | undefined;
    for (const line of lines) {
      const base = `shoppingCart.products[${line.index}]`;
      if (line.name === undefined && line.code === undefined) {
        undecided ??= 'a cart line without a name or code';
        continue;
      }
      const product = productOf(policy, line);
      if (!product) {
        const named = line.name ?? line.code ?? '';
        findings.push({
          field: `${base}.${line.name !== undefined ? 'name' : 'code'}`,
          expected: 'a product of the catalogue',
          got: named,
          message: `unknown product "${named}": the catalogue lists no product or alias of that name`,
          subject: named,
        });
        continue;
      }
      if (!line.price || foreign(policy, line.price.value)) {
        undecided ??= line.price
          ? `an amount in another currency than ${policy.currency}`
          : 'a cart line without a unit price';
        continue;
      }
      const got = line.price.value.amount;
      const floor = product.minPrice ?? product.price;
      const cents = Math.round(got * 100);
      if (cents >= Math.round(floor * 100) && cents <= Math.round(product.price * 100)) continue;
      const expected =
        product.minPrice !== undefined
          ? `${formatAmount(product.minPrice, policy.currency)} to ${formatAmount(product.price, policy.currency)}`
          : formatAmount(product.price, policy.currency);
      findings.push({
        field: line.price.field,
        expected,
        got: formatAmount(got, policy.currency),
        message: `${product.name} at ${formatAmount(got, policy.currency)} a unit, the catalogue says ${expected}`,
        subject: product.name,
      });
    }
    return undecided !== undefined && findings.length === 0 ? { findings, undecided } : { findings };
  },
};
