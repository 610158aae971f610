import { describe, expect, it } from 'vitest';
import { answerMatch } from '../../src/receiver/answer-match.js';
import { answerPayload, errorPayload } from './payloads.js';

describe('answerMatch: the two-tier webhook contract travels with the match', () => {
  it("checks droidcheck's choice tier too (on read): a cart amount in another format is unverified, not a violation", () => {
    const m = answerMatch(
      { ...answerPayload('tpa-1'), shoppingCart: { products: [], shippingFee: '10.00 THB', grandTotal: '0.00 THB' } },
      1,
    );
    expect([m.kind, m.contract.ok, m.contract.violations]).toEqual(['answered', true, []]);
    expect(m.contract.unverified.map((d) => d.path)).toEqual(['shoppingCart.shippingFee']);
  });

  it('checks an error payload against the error payload contract', () => {
    const m = answerMatch(errorPayload('tpa-2'), 1);
    expect([m.kind, m.contract.ok, m.contract.unverified]).toEqual(['failed', true, []]);
    const bad = answerMatch({ ...errorPayload('tpa-3'), answer: 'not empty' }, 1);
    expect(bad.contract.violations.map((v) => v.path)).toEqual(['answer']);
  });
});
