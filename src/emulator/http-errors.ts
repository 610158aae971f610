/**
 * Error bodies `{error, message}` (spec: Errors), with the exact texts the spec and the async
 * docs page (thirdparty/get-droid-answer-async.mdx, "Error Responses") give.
 */
import type { FastifyReply } from 'fastify';
import type { ErrorBody } from '../contract/index.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** spec: Errors, 400 "no webhook URL configured"; word for word as the async docs page shows it. */
export const MSG_WEBHOOK_NOT_CONFIGURED =
  'thirdPartyAnswerWebhook is not configured. Please set up the webhook URL in Settings > Integrations before using async answer endpoint.';
/** spec: Errors, 400, word for word. */
export const MSG_MISSING_TEST_CUSTOMER = 'Droid Missing Test Customer Id';
/** spec: Errors, 400, word for word. */
export const MSG_INVALID_HUMAN_MESSAGE = 'Invalid humanMessage format';
/** spec: Authentication, rule 6, word for word. */
export const MSG_INVALID_API_KEY = 'Invalid API key';
/** Our choice: chatHistory present but not an array of {content: string, type: human|ai}. */
export const MSG_INVALID_CHAT_HISTORY = 'Invalid chatHistory format';

export function errorBody(status: number, message: string): ErrorBody {
  return { error: STATUS_NAMES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error'), message };
}

/** Sends `{error, message}` with the status; returns the reply (for `return sendError(...)` in handlers). */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send(errorBody(status, message));
}
