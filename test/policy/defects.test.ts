/**
 * Findings grouped by defect (src/policy/defects.ts): one row per (rule, subject, expected, got),
 * counted by answers, modes and scenarios; a rule that restates another's finding in the same
 * answer folded under it; shards merged into the same defects.
 */
import { describe, expect, it } from 'vitest';
import { DefectBook, foldAnswer, mergeDefects, subjectOf } from '../../src/policy/defects.js';
import type { PolicyFinding } from '../../src/policy/index.js';

const price = (requestId?: string): PolicyFinding => ({
  rule: 'catalogue-price',
  turn: 1,
  field: 'shoppingCart.products[0].unitPrice',
  expected: '39.00 USD',
  got: '42.90 USD',
  message: 'Flannel shirt at 42.90 USD a unit, the catalogue says 39.00 USD',
  subject: 'Flannel shirt',
  ...(requestId && { requestId }),
});
const discount: PolicyFinding = {
  rule: 'max-discount',
  turn: 1,
  field: 'shoppingCart.grandTotal',
  expected: '>= 44.00 USD',
  got: '42.90 USD',
  message: 'grand total below the list',
};
const phrase = (excerpt: string): PolicyFinding => ({
  rule: 'forbidden-phrase',
  turn: 1,
  field: 'answer',
  expected: 'no legally binding',
  got: excerpt,
  message: 'forbidden phrase',
  same: 'legally binding',
});

describe('findings grouped by defect', () => {
  it("names a defect by its product, else its field without positions; folds a restating rule's finding", () => {
    expect(subjectOf(price())).toBe('Flannel shirt');
    expect(subjectOf({ ...discount, field: 'shoppingCart.products[3].count' })).toBe('shoppingCart.products[].count');
    expect(foldAnswer([price(), discount])).toEqual([{ finding: price(), restated: ['max-discount'] }]);
    // Alone (a discount granted through the total of a cart at list prices), it is a defect of its own.
    expect(foldAnswer([discount])).toEqual([{ finding: discount, restated: [] }]);
  });

  it('counts one defect over answers, modes and scenarios, a phrase whatever text surrounds it', () => {
    const book = new DefectBook();
    book.add([price(), discount], { mode: 'sync', scenario: 'buys a shirt' });
    book.add([price('tpa-1')], { mode: 'async', scenario: 'buys a shirt' });
    book.add([price('tpa-2'), discount], { mode: 'async', scenario: 'buys two shirts' });
    book.add([phrase('… is legally binding.')], { mode: 'sync', scenario: 'refund' });
    book.add([phrase('Legally binding, this…')], { mode: 'async', scenario: 'refund' });
    expect(book.list()).toEqual([
      {
        rule: 'catalogue-price',
        subject: 'Flannel shirt',
        expected: '39.00 USD',
        got: '42.90 USD',
        answers: 3,
        modes: ['async', 'sync'],
        scenarios: ['buys a shirt', 'buys two shirts'],
        scenarioCount: 2,
        requestId: 'tpa-1',
        restated: { 'max-discount': 2 },
      },
      {
        rule: 'forbidden-phrase',
        subject: 'answer',
        expected: 'no legally binding',
        got: 'legally binding',
        answers: 2,
        modes: ['async', 'sync'],
        scenarios: ['refund'],
        scenarioCount: 1,
        restated: {},
      },
    ]);
  });

  it("merges shards' defects: counts added, modes and scenarios united", () => {
    const a = new DefectBook();
    a.add([price()], { mode: 'sync', scenario: 's1' });
    const b = new DefectBook();
    b.add([price('tpa-9'), discount], { mode: 'async', scenario: 's2' });
    expect(mergeDefects([a.list(), b.list()])).toEqual([
      expect.objectContaining({
        rule: 'catalogue-price',
        answers: 2,
        modes: ['async', 'sync'],
        scenarios: ['s1', 's2'],
        scenarioCount: 2,
        requestId: 'tpa-9',
        restated: { 'max-discount': 1 },
      }),
    ]);
  });
});
