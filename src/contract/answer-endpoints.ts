/**
 * Requests and immediate responses of the two answer endpoints
 * (spec: 8. POST get-droid-answer; 9. POST get-droid-answer-async).
 */
import { z } from 'zod';
import { answerPayloadSchema } from './answer.js';
import { chatHistoryItemSchema, humanMessageSchema, requestIdSchema } from './common.js';

/** spec 9: humanMessage {content, type?}, chatHistory optional. */
export const asyncAnswerRequestSchema = z.looseObject({
  humanMessage: humanMessageSchema,
  chatHistory: z.array(chatHistoryItemSchema).optional(),
});
export type AsyncAnswerRequest = z.infer<typeof asyncAnswerRequestSchema>;

/** spec 9, immediate response (within 100 ms): {success, requestId, message}. */
export const asyncAckSchema = z.looseObject({
  success: z.boolean(),
  requestId: requestIdSchema,
  message: z.string(),
});
export type AsyncAck = z.infer<typeof asyncAckSchema>;

/**
 * spec 8: the inner shape is "not shown"; droidcheck sends the async endpoint's shape
 * (listed in README, "Shapes the spec leaves open").
 */
export const syncAnswerRequestSchema = asyncAnswerRequestSchema;
export type SyncAnswerRequest = AsyncAnswerRequest;

/**
 * spec 8: response field names are "not shown"; the overview says it carries the answer payload.
 * droidcheck expects the answer payload with `requestId` optional.
 */
export const syncAnswerResponseSchema = answerPayloadSchema.extend({
  requestId: requestIdSchema.optional(),
});
export type SyncAnswerResponse = z.infer<typeof syncAnswerResponseSchema>;
