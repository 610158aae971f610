/**
 * Shapes shared by several endpoints (spec: Resources and their fields; Errors).
 * Objects are "loose": unknown extra fields pass validation and are reported by
 * `checkContract` as warnings, because the real service may add fields.
 */
import { z } from 'zod';

/** Prefix of every async request id (spec: Answer payload fields, requestId). */
export const REQUEST_ID_PREFIX = 'tpa-';
export const requestIdSchema = z
  .string()
  .refine((s) => s.startsWith(REQUEST_ID_PREFIX) && s.length > REQUEST_ID_PREFIX.length, {
    message: `requestId must start with "${REQUEST_ID_PREFIX}"`,
  });

/** ISO 8601 timestamp with `Z` or a numeric UTC offset (spec: Conversation message, createdAt). */
export const isoTimestampSchema = z.iso.datetime({ offset: true });

/** Error body of every non-2xx answer: `{error, message}` (spec: Errors). */
export const errorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Chat history item of a request (spec: Chat history item). */
const chatTurnTypeSchema = z.enum(['human', 'ai']);
export const chatHistoryItemSchema = z.looseObject({
  content: z.string(),
  type: chatTurnTypeSchema,
});
export type ChatHistoryItem = z.infer<typeof chatHistoryItemSchema>;

/** The new message of an answer request (spec: 9. get-droid-answer-async, humanMessage). */
export const humanMessageSchema = z.looseObject({
  content: z.string(),
  type: z.string().optional(),
});
export type HumanMessage = z.infer<typeof humanMessageSchema>;
