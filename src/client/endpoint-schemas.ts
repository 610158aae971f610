/**
 * Response types of the endpoints beyond the two answer endpoints (spec 1-7, 10): the shapes
 * of droidcheck's choice where the spec says "not shown" (src/contract/service.ts). The
 * client checks each body against `CONTRACTS[endpoint]` (both tiers); the schemas are
 * re-exported under their client names for callers that used them.
 */
import type { z } from 'zod';
import type {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerSchema,
  customerUpdateResponseSchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  sendResponseSchema,
} from '../contract/index.js';

export type ChannelsResponse = z.infer<typeof channelsResponseSchema>;
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;
export type CustomerResponse = z.infer<typeof customerSchema>;
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;
export type AskResponse = z.infer<typeof askResponseSchema>;
export type SendResponse = z.infer<typeof sendResponseSchema>;
export type SetBotResponse = z.infer<typeof customerUpdateResponseSchema>;
export type ImageAltResponse = z.infer<typeof imageAltResponseSchema>;
