/**
 * One contract per endpoint and webhook: the documented tier (a difference is a finding) and,
 * where the spec says "not shown", droidcheck's choice (a difference is an "unverified shape"
 * note, never a finding). Client, receiver and runner check bodies with
 * `checkContract(CONTRACTS[name], body)`. docs/service-reference.md lists the same, per endpoint.
 */
import { answerPayloadChoiceSchema, answerPayloadSchema, errorPayloadSchema, isErrorPayload } from './answer.js';
import { asyncAckSchema, syncAnswerResponseDocumentedSchema, syncAnswerResponseSchema } from './answer-endpoints.js';
import type { TieredContract } from './check.js';
import { errorBodySchema } from './common.js';
import { intentWebhookRequestSchema, messageForwardingSchema } from './inbound-webhooks.js';
import {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerDocumentedSchema,
  customerSchema,
  customerUpdateResponseSchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  notShownSchema,
  sendResponseSchema,
} from './service.js';

/** Spec 1-6, whose endpoint names are also the client's methods and a scenario's `call` names. */
export const SPEC_1_TO_6 = ['channels', 'messages', 'customer', 'conversations', 'ask', 'send'] as const;

/** The ten endpoints of the Message Endpoint API (spec 1-10), by the names the client, the records and fault profiles use. */
export const ENDPOINT_NAMES = [
  ...SPEC_1_TO_6,
  'customer-update',
  'get-droid-answer',
  'get-droid-answer-async',
  'get-image-alt',
] as const;
export type EndpointName = (typeof ENDPOINT_NAMES)[number];

/** The endpoints, the three webhooks, the answer's error payload and the error body. */
const CONTRACT_NAMES = [
  ...ENDPOINT_NAMES,
  'webhook',
  'webhook-error',
  'message-webhook',
  'intent-webhook',
  'error-body',
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

const ENDPOINT_PAGE = 'docs thirdparty/endpoint.mdx';
const ASYNC_PAGE = 'docs thirdparty/get-droid-answer-async.mdx';

/** Every endpoint's and webhook's contract, by the name the client and the records use. */
export const CONTRACTS: Readonly<Record<ContractName, TieredContract>> = Object.freeze({
  channels: {
    name: 'channels',
    documented: notShownSchema,
    choice: channelsResponseSchema,
    source: `spec 1 ("Response shape: not shown"); ${ENDPOINT_PAGE} §1`,
  },
  messages: {
    name: 'messages',
    documented: notShownSchema,
    choice: messagesResponseSchema,
    source: `spec 2 ("Response shape ... not shown"); ${ENDPOINT_PAGE} §2`,
  },
  customer: {
    name: 'customer',
    documented: customerDocumentedSchema,
    choice: customerSchema,
    source: `spec 3 and Resources, Customer; ${ENDPOINT_PAGE} §3`,
  },
  conversations: {
    name: 'conversations',
    documented: conversationsResponseSchema,
    source: `spec 4 and Resources, Conversation message; ${ENDPOINT_PAGE} §4 (example)`,
  },
  ask: { name: 'ask', documented: askResponseSchema, source: `spec 5; ${ENDPOINT_PAGE} §5 (example)` },
  send: {
    name: 'send',
    documented: notShownSchema,
    choice: sendResponseSchema,
    source: `spec 6 ("the response shape: not shown"); ${ENDPOINT_PAGE} §6`,
  },
  'customer-update': {
    name: 'customer-update',
    documented: notShownSchema,
    choice: customerUpdateResponseSchema,
    source: `spec 7 ("Response shape: not shown"); ${ENDPOINT_PAGE} §7`,
  },
  'get-droid-answer': {
    name: 'get-droid-answer',
    documented: syncAnswerResponseDocumentedSchema,
    choice: syncAnswerResponseSchema,
    source: `spec 8 ("exact response field names: not shown"); ${ENDPOINT_PAGE} §8`,
  },
  'get-droid-answer-async': {
    name: 'get-droid-answer-async',
    documented: asyncAckSchema,
    source: `spec 9, immediate response; ${ASYNC_PAGE} "Immediate Response"`,
  },
  'get-image-alt': {
    name: 'get-image-alt',
    documented: notShownSchema,
    choice: imageAltResponseSchema,
    source: `spec 10 ("field names: not shown"); ${ENDPOINT_PAGE} §10`,
  },
  webhook: {
    name: 'webhook',
    documented: answerPayloadSchema,
    choice: answerPayloadChoiceSchema,
    source: `spec: Answer payload fields; ${ASYNC_PAGE} "Success Response"`,
  },
  'webhook-error': {
    name: 'webhook-error',
    documented: errorPayloadSchema,
    source: `spec: Error payload; ${ASYNC_PAGE} "Error Response"`,
  },
  'message-webhook': {
    name: 'message-webhook',
    documented: messageForwardingSchema,
    source: 'docs thirdparty/receiving-webhook.mdx, "type MessageForwarding"',
  },
  'intent-webhook': {
    name: 'intent-webhook',
    documented: intentWebhookRequestSchema,
    source: 'docs thirdparty/intent-webhook.mdx, "type IntentWebhookRequest"',
  },
  'error-body': {
    name: 'error-body',
    documented: errorBodySchema,
    source: `spec: Errors; ${ASYNC_PAGE} "Error Responses"`,
  },
});

/** The contract of an answer-webhook body: the error payload when it has `error` (spec: Events, rule 1). */
export function webhookContractFor(body: unknown): TieredContract {
  return isErrorPayload(body) ? CONTRACTS['webhook-error'] : CONTRACTS.webhook;
}
