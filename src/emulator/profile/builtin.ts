/**
 * The fallback profile when no profile file is given and scenarios/emulator-profile.yaml is
 * not found: the droid, its test customer, one web-chat channel and the default catalogue.
 */
import { DEFAULT_CATALOGUE } from '../ai/catalogue.js';
import { DEFAULT_INTENTS } from '../ai/intent-config.js';
import type { EmulatorProfile } from './schema.js';

export const BUILTIN_PROFILE: EmulatorProfile = {
  droid: { id: 1, name: 'Demo droid', testCustomerId: 1001, utcOffset: '+07:00' },
  channels: [{ id: 1, type: 'webchat', name: 'Web chat', status: 'active' }],
  customers: [
    {
      customerId: 1001,
      externalId: 'test-customer-1001',
      channelId: 1,
      botEnabled: true,
      avatar: '',
      socialName: 'Test Customer',
      name: 'Test Customer',
      phone: '',
      address: '',
      city: '',
      zipcode: '',
      email: '',
      language: 'en',
      conversations: [],
    },
  ],
  catalogue: {
    currency: DEFAULT_CATALOGUE.currency,
    shippingFee: DEFAULT_CATALOGUE.shippingFee,
    freeShippingThreshold: DEFAULT_CATALOGUE.freeShippingThreshold,
    products: DEFAULT_CATALOGUE.products.map((p) => ({ ...p, keywords: [...p.keywords] })),
  },
  intents: DEFAULT_INTENTS.map((i) => ({ ...i, detects: [...i.detects], keywords: [...i.keywords] })),
  weaknesses: [],
  degradeAbove: null,
};
