/**
 * Requests and responses of the endpoints other than the two answer endpoints (spec: Endpoints
 * 1-7 and 10; docs thirdparty/endpoint.mdx). Two tiers (docs/service-reference.md):
 * - `...DocumentedSchema` / schemas without a CHOICE mark: what the spec or the docs show;
 * - `...Schema` marked CHOICE: droidcheck's (and the emulator's) choice where the spec says
 *   "not shown". Never a violation; a difference is an "unverified shape" note.
 * Objects are loose: fields neither tier names are listed as unknown fields, not failures.
 */
import { z } from 'zod';
import { isoTimestampSchema } from './common.js';

/**
 * spec: Conversation message (the table; docs endpoint.mdx §4 example). The value lists of
 * type/contentType are "not shown": strings. `note` "null or other".
 */
const conversationMessageSchema = z.looseObject({
  id: z.number(),
  type: z.string(),
  contentType: z.string(),
  content: z.string(),
  alt: z.string(),
  note: z.unknown(),
  createdAt: isoTimestampSchema,
  updatedAt: isoTimestampSchema,
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

/** A body whose shape the spec does not show: any JSON value (documented tier of endpoints 1, 2, 6, 7, 10). */
export const notShownSchema = z.unknown();

/** CHOICE (spec 1, "Fields of a channel record: not shown"): id, type, name, status. */
const channelSchema = z.looseObject({
  id: z.number(),
  type: z.string(),
  name: z.string(),
  status: z.string(),
});
export type Channel = z.infer<typeof channelSchema>;

/** CHOICE (spec 1, "Response shape: not shown"): {channels, total}. */
export const channelsResponseSchema = z.looseObject({
  channels: z.array(channelSchema),
  total: z.number(),
});

/** CHOICE (spec 2, "Response shape ... not shown"): {customerId, messages (newest first), total}. */
export const messagesResponseSchema = z.looseObject({
  customerId: z.number(),
  messages: z.array(conversationMessageSchema),
  total: z.number(),
});

/** spec 4 (docs endpoint.mdx §4 example): {conversations, total}, newest first. Documented. */
export const conversationsResponseSchema = z.looseObject({
  conversations: z.array(conversationMessageSchema),
  total: z.number(),
});

/** The customer fields the spec names (spec: Resources, Customer; docs endpoint.mdx §3). */
const CUSTOMER_FIELDS = [
  'customerId',
  'externalId',
  'channelId',
  'botEnabled',
  'avatar',
  'socialName',
  'name',
  'phone',
  'address',
  'city',
  'zipcode',
  'email',
  'language',
] as const;

const present = z.custom<unknown>((v) => v !== undefined, {
  message: 'a field the spec names for a customer is missing',
});

/**
 * spec 3: every named field is present; only botEnabled's type is given (boolean). Documented.
 */
export const customerDocumentedSchema = z.looseObject({
  ...Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, present])),
  botEnabled: z.boolean(),
});

/** CHOICE (spec 3, other types "not shown"): customerId and channelId numbers, the rest strings ("" when unknown). */
export const customerSchema = z.looseObject({
  customerId: z.number(),
  externalId: z.string(),
  channelId: z.number(),
  botEnabled: z.boolean(),
  avatar: z.string(),
  socialName: z.string(),
  name: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  zipcode: z.string(),
  email: z.string(),
  language: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

/** spec 5: prompt required, at most 500 characters (spec: Limits). */
export const ASK_PROMPT_MAX = 500;
/** spec 5 (docs endpoint.mdx §5 example): {answer}. Documented. */
export const askResponseSchema = z.looseObject({ answer: z.string() });

/**
 * spec 6: humanMessage (text or a public image URL) is named; "the way the customer is
 * identified: not shown". CHOICE: {customerId, humanMessage: string}.
 */
const sendRequestSchema = z.looseObject({
  customerId: z.union([z.number(), z.string()]),
  humanMessage: z.string().min(1),
});
export type SendRequest = z.infer<typeof sendRequestSchema>;

/**
 * CHOICE (spec 6, "response shape: not shown"): `{success: true, mid}`, `mid` the id of the stored
 * message as the message-forwarding webhook carries it. The bot's reply is not in this response:
 * it is stored later and arrives through the message-forwarding webhook (docs receiving-webhook.mdx).
 */
export const sendResponseSchema = z.looseObject({
  success: z.boolean(),
  mid: z.string(),
});

/** CHOICE (spec 7, "Response shape: not shown"): {success, customerId, botEnabled}. */
export const customerUpdateResponseSchema = z.looseObject({
  success: z.boolean(),
  customerId: z.number(),
  botEnabled: z.boolean(),
});

/** CHOICE (spec 10, "field names: not shown"): {altText, executionTime (ms), trackingId}. */
export const imageAltResponseSchema = z.looseObject({
  altText: z.string(),
  executionTime: z.number(),
  trackingId: z.string(),
});
