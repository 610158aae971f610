/** computeParity: sync vs async answers of the same scenario and repeat, field by field. */
import { describe, expect, it } from 'vitest';
import { computeParity, diffAnswers } from '../../src/report/sections/parity.js';
import { record } from './fixtures.js';

const answer = (over: Record<string, unknown> = {}) => ({
  intents: ['purchase', 'greeting'],
  shoppingCart: {
    products: [{ name: 'Oxford shirt', quantity: 2 }],
    shippingFee: '0.00 THB',
    grandTotal: '2,580.00 THB',
  },
  addressParsing: {
    street_address: '99 Sukhumvit Rd',
    subdistrict: '',
    district: '',
    city: 'Bangkok',
    postal_code: '10110',
    country: 'Thailand',
  },
  customerInsight: { user_language: 'en' },
  ...over,
});

describe('computeParity', () => {
  it('ignores intent order and reports the fields that differ', () => {
    expect(diffAnswers(answer(), answer({ intents: ['greeting', 'purchase'] }))).toEqual([]);
    const diff = diffAnswers(
      answer(),
      answer({
        addressParsing: { ...answer().addressParsing, city: 'Bangkok Metropolis' },
        customerInsight: { user_language: 'th' },
        intents: ['purchase'],
      }),
    );
    expect(diff).toEqual([
      { field: 'intents', path: 'intents', sync: ['greeting', 'purchase'], async: ['purchase'] },
      { field: 'address', path: 'addressParsing.city', sync: 'Bangkok', async: 'Bangkok Metropolis' },
      { field: 'language', path: 'customerInsight.user_language', sync: 'en', async: 'th' },
    ]);
  });

  it('pairs records by scenario and repeat, skipping unanswered and one-mode scenarios', () => {
    const cart = answer({
      shoppingCart: {
        products: [{ name: 'Oxford shirt', quantity: 3 }],
        shippingFee: '0.00 THB',
        grandTotal: '3,870.00 THB',
      },
    });
    const report = computeParity([
      record({ scenario: 'buy', mode: 'sync', repeat: 0, answer: answer() }),
      record({ scenario: 'buy', mode: 'async', repeat: 0, answer: cart }),
      record({ scenario: 'buy', mode: 'sync', repeat: 1, answer: answer() }),
      record({ scenario: 'buy', mode: 'async', repeat: 1, answer: answer() }),
      record({ scenario: 'only sync', mode: 'sync', answer: answer() }),
      record({ scenario: 'timed out', mode: 'sync', answer: answer() }),
      record({ scenario: 'timed out', mode: 'async', outcome: 'timeout', passed: false }),
    ]);
    expect(report.compared).toBe(2);
    expect(report.differing).toBe(1);
    expect(report.byField).toEqual({ intents: 0, cart: 1, address: 0, language: 0 });
    expect(report.entries[0]?.differences.map((d) => d.path)).toEqual([
      'shoppingCart.products',
      'shoppingCart.grandTotal',
    ]);
  });

  it('compares scenarios with steps turn by turn', () => {
    const steps = (a: unknown) => [
      {
        index: 0,
        kind: 'channels' as const,
        endpoint: 'channels',
        outcome: 'answered' as const,
        passed: true,
        failures: [],
        body: {},
      },
      {
        index: 1,
        kind: 'say' as const,
        endpoint: 'x',
        outcome: 'answered' as const,
        passed: true,
        failures: [],
        body: a,
      },
    ];
    const report = computeParity([
      record({ scenario: 's', mode: 'sync', steps: steps(answer()) }),
      record({ scenario: 's', mode: 'async', steps: steps(answer({ intents: [] })) }),
    ]);
    expect(report.entries).toEqual([
      {
        suite: 'Shop',
        scenario: 's',
        repeat: 0,
        turn: 0,
        differences: [expect.objectContaining({ field: 'intents' })],
      },
    ]);
  });
});
