/**
 * Emulator profile loading and validation.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { createEmulator, DEFAULT_PROFILE_PATH, loadProfile, parseProfile } from '../../src/emulator/index.js';

describe('emulator profile', () => {
  it('loads the default profile with four channels and customers newest-first', () => {
    const p = loadProfile(DEFAULT_PROFILE_PATH);
    expect(p.droid).toMatchObject({ id: 1, testCustomerId: 1001 });
    expect(p.channels.map((c) => c.type).sort()).toEqual(['facebook', 'line', 'webchat', 'whatsapp']);
    for (const c of p.customers) {
      const ids = c.conversations.map((m) => m.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    }
    expect(p.catalogue.products.length).toBeGreaterThanOrEqual(8);
  });

  it('reports a typo and a bad value with file:line:col', () => {
    const text = [
      'droid: { id: 1, testCustomerId: 5 }',
      'channels: []',
      'customers: []',
      'catalogue:',
      '  currency: baht',
      '  shippingFee: 50',
      '  freeShippingThreshold: 1500',
      '  prodcts: []',
    ].join('\n');
    let err: unknown;
    try {
      parseProfile(text, 'p.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const issues = (err as ScenarioError).issues;
    expect(issues.some((i) => i.location.line === 5 && i.message.includes('currency'))).toBe(true);
    expect(issues.some((i) => i.message.includes('prodcts') || i.message.includes('products'))).toBe(true);
    expect((err as ScenarioError).code).toBe('DROIDCHECK_ERR_SCENARIO');
  });

  it('rejects a customer on a channel that does not exist', async () => {
    const base = loadProfile();
    await expect(createEmulator({ profile: { ...base, channels: [] } })).rejects.toThrow(/no channel with id/);
  });

  it('takes the droid id, test customer and catalogue from a profile object', async () => {
    const base = loadProfile();
    const emulator = await createEmulator({
      profile: {
        ...base,
        droid: { ...base.droid, id: 42, testCustomerId: null },
        catalogue: { ...base.catalogue, currency: 'USD' },
      },
    });
    try {
      expect(emulator.droidId).toBe(42);
      expect(emulator.testCustomerId).toBeNull();
      const res = await emulator.app.inject({
        method: 'POST',
        url: '/api/droids/42/endpoint/get-droid-answer',
        headers: { authorization: `Bearer ${emulator.token}` },
        payload: { humanMessage: { content: 'I want to buy a belt' } },
      });
      expect(res.json().shoppingCart.grandTotal).toBe('740.00 USD');
    } finally {
      await emulator.close();
    }
  });
});
