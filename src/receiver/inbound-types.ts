/**
 * Shapes of the message-forwarding and intent webhooks as the receiver keeps them
 * (service docs: thirdparty/receiving-webhook.mdx, thirdparty/intent-webhook.mdx).
 */
import type { ContractCheck, IntentWebhookRequest, MessageForwarding } from '../contract/index.js';

/** A forwarded message as kept: the body as received (typed; may break the schema, see `contract`). */
export interface InboundMessage {
  /** The body as received (with violations, when `contract.ok` is false). */
  payload: MessageForwarding;
  /** `payload.customerId` (a number per the docs; a numeric string is kept under the same customer). */
  customerId: number | string;
  /** clock.now() ms when the receiver accepted it (stream mode: the receiver's stamp mapped to this clock). */
  receivedAt: number;
  /** The body checked against messageForwardingSchema; violations travel with the message. */
  contract: ContractCheck<unknown>;
  /** True once a waitForMessage took it. */
  claimed: boolean;
}

/** An intent webhook as kept; `payload.secret` is replaced by "[REDACTED]" when it was a string. */
export interface InboundIntent {
  payload: IntentWebhookRequest;
  /** `payload.customer_id` when it is a string (docs: a string, e.g. a UUID). */
  customerId: string | undefined;
  /** `payload.intent` when it is a string. */
  intent: string | undefined;
  receivedAt: number;
  /** The body (before redaction) checked against intentWebhookRequestSchema. */
  contract: ContractCheck<unknown>;
  claimed: boolean;
}

/**
 * What a waited-for message must match: an object of dotted paths to expected values, compared
 * with `===` (e.g. `{ type: 'ai' }`, `{ 'content.type': 'text' }`), or a predicate over the body.
 */
export type PayloadFilter<T> = Readonly<Record<string, string | number | boolean | null>> | ((payload: T) => boolean);

export interface MessageWait {
  /** The customer whose message is awaited (MessageForwarding.customerId). */
  customerId: number | string;
  /** Only messages accepted at or after this clock.now() ms (e.g. the send step's start). */
  after: number;
  match?: PayloadFilter<MessageForwarding>;
}

export interface IntentWait {
  after: number;
  /** Compared with the body's `intent`. */
  intent?: string;
  /** Compared (as a string) with the body's string `customer_id`. */
  customerId?: string | number;
  match?: PayloadFilter<IntentWebhookRequest>;
}

export type MessageMatch = ({ kind: 'message' } & InboundMessage) | { kind: 'timeout' };
export type IntentMatch = ({ kind: 'intent' } & InboundIntent) | { kind: 'timeout' };

/** What a runner reads of the forwarded messages and intent webhooks a receiver kept. */
export interface InboundReader {
  /**
   * Resolves with the first unclaimed forwarded message of `wait.customerId` accepted at or after
   * `wait.after` that matches `wait.match`, and claims it; a message that came before the call is
   * found at once. `{kind:'timeout'}` at `deadline`, on abort or at close(). Never rejects.
   */
  waitForMessage(wait: MessageWait, deadline: number, signal?: AbortSignal): Promise<MessageMatch>;
  /** The same for intent webhooks (filters: intent, customerId as the body's string customer_id, match). */
  waitForIntent(wait: IntentWait, deadline: number, signal?: AbortSignal): Promise<IntentMatch>;
  /** Messages kept for a customer, oldest first (claimed ones too), for inspection. */
  messagesOf(customerId: number | string): InboundMessage[];
}

/**
 * Counters of the message or intent route. Invariant:
 * received = accepted + badSecret + malformed + unavailable.
 * - accepted: 200; kept for waiters (HTTP receiver), published to the stream (publish mode), or
 *   read from the stream with a good verdict (stream receiver);
 * - badSecret: 403, wrong or missing `?verify_token=` (messages) or body `secret` (intents);
 * - malformed: 400/413, the body is not a JSON object;
 * - unavailable: 503, the delivery could not be published to Redis (publish mode).
 * Beside the invariant: claimed (taken by a waiter) and dropped (evicted unclaimed by the memory
 * bounds); kept-and-unclaimed = accepted - claimed - dropped (HTTP and stream receivers).
 */
export interface InboundRouteStats {
  received: number;
  accepted: number;
  badSecret: number;
  malformed: number;
  unavailable: number;
  claimed: number;
  dropped: number;
}

export function emptyInboundStats(): InboundRouteStats {
  return { received: 0, accepted: 0, badSecret: 0, malformed: 0, unavailable: 0, claimed: 0, dropped: 0 };
}
