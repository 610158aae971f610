/**
 * The match handed to an answer waiter: the body checked with webhookSchemaFor + checkContract
 * (violations travel with the match, they do not reject it); `failed` when the body has `error`
 * (spec: Events, rule 1).
 */
import { checkContract, isErrorPayload, webhookSchemaFor } from '../contract/index.js';
import type { AnswerPayload, ErrorPayload } from '../contract/index.js';
import type { DeliveredMatch } from './types.js';

/** `receivedAt`: clock.now() ms of the arrival. */
export function answerMatch(body: Record<string, unknown>, receivedAt: number): DeliveredMatch {
  const contract = checkContract(webhookSchemaFor(body), body);
  return isErrorPayload(body)
    ? { kind: 'failed', payload: body as unknown as ErrorPayload, receivedAt, contract }
    : { kind: 'answered', payload: body as unknown as AnswerPayload, receivedAt, contract };
}
