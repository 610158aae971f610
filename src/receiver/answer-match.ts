/**
 * The match handed to an answer waiter: the body checked with its two-tier contract
 * (webhookContractFor + checkContract: the documented tier now, droidcheck's choice and the
 * unknown fields when the runner reads them); violations travel with the match, they do not
 * reject it; `failed` when the body has `error` (spec: Events, rule 1).
 */
import { checkContract, isErrorPayload, webhookContractFor } from '../contract/index.js';
import type { AnswerPayload, ErrorPayload } from '../contract/index.js';
import type { DeliveredMatch } from './types.js';

/** `receivedAt`: clock.now() ms of the arrival. */
export function answerMatch(body: Record<string, unknown>, receivedAt: number): DeliveredMatch {
  const failed = isErrorPayload(body);
  const contract = checkContract(webhookContractFor(body), body);
  return failed
    ? { kind: 'failed', payload: body as unknown as ErrorPayload, receivedAt, contract }
    : { kind: 'answered', payload: body as unknown as AnswerPayload, receivedAt, contract };
}
