/**
 * The two webhooks the real service's documentation shows beyond the answer webhook
 * (docs/service-reference.md, "The three webhooks"). Both are documented shapes: a violation is a
 * finding.
 *
 * - Message forwarding ("Receiving Message Webhooks", docs page thirdparty/receiving-webhook.mdx):
 *   "when a message is sent or received" the service POSTs a `MessageForwarding` body to the
 *   configured URL with `?verify_token=<token>` appended; the docs' example receiver answers a
 *   wrong token with 403. This is where real customerIds come from, and where a bot's reply to
 *   `send` arrives (spec: endpoint 9, note 3).
 * - Intent webhook (docs page thirdparty/intent-webhook.mdx): when the AI detects an intent that
 *   has a third-party URL configured, the service POSTs an `IntentWebhookRequest` whose `secret`
 *   (the "API Secret Key") is in the body; the docs' example answers a wrong one with 403
 *   `{"error": "Forbidden"}`.
 * Objects are loose: fields the docs do not name are not violations.
 */
import { z } from 'zod';
import { addressParsingSchema, cartProductSchema } from './answer.js';
import { isoTimestampSchema } from './common.js';

/** Who sent a forwarded message (docs: "Message Type"); `admin` is a human agent. */
export const MESSAGE_SENDER_TYPES = ['human', 'ai', 'system', 'log', 'admin'] as const;
export type MessageSenderType = (typeof MESSAGE_SENDER_TYPES)[number];

/** Format of a forwarded message's content (docs: "Content Types"). */
export const MESSAGE_CONTENT_TYPES = ['text', 'image', 'button', 'carousel'] as const;
export type MessageContentType = (typeof MESSAGE_CONTENT_TYPES)[number];

/**
 * docs: "Content Object": `value` is a string (text, image URL, carousel) or a string array
 * (button); `alt` optional.
 */
export const messageContentSchema = z.looseObject({
  type: z.enum(MESSAGE_CONTENT_TYPES),
  value: z.union([z.string(), z.array(z.string())]),
  alt: z.string().optional(),
});
export type MessageContent = z.infer<typeof messageContentSchema>;

/** docs: `type MessageForwarding` (every field but `note` and `content.alt` required). */
export const messageForwardingSchema = z.looseObject({
  mid: z.string(),
  chatId: z.number(),
  customerId: z.number(),
  droidId: z.number(),
  channelId: z.number(),
  type: z.enum(MESSAGE_SENDER_TYPES),
  content: messageContentSchema,
  note: z.string().optional(),
  createdAt: isoTimestampSchema,
});
export type MessageForwarding = z.infer<typeof messageForwardingSchema>;

/** docs: IntentWebhookRequest.address_parsing: the answer's six strings (spec: addressParsing) and two more. */
const intentAddressSchema = addressParsingSchema.extend({
  village_or_project: z.string(),
  state: z.string(),
});

/** docs: IntentWebhookRequest.payment_method. */
export const PAYMENT_METHODS = ['bank_transfer', 'cash_on_delivery', 'credit_card', 'other'] as const;

/** docs: IntentWebhookRequest.shopping_cart. */
const intentCartSchema = z.looseObject({
  // docs: IntentWebhookRequest.shopping_cart.products[], the line the answer's cart takes as its choice.
  products: z.array(cartProductSchema),
  shippingFee: z.string(),
  grandTotal: z.string(),
  unavailableCount: z.number(),
});

/** docs: IntentWebhookRequest.contact_info (eight strings). */
const intentContactSchema = z.looseObject({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  zipcode: z.string(),
  language: z.string(),
  languageName: z.string(),
});

/** docs: `type IntentWebhookRequest`; `customer_id` is a string (e.g. a UUID), `secret` is in the body. */
export const intentWebhookRequestSchema = z.looseObject({
  mid: z.string(),
  customer_id: z.string(),
  intent: z.string(),
  address_parsing: intentAddressSchema,
  payment_method: z.enum(PAYMENT_METHODS),
  shopping_cart: intentCartSchema,
  contact_info: intentContactSchema,
  secret: z.string(),
  folder: z.string(),
  e: z.string(),
  product_type: z.string(),
});
export type IntentWebhookRequest = z.infer<typeof intentWebhookRequestSchema>;
