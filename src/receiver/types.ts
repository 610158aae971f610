/**
 * Shapes of the webhook receiver (docs/interfaces.md, receiver/).
 */
import type { FastifyInstance } from 'fastify';
import type { AnswerPayload, ContractCheck, ErrorPayload } from '../contract/index.js';
import type { Clock } from '../clock.js';

export interface ReceiverOptions {
  /** Bind address, default 127.0.0.1 (only used by listen()). */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Webhook path, default `/webhook`. */
  path?: string;
  /** When set (non-empty), `?secret=` must match, compared in constant time, else 401 (spec: Authentication 7). */
  secret?: string | null;
  /** Default systemClock; `deadline` and `receivedAt` are `clock.now()` ms. */
  clock?: Clock;
  /** Largest accepted body, bytes; larger => 413 (counted malformed). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** How long a delivery nobody waits for stays parked before it counts as an orphan, ms. Default 30_000. */
  orphanGraceMs?: number;
  /** Most deliveries parked at once; past it the oldest becomes an orphan. Default 100_000. */
  maxParked?: number;
  /** How long a finished requestId is remembered to classify duplicate/late deliveries, ms. Default 600_000. */
  rememberMs?: number;
  /** Most finished requestIds remembered; past it the oldest is forgotten. Default 500_000. */
  maxRemembered?: number;
  /** Fastify logger (request URLs are logged with the secret redacted). Default false. */
  logger?: boolean;
  /**
   * Most time a client may take to send one whole request (headers and body), ms; a slower one
   * gets 408 and is counted malformed (slow clients, issue 7). Default 30_000.
   */
  requestTimeoutMs?: number;
}

/** A delivery that reached its waiter. `receivedAt` is clock.now() ms when the handler accepted the body. */
export type DeliveredMatch =
  | { kind: 'answered'; payload: AnswerPayload; receivedAt: number; contract: ContractCheck<unknown> }
  | { kind: 'failed'; payload: ErrorPayload; receivedAt: number; contract: ContractCheck<unknown> };

/** How a waitFor ends: the webhook (answered / failed: payload has `error`), or none by the deadline. */
export type WebhookMatch = DeliveredMatch | { kind: 'timeout' };

/**
 * Counters. Invariant: received = matched + duplicates + late + orphans + badSecret + malformed
 * + parkedCount() (deliveries parked and not yet claimed).
 */
export interface ReceiverStats {
  received: number;
  matched: number;
  duplicates: number;
  late: number;
  orphans: number;
  badSecret: number;
  malformed: number;
}

export interface Receiver {
  /** Built, not listening. */
  readonly app: FastifyInstance;
  /** Binds host:port and resolves the webhook URL `http://host:port/webhook` (without the secret). */
  listen(): Promise<string>;
  /**
   * Resolves with the delivery of `requestId`, or `{kind:'timeout'}` at `deadline` (clock.now() ms),
   * when `signal` aborts, or at close(). Never rejects. A delivery parked before the call is claimed
   * at once. A requestId already waited for or already finished resolves `{kind:'timeout'}` at once.
   */
  waitFor(requestId: string, deadline: number, signal?: AbortSignal): Promise<WebhookMatch>;
  stats(): ReceiverStats;
  /** Waiters not yet resolved. */
  pendingCount(): number;
  /** Deliveries parked, not yet claimed by waitFor nor turned into orphans. */
  parkedCount(): number;
  /** Resolves pending waiters as timeout, turns parked deliveries into orphans, closes the server. Idempotent. */
  close(): Promise<void>;
}
