/**
 * What the HTTP routes hand on, and to what. The routes (http-routes.ts) check and classify each
 * webhook once: which route, whether its secret or token passed, its requestId or customerId, the
 * parsed body. A malformed one (400/413) stops there. Every other one goes to a DeliverySink:
 *
 * - the local sink (local-sink.ts): answers correlated by requestId, messages and intents kept
 *   for waiters; the receiver of a run (createReceiver);
 * - the stream publisher (stream-publisher.ts): every delivery XADDed to a Redis Stream before it
 *   is acknowledged; `droidcheck receive` (createRelay);
 * - a response plan (response-plan.ts) in front of either: deliberate misbehaviour per requestId
 *   (500 to every attempt, 503 then 200, no answer, 200 after a delay).
 *
 * A sink tells the route how to answer (Reply); the route answers and counts. No route knows
 * which sink it feeds.
 */
import type { Route, Verdict } from './stream-entry.js';

export type { Route };

/** One checked webhook. */
export interface Delivery {
  route: Route;
  /** `ok`, or `bad-secret` (answered 401/403 by the route; a sink may still record it). */
  verdict: Verdict;
  /** clock.now() ms when the route took the body. */
  receivedAt: number;
  /** Answer route: the body's requestId (a bad-secret answer: when the body has one). */
  requestId: string | undefined;
  /** Message route: the body's customerId; intent route: the body's string customer_id. */
  customerId: string | undefined;
  /** The body as a JSON object (verdict `ok`: always; `bad-secret`: when it parses). */
  body: Record<string, unknown> | undefined;
  /** The body as received (an intent's still holds its secret: a sink that stores it redacts). */
  raw: string;
}

/**
 * How the route answers a delivery:
 * - undefined: the usual answer for its verdict (answer 200 `{"ok":true}` / 401; message 200 /
 *   403; intent 200 `[]` / 403); counted accepted or badSecret;
 * - a status (500, 503...): that status with a JSON error body; the delivery was not kept
 *   (counted unavailable): the service is expected to retry;
 * - DROP: no answer; the connection is closed (a delivery held unanswered on purpose, at close).
 */
export type Reply = number | undefined;
export const DROP = 0;

/** Where the routes hand checked deliveries. */
export interface DeliverySink {
  /**
   * Takes one delivery. Returns the Reply at once, or a promise of it (the route answers when it
   * settles; a rejection answers 503, counted unavailable). Must not throw.
   */
  take(d: Delivery): Reply | Promise<Reply>;
  /**
   * The answer route's accepted deliveries (`accepted`, counted by the route) as this sink
   * classified them: matched, duplicates, late, orphans (local) or published (stream).
   */
  answerCounts(accepted: number): AnswerCounts;
  /** Claimed and dropped counts of the kept messages and intents (0 when nothing is kept). */
  keptCounts(): { messages: KeptCounts; intents: KeptCounts };
  /** Before the server listens (the publisher connects to Redis). Throws ConfigError. */
  ready(): Promise<void>;
  /** `GET /healthz`: true when the sink can keep deliveries now. */
  healthy(): Promise<boolean>;
  /** Answers at once what is held back on purpose (before the server stops accepting). */
  release(): void;
  /** After the server stopped and every request in flight got its answer. Idempotent. */
  close(): Promise<void>;
}

/** The sink's part of ReceiverStats (types.ts). */
export interface AnswerCounts {
  matched: number;
  duplicates: number;
  late: number;
  orphans: number;
  published: number;
}

export interface KeptCounts {
  claimed: number;
  dropped: number;
}

export const NOTHING_KEPT: { messages: KeptCounts; intents: KeptCounts } = Object.freeze({
  messages: Object.freeze({ claimed: 0, dropped: 0 }),
  intents: Object.freeze({ claimed: 0, dropped: 0 }),
});
