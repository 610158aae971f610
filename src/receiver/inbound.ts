/**
 * Forwarded messages and intent webhooks as kept by a receiver (HTTP or stream), with their
 * waiters (the service's message-forwarding and intent-webhook docs; docs/service-reference.md).
 *
 * Bodies are checked against the documented schemas (messageForwardingSchema,
 * intentWebhookRequestSchema, from src/contract/); violations travel with the delivery, they do
 * not reject it. An intent body's `secret` is replaced by "[REDACTED]" before it is kept.
 * Memory: messages in a ring per customer (maxMessagesPerCustomer, default 200) and at most
 * maxMessages over all customers (default 10_000); intents at most maxIntents (default 10_000).
 */
import type { Clock } from '../clock.js';
import { checkContract, intentWebhookRequestSchema, messageForwardingSchema } from '../contract/index.js';
import type { IntentWebhookRequest, MessageForwarding } from '../contract/index.js';
import { emptyInboundStats } from './inbound-types.js';
import type {
  InboundIntent,
  InboundMessage,
  InboundReader,
  InboundRouteStats,
  IntentMatch,
  IntentWait,
  MessageMatch,
  MessageWait,
  PayloadFilter,
} from './inbound-types.js';
import { Inbox } from './inbox.js';
import type { InboundStats, InboxBounds } from './types.js';

const REDACTED = '[REDACTED]';
const TIMEOUT = Object.freeze({ kind: 'timeout' as const });
const ALL = '';

/** The key messages are kept under: the customerId as a string ('' when it is not a number or string). */
function customerKey(customerId: unknown): string {
  return typeof customerId === 'number' || typeof customerId === 'string' ? String(customerId) : ALL;
}

/** The body with a string `secret` replaced by "[REDACTED]" (a copy; the input is not changed). */
export function redactIntentSecret(body: Record<string, unknown>): Record<string, unknown> {
  return typeof body.secret === 'string' ? { ...body, secret: REDACTED } : body;
}

function valueAt(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Compiles a PayloadFilter (dotted paths to values compared with ===, or a predicate; a predicate that throws does not match). */
function payloadTest<T>(filter: PayloadFilter<T> | undefined): (payload: T) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === 'function') {
    return (payload) => {
      try {
        return filter(payload) === true;
      } catch {
        return false;
      }
    };
  }
  const entries = Object.entries(filter);
  return (payload) => entries.every(([path, expected]) => valueAt(payload, path) === expected);
}

export class InboundDeliveries implements InboundReader {
  readonly messageStats: InboundRouteStats = emptyInboundStats();
  readonly intentStats: InboundRouteStats = emptyInboundStats();
  readonly #messages: Inbox<InboundMessage>;
  readonly #intents: Inbox<InboundIntent>;

  constructor(clock: Clock, bounds: InboxBounds) {
    this.#messages = new Inbox<InboundMessage>(clock, {
      perKey: bounds.maxMessagesPerCustomer ?? 200,
      max: bounds.maxMessages ?? 10_000,
    });
    const maxIntents = bounds.maxIntents ?? 10_000;
    this.#intents = new Inbox<InboundIntent>(clock, { perKey: maxIntents, max: maxIntents });
  }

  /** Keeps an accepted forwarded message (a JSON object). The caller counts it accepted. */
  addMessage(body: Record<string, unknown>, receivedAt: number): void {
    const contract = checkContract(messageForwardingSchema, body);
    const customerId =
      typeof body.customerId === 'number' || typeof body.customerId === 'string' ? body.customerId : '';
    this.#messages.add(customerKey(body.customerId), {
      payload: body as MessageForwarding,
      customerId,
      receivedAt,
      contract,
      claimed: false,
    });
  }

  /** Keeps an accepted intent webhook (a JSON object, checked before its secret is redacted). */
  addIntent(body: Record<string, unknown>, receivedAt: number): void {
    const contract = checkContract(intentWebhookRequestSchema, body);
    this.#intents.add(ALL, {
      payload: redactIntentSecret(body) as IntentWebhookRequest,
      customerId: typeof body.customer_id === 'string' ? body.customer_id : undefined,
      intent: typeof body.intent === 'string' ? body.intent : undefined,
      receivedAt,
      contract,
      claimed: false,
    });
  }

  async waitForMessage(wait: MessageWait, deadline: number, signal?: AbortSignal): Promise<MessageMatch> {
    const test = payloadTest(wait.match);
    const m = await this.#messages.wait(
      customerKey(wait.customerId),
      wait.after,
      (item) => test(item.payload),
      deadline,
      signal,
    );
    return m === undefined ? TIMEOUT : { kind: 'message', ...m };
  }

  async waitForIntent(wait: IntentWait, deadline: number, signal?: AbortSignal): Promise<IntentMatch> {
    const test = payloadTest(wait.match);
    const customer = wait.customerId === undefined ? undefined : String(wait.customerId);
    const m = await this.#intents.wait(
      ALL,
      wait.after,
      (item) =>
        (wait.intent === undefined || item.intent === wait.intent) &&
        (customer === undefined || item.customerId === customer) &&
        test(item.payload),
      deadline,
      signal,
    );
    return m === undefined ? TIMEOUT : { kind: 'intent', ...m };
  }

  messagesOf(customerId: number | string): InboundMessage[] {
    return this.#messages.list(customerKey(customerId));
  }

  /** Route counters with claimed/dropped filled in (copies). */
  stats(): InboundStats {
    return {
      messages: { ...this.messageStats, ...this.#messages.counts },
      intents: { ...this.intentStats, ...this.#intents.counts },
    };
  }

  /** Claimed and dropped counts of both routes (live objects: read, do not change). */
  keptCounts(): { messages: { claimed: number; dropped: number }; intents: { claimed: number; dropped: number } } {
    return { messages: this.#messages.counts, intents: this.#intents.counts };
  }

  /** Waiters of both routes not yet resolved. */
  get pending(): number {
    return this.#messages.pending + this.#intents.pending;
  }

  fire(now?: number): void {
    this.#messages.fire(now);
    this.#intents.fire(now);
  }

  close(): void {
    this.#messages.close();
    this.#intents.close();
  }
}
