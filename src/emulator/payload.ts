/**
 * Builds the answer and error payloads (spec: Answer payload fields; Error payload) and
 * checks the answer request bodies (spec: 8, 9).
 */
import type { AnswerPayload, ChatHistoryItem, ErrorPayload } from '../contract/index.js';
import type { AnswerBody } from './ai/index.js';
import { MSG_INVALID_CHAT_HISTORY, MSG_INVALID_HUMAN_MESSAGE } from './http-errors.js';

export interface PayloadMeta {
  requestId: string;
  droidId: number;
  customerId: number;
  /** ms */
  executionTime: number;
  /** ISO 8601 UTC */
  timestamp: string;
}

/** `fields` between the ids and the timing, in the order of the spec's tables. */
function framed<T extends object>(meta: PayloadMeta, fields: T) {
  const { requestId, droidId, customerId, executionTime, timestamp } = meta;
  return { requestId, droidId, customerId, ...fields, executionTime, timestamp };
}

/** Field order follows the spec's table. */
export function buildAnswerPayload(body: AnswerBody, meta: PayloadMeta): AnswerPayload {
  return framed(meta, {
    responses: body.responses,
    addressParsing: body.addressParsing,
    customerInsight: body.customerInsight,
    shoppingCart: body.shoppingCart,
    customExtractedInfo: body.customExtractedInfo,
    answer: body.answer,
    intents: body.intents,
  });
}

/** The failure payload: answer "", error set, other sections absent (spec: Error payload). */
export function buildErrorPayload(error: string, meta: PayloadMeta): ErrorPayload {
  return framed(meta, { answer: '', error });
}

export type AnswerRequestCheck =
  | { ok: true; humanMessage: string; chatHistory: ChatHistoryItem[] }
  | { ok: false; message: string };

/**
 * humanMessage must be an object with a string `content` (spec: 9; Errors). For the sync
 * endpoint (inner shape "not shown") a plain string is accepted too. chatHistory is optional;
 * when present it must be an array of {content: string, type: 'human' | 'ai'}.
 */
export function checkAnswerRequest(body: unknown, allowStringMessage: boolean): AnswerRequestCheck {
  const b = (typeof body === 'object' && body !== null ? body : {}) as {
    humanMessage?: unknown;
    chatHistory?: unknown;
  };
  const hm = b.humanMessage;
  let humanMessage: string;
  if (allowStringMessage && typeof hm === 'string') humanMessage = hm;
  else if (typeof hm === 'object' && hm !== null && typeof (hm as { content?: unknown }).content === 'string') {
    humanMessage = (hm as { content: string }).content;
  } else return { ok: false, message: MSG_INVALID_HUMAN_MESSAGE };
  const ch = b.chatHistory;
  if (ch === undefined || ch === null) return { ok: true, humanMessage, chatHistory: [] };
  const valid = (item: unknown): boolean => {
    const t = item as { content?: unknown; type?: unknown } | null;
    return (
      typeof t === 'object' && t !== null && typeof t.content === 'string' && (t.type === 'human' || t.type === 'ai')
    );
  };
  if (!Array.isArray(ch) || !ch.every(valid)) return { ok: false, message: MSG_INVALID_CHAT_HISTORY };
  return { ok: true, humanMessage, chatHistory: ch as ChatHistoryItem[] };
}
