/**
 * Requests and immediate responses of the two answer endpoints
 * (spec: 8. POST get-droid-answer; 9. POST get-droid-answer-async; docs thirdparty/endpoint.mdx
 * §8 and thirdparty/get-droid-answer-async.mdx).
 */
import { z } from 'zod';
import { answerPayloadChoiceSchema, answerPayloadSchema } from './answer.js';
import { chatHistoryItemSchema, humanMessageSchema, requestIdSchema } from './common.js';

/** spec 9 (async docs page, "Request Body"): humanMessage {content, type?}, chatHistory optional. */
const asyncAnswerRequestSchema = z.looseObject({
  humanMessage: humanMessageSchema,
  chatHistory: z.array(chatHistoryItemSchema).optional(),
});
export type AsyncAnswerRequest = z.infer<typeof asyncAnswerRequestSchema>;

/** spec 9, immediate response (within 100 ms): {success, requestId, message} (async docs page, "Immediate Response"). */
export const asyncAckSchema = z.looseObject({
  success: z.boolean(),
  requestId: requestIdSchema,
  message: z.string(),
});
export type AsyncAck = z.infer<typeof asyncAckSchema>;

/**
 * spec 8: the endpoint page (docs thirdparty/endpoint.mdx §8) gives `humanMessage` as a
 * **string**; the async page defines it as an object `{content, type?}`. Both forms are
 * documented somewhere, so a request may use either; DroidClient picks the one the target
 * accepts (option `syncMessageForm`).
 */
const syncAnswerRequestSchema = z.looseObject({
  humanMessage: z.union([z.string(), humanMessageSchema]),
  chatHistory: z.array(chatHistoryItemSchema).optional(),
});
export type SyncAnswerRequest = z.infer<typeof syncAnswerRequestSchema>;

/**
 * spec 8: response field names are "not shown" (the overview says it carries the answer, customer
 * insights, shopping cart and address parsing). Documented tier: any JSON body.
 */
export const syncAnswerResponseDocumentedSchema = z.unknown();

/**
 * CHOICE (spec 8, "not shown"): the answer payload of the async webhook, `requestId` optional,
 * with the cart choice. What the emulator sends; never a violation.
 */
export const syncAnswerResponseSchema = answerPayloadSchema.extend({
  requestId: requestIdSchema.optional(),
  shoppingCart: answerPayloadChoiceSchema.shape.shoppingCart,
});
export type SyncAnswerResponse = z.infer<typeof syncAnswerResponseSchema>;
