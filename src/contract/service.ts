/**
 * Requests and responses of the endpoints other than the two answer endpoints
 * (spec: Endpoints 1-7 and 10). Where the spec says "not shown", the shape here is
 * droidcheck's choice, marked CHOICE and listed in docs/spec-choices.md.
 * Objects are loose: a real service's extra fields are warnings, not failures.
 */
import { z } from 'zod';
import { isoTimestampSchema } from './common.js';

/** spec: Conversation message. type/contentType value lists are "not shown": strings. */
export const conversationMessageSchema = z.looseObject({
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

/** CHOICE (spec 1, "Fields of a channel record: not shown"): id, type, name, status. */
export const channelSchema = z.looseObject({
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

/** spec 2, "Response shape: not shown". CHOICE: {customerId, messages (newest first), total}. */
export const messagesResponseSchema = z.looseObject({
  customerId: z.number(),
  messages: z.array(conversationMessageSchema),
  total: z.number(),
});

/** spec 4: {conversations, total}, newest first. */
export const conversationsResponseSchema = z.looseObject({
  conversations: z.array(conversationMessageSchema),
  total: z.number(),
});
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;

/**
 * spec 3: the named fields; only botEnabled's type is given. CHOICE: customerId and channelId
 * numbers, the rest strings ("" when unknown).
 */
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
export const askRequestSchema = z.looseObject({ prompt: z.string().min(1).max(ASK_PROMPT_MAX) });
export type AskRequest = z.infer<typeof askRequestSchema>;
/** spec 5: {answer}. */
export const askResponseSchema = z.looseObject({ answer: z.string() });
export type AskResponse = z.infer<typeof askResponseSchema>;

/**
 * spec 6: humanMessage (text or a public image URL); "the way the customer is identified: not
 * shown". CHOICE: {customerId, humanMessage: string}.
 */
export const sendRequestSchema = z.looseObject({
  customerId: z.union([z.number(), z.string()]),
  humanMessage: z.string().min(1),
});
export type SendRequest = z.infer<typeof sendRequestSchema>;
/** CHOICE (spec 6, "response shape: not shown"): the stored message and the bot's reply (null when the bot is off). */
export const sendResponseSchema = z.looseObject({
  success: z.boolean(),
  customerId: z.number(),
  message: conversationMessageSchema,
  reply: conversationMessageSchema.nullable(),
});
export type SendResponse = z.infer<typeof sendResponseSchema>;

/** spec 7: {botEnabled: boolean} required. */
export const customerUpdateRequestSchema = z.looseObject({ botEnabled: z.boolean() });
export type CustomerUpdateRequest = z.infer<typeof customerUpdateRequestSchema>;
/** CHOICE (spec 7, "Response shape: not shown"): {success, customerId, botEnabled}. */
export const customerUpdateResponseSchema = z.looseObject({
  success: z.boolean(),
  customerId: z.number(),
  botEnabled: z.boolean(),
});

/** spec 10: supported image extensions. */
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.gif', '.webp'] as const;
export const imageAltRequestSchema = z.looseObject({ imageUrl: z.string().min(1) });
export type ImageAltRequest = z.infer<typeof imageAltRequestSchema>;
/** CHOICE (spec 10, "field names: not shown"): {altText, executionTime (ms), trackingId}. */
export const imageAltResponseSchema = z.looseObject({
  altText: z.string(),
  executionTime: z.number(),
  trackingId: z.string(),
});
export type ImageAltResponse = z.infer<typeof imageAltResponseSchema>;
