/**
 * The emulator profile: the droid, its channels, customers with their conversations, the
 * product catalogue the rule engine sells from, and the droid's intents (names, the detectors
 * and keywords that raise them, an optional intent webhook). Validated with zod (strict: a typo
 * is an error, reported at file:line:col by load.ts).
 */
import { z } from 'zod';
import { customerSchema } from '../../contract/service.js';
import { isoTimestampSchema, MESSAGE_CONTENT_TYPES, MESSAGE_SENDER_TYPES } from '../../contract/index.js';
import { DEFAULT_INTENTS } from '../ai/intent-config.js';
import { DETECTORS } from '../ai/intents.js';
import { WEAKNESSES } from '../ai/weaknesses.js';

const offsetSchema = z.string().regex(/^[+-]\d\d:\d\d$/, 'expected a UTC offset like +07:00');

const profileProductSchema = z.strictObject({
  name: z.string().min(1),
  /** Product code for the intent webhook's cart lines; default: the name as a slug ("OXFORD-SHIRT"). */
  code: z.string().min(1).optional(),
  price: z.number().nonnegative(),
  keywords: z.array(z.string().min(1)).min(1),
});

const profileCatalogueSchema = z.strictObject({
  currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as THB'),
  shippingFee: z.number().nonnegative(),
  freeShippingThreshold: z.number().nonnegative(),
  products: z.array(profileProductSchema).min(1),
});

const profileChannelSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(['line', 'facebook', 'whatsapp', 'webchat']),
  name: z.string(),
  status: z.enum(['active', 'inactive']).default('active'),
});

/**
 * A seeded conversation message. type: who sent it, contentType: its format (docs
 * receiving-webhook.mdx, "Message Type" and "Content Types"); a `button` message's choices are
 * one per line of `content`.
 */
const profileMessageSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(MESSAGE_SENDER_TYPES),
  contentType: z.enum(MESSAGE_CONTENT_TYPES),
  content: z.string(),
  alt: z.string().default(''),
  note: z.string().nullable().default(null),
  createdAt: isoTimestampSchema,
  updatedAt: isoTimestampSchema,
});

const profileCustomerSchema = z.strictObject({
  // Every field the spec names for a customer (spec: Resources, Customer), as the contract has them.
  ...customerSchema.shape,
  customerId: z.number().int(),
  channelId: z.number().int(),
  /** Newest first, as the service returns them (spec: Conversation message). */
  conversations: z.array(profileMessageSchema).default([]),
});
export type ProfileCustomer = z.infer<typeof profileCustomerSchema>;

/**
 * One of the droid's intents (docs tuning/add-intent.mdx; intent-webhook.mdx). `name` is what
 * `intents` reports; `detects` the rule engine's detectors that raise it, `keywords` extra words;
 * `webhook` the "Call third party API" setting (URL and "API Secret Key", sent in the body).
 */
const profileIntentSchema = z
  .strictObject({
    name: z.string().min(1).max(64),
    detects: z.array(z.enum(DETECTORS)).default([]),
    keywords: z.array(z.string().min(1)).default([]),
    webhook: z
      .strictObject({
        url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
        secret: z.string().default(''),
      })
      .optional(),
  })
  .refine((i) => i.detects.length + i.keywords.length > 0, {
    message: 'an intent needs "detects" or "keywords"',
    path: ['detects'],
  });

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
    /** The droid's intents in priority order. Default: the built-in set (includes product_inquiry). */
    intents: z
      .array(profileIntentSchema)
      .min(1)
      .default(() => DEFAULT_INTENTS.map((i) => ({ ...i, detects: [...i.detects], keywords: [...i.keywords] }))),
    /**
     * Planted weaknesses for `droidcheck redteam` (and a burst's checks, last-human-turn-only) to
     * find (ai/weaknesses.ts). Default none: a robust droid. Never turn them on against anything
     * but a demonstration.
     */
    weaknesses: z
      .array(z.enum(WEAKNESSES))
      .default([])
      .describe(
        `planted weaknesses a red team (or a burst, last-human-turn-only) should find: ${WEAKNESSES.join(', ')} (default none)`,
      ),
    /**
     * The planted knee (ai/degrade.ts): above this many answers in progress, answers lose their
     * cart and intents and become a generic apology, on time. Default null: never. For
     * demonstrating `capacity --min-pass-rate`, never a droid's real behaviour.
     */
    degradeAbove: z
      .number()
      .int()
      .positive()
      .nullable()
      .default(null)
      .describe('above this many answers in progress, answers degrade to a generic apology (default null: never)'),
  })
  .superRefine((p, ctx) => {
    const names = new Set<string>();
    p.intents.forEach((intent, i) => {
      if (names.has(intent.name))
        ctx.addIssue({ code: 'custom', path: ['intents', i, 'name'], message: `duplicate intent name ${intent.name}` });
      names.add(intent.name);
    });
    const ids = new Set<number>();
    p.customers.forEach((c, i) => {
      if (ids.has(c.customerId))
        ctx.addIssue({
          code: 'custom',
          path: ['customers', i, 'customerId'],
          message: `duplicate customerId ${c.customerId}`,
        });
      ids.add(c.customerId);
      if (!p.channels.some((ch) => ch.id === c.channelId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['customers', i, 'channelId'],
          message: `no channel with id ${c.channelId}`,
        });
      }
    });
  });
export type EmulatorProfile = z.infer<typeof emulatorProfileSchema>;
