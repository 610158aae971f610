/**
 * Response schemas of the endpoints beyond the two answer endpoints (spec 1-7, 10), from
 * src/contract/service.ts (the shapes marked CHOICE there are droidcheck's where the spec says
 * "not shown"). One place maps endpoint to schema for the client.
 */
import type { z } from 'zod';
import {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerSchema,
  customerUpdateResponseSchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  sendResponseSchema,
} from '../contract/index.js';

export {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerSchema as customerResponseSchema,
  customerUpdateResponseSchema as setBotResponseSchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  sendResponseSchema,
};

export type ChannelsResponse = z.infer<typeof channelsResponseSchema>;
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;
export type CustomerResponse = z.infer<typeof customerSchema>;
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;
export type AskResponse = z.infer<typeof askResponseSchema>;
export type SendResponse = z.infer<typeof sendResponseSchema>;
export type SetBotResponse = z.infer<typeof customerUpdateResponseSchema>;
export type ImageAltResponse = z.infer<typeof imageAltResponseSchema>;
