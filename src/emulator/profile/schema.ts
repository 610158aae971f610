/**
 * The emulator profile: the droid, its channels, customers with their conversations, and the
 * product catalogue the rule engine sells from. Validated with zod (strict: a typo is an error).
 */
import { z } from 'zod';
import { customerSchema } from '../../contract/service.js';
import { isoTimestampSchema } from '../../contract/index.js';

const offsetSchema = z.string().regex(/^[+-]\d\d:\d\d$/, 'expected a UTC offset like +07:00');

export const profileProductSchema = z.strictObject({
  name: z.string().min(1),
  price: z.number().nonnegative(),
  keywords: z.array(z.string().min(1)).min(1),
});

export const profileCatalogueSchema = z.strictObject({
  currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as THB'),
  shippingFee: z.number().nonnegative(),
  freeShippingThreshold: z.number().nonnegative(),
  products: z.array(profileProductSchema).min(1),
});

export const profileChannelSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(['line', 'facebook', 'whatsapp', 'webchat']),
  name: z.string(),
  status: z.enum(['active', 'inactive']).default('active'),
});

export const profileMessageSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(['human', 'ai']),
  contentType: z.enum(['text', 'image']),
  content: z.string(),
  alt: z.string().default(''),
  note: z.string().nullable().default(null),
  createdAt: isoTimestampSchema,
  updatedAt: isoTimestampSchema,
});
export type ProfileMessage = z.infer<typeof profileMessageSchema>;

export const profileCustomerSchema = z.strictObject({
  // Every field the spec names for a customer (spec: Resources, Customer), as the contract has them.
  ...customerSchema.shape,
  customerId: z.number().int(),
  channelId: z.number().int(),
  /** Newest first, as the service returns them (spec: Conversation message). */
  conversations: z.array(profileMessageSchema).default([]),
});
export type ProfileCustomer = z.infer<typeof profileCustomerSchema>;

export const emulatorProfileSchema = z
  .strictObject({
    droid: z.strictObject({
      id: z.number().int().positive(),
      name: z.string().default('Demo droid'),
      testCustomerId: z.number().int().nullable(),
      /** Offset of the timestamps the emulator writes for new messages. */
      utcOffset: offsetSchema.default('+07:00'),
    }),
    channels: z.array(profileChannelSchema).default([]),
    customers: z.array(profileCustomerSchema).default([]),
    catalogue: profileCatalogueSchema,
  })
  .superRefine((p, ctx) => {
    const ids = new Set<number>();
    p.customers.forEach((c, i) => {
      if (ids.has(c.customerId)) ctx.addIssue({ code: 'custom', path: ['customers', i, 'customerId'], message: `duplicate customerId ${c.customerId}` });
      ids.add(c.customerId);
      if (!p.channels.some((ch) => ch.id === c.channelId)) {
        ctx.addIssue({ code: 'custom', path: ['customers', i, 'channelId'], message: `no channel with id ${c.channelId}` });
      }
    });
  });
export type EmulatorProfile = z.infer<typeof emulatorProfileSchema>;
export type EmulatorProfileInput = z.input<typeof emulatorProfileSchema>;
