/**
 * Shapes of the webhook receiver (docs/architecture.md, Layout: receiver/): the HTTP receiver
 * (createReceiver) and the stream-fed receiver of a shard (createStreamReceiver) share the
 * DeliverySource interface the runner uses; the relay (createRelay, `droidcheck receive`) only
 * publishes, so it shares their counters (WebhookCounters), not the waiting.
 */
import type { FastifyInstance } from 'fastify';
import type { ResponsePlan } from './response-plan.js';
import type { AnswerPayload, ContractCheck, ErrorPayload } from '../contract/index.js';
import type { Clock } from '../clock.js';
import type { InboundReader, InboundRouteStats } from './inbound-types.js';
import type { WiringQuery, WiringVerdict } from './wiring.js';

/** Bounds of the kept messages and intents (memory); the oldest unclaimed are dropped first. */
export interface InboxBounds {
  /** Most messages kept per customer (a ring). Default 200. */
  maxMessagesPerCustomer?: number;
  /** Most messages kept over all customers. Default 10_000. */
  maxMessages?: number;
  /** Most intent webhooks kept. Default 10_000. */
  maxIntents?: number;
}

/** Answer-webhook correlation settings shared by both receivers. */
export interface CorrelationOptions {
  /** Default systemClock; deadlines, `after` and `receivedAt` are `clock.now()` ms. */
  clock?: Clock;
  /** How long a delivery nobody waits for stays parked before it counts as an orphan, ms. Default 30_000. */
  orphanGraceMs?: number;
  /** Most deliveries parked at once; past it the oldest becomes an orphan. Default 100_000. */
  maxParked?: number;
  /** How long a finished requestId is remembered to classify duplicate/late deliveries, ms. Default 600_000. */
  rememberMs?: number;
  /** Most finished requestIds remembered; past it the oldest is forgotten. Default 500_000. */
  maxRemembered?: number;
}

/** The relay's Redis Stream: every delivery goes there before it is acknowledged. */
export interface PublishOptions {
  /** `redis://[user:password@]host:port[/db]`; the password never appears in an error or log. */
  redisUrl: string;
  /** Stream key, e.g. `droidcheck:deliveries`. */
  stream: string;
  /** Approximate cap of the stream (XADD MAXLEN ~), entries; null: never trimmed. Default 1_000_000. */
  maxLen?: number | null;
  /** A Redis command slower than this fails (the delivery gets 503), ms. Default 2_000. */
  commandTimeoutMs?: number;
  /** listen() fails when Redis cannot be reached within this, ms. Default 5_000. */
  connectTimeoutMs?: number;
  /** Re-measures the skew against Redis TIME this often, ms. Default 10_000. */
  skewIntervalMs?: number;
  /** Written to every entry (`rcv`). Default `<hostname>:<pid>`. */
  receiverId?: string;
}

/** The HTTP side, shared by the receiver and the relay. */
export interface WebhookServerOptions {
  /** Default systemClock; arrival times (`receivedAt`) are `clock.now()` ms. */
  clock?: Clock;
  /** Bind address, default 127.0.0.1 (only used by listen()). */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Answer-webhook path, default `/webhook`. */
  path?: string;
  /** Message-forwarding webhook path, default `/messages`. */
  messagesPath?: string;
  /** Intent webhook path, default `/intents`. */
  intentsPath?: string;
  /** Health check path (GET), default `/healthz`. */
  healthPath?: string;
  /** When set (non-empty), `?secret=` must match, compared in constant time, else 401 (the spec's Authentication section). */
  secret?: string | null;
  /** When set (non-empty), `?verify_token=` must match (constant time), else 403 (the service's message-forwarding docs). */
  verifyToken?: string | null;
  /** When set (non-empty), the body's `secret` must match (constant time), else 403 `{"error":"Forbidden"}` (the service's intent-webhook docs). */
  intentSecret?: string | null;
  /** Largest accepted body, bytes; larger => 413 (counted malformed). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Fastify logger (request URLs are logged with secret and verify_token redacted). Default false. */
  logger?: boolean;
  /**
   * Most time a client may take to send one whole request (headers and body), ms; a slower one
   * gets 408 and is counted malformed (a slow client must not hold a socket forever). Default 30_000.
   */
  requestTimeoutMs?: number;
  /**
   * Deliberate misbehaviour per requestId (500 to every attempt, 503 then 200, no answer, 200
   * after a delay), consulted before an answer webhook is answered; every attempt is recorded
   * (response-plan.ts). Default: none (every delivery gets the usual answer).
   */
  responsePlan?: ResponsePlan;
}

export interface ReceiverOptions extends WebhookServerOptions, CorrelationOptions, InboxBounds {}

export interface RelayOptions extends WebhookServerOptions {
  publish: PublishOptions;
}

/** A delivery that reached its waiter. `receivedAt` is clock.now() ms when the receiver accepted the body. */
export type DeliveredMatch =
  | { kind: 'answered'; payload: AnswerPayload; receivedAt: number; contract: ContractCheck<unknown> }
  | { kind: 'failed'; payload: ErrorPayload; receivedAt: number; contract: ContractCheck<unknown> };

/** How a waitFor ends: the webhook (answered / failed: payload has `error`), or none by the deadline. */
export type WebhookMatch = DeliveredMatch | { kind: 'timeout' };

/**
 * Who awaits one answer without a promise (DeliverySource.expectAnswer): `settle` is called
 * exactly once, with what waitFor would resolve, synchronously where the match is decided (the
 * webhook's route, the deadline timer, the abort, close(), or the expectAnswer call itself for
 * a delivery parked before it). It must not throw, and should defer heavy work (a microtask):
 * a webhook's route answers only once it returns.
 */
export interface AnswerWaiter {
  settle(match: WebhookMatch): void;
}

/**
 * Counters. Answer-webhook invariant, in every mode:
 * received = matched + duplicates + late + orphans + foreign + badSecret + malformed + published
 *            + unavailable + parkedCount()
 * - HTTP receiver: foreign = published = unavailable = 0;
 * - relay (createRelay): only published (200, in the stream), badSecret (401, in the stream too),
 *   malformed (400/413, not published) and unavailable (503, Redis failed) move;
 * - unavailable also counts deliveries a response plan answered 5xx or left unanswered (not kept);
 * - stream receiver (a shard): every answer entry read from the stream; foreign = entries another
 *   shard counts (see stream-ownership.ts); published = unavailable = 0.
 * The message and intent routes have their own counters: inboundStats().
 */
export interface ReceiverStats {
  received: number;
  matched: number;
  duplicates: number;
  late: number;
  orphans: number;
  foreign: number;
  badSecret: number;
  malformed: number;
  published: number;
  unavailable: number;
}

/** Counters of the message-forwarding and intent routes (invariant: InboundRouteStats). */
export interface InboundStats {
  messages: InboundRouteStats;
  intents: InboundRouteStats;
}

/** Skew of one receiver's clock as it reported in its stream entries. */
interface ReceiverSkew {
  receiverId: string;
  /** Redis TIME minus the receiver's wall clock, us, as the receiver measured it. */
  redisMinusReceiverUs: number;
  /** The receiver's clock minus this process's clock, us (positive: the receiver is ahead). */
  receiverMinusLocalUs: number;
  /** Both measurements' round trips, halved and added: the skew is known within +- this, us. */
  uncertaintyUs: number;
}

/** Clock skew measured against Redis TIME (best of 5 round trips: lowest round trip wins). */
export interface ClockSkew {
  /** Redis TIME minus this process's wall clock at the round trip's midpoint, us. */
  redisMinusLocalUs: number;
  /** Round trip of the sample used, us; the skew is known within +- rttUs / 2. */
  rttUs: number;
  /** Wall clock (ISO 8601) of the measurement. */
  measuredAt: string;
  /** Stream receiver: every receiver seen in the stream. HTTP receiver: empty. */
  receivers: ReceiverSkew[];
}

/** Counters every receiver keeps: the HTTP receiver, a shard's stream receiver and the relay. */
export interface WebhookCounters {
  /** Answer-webhook counters. */
  stats(): ReceiverStats;
  /** Message and intent route counters. */
  inboundStats(): InboundStats;
  /** Answer deliveries parked (or, in stream mode, awaiting their owner), not yet counted (the relay: 0). */
  parkedCount(): number;
  /** Clock skew against Redis TIME (undefined without Redis). */
  clockSkew(): ClockSkew | undefined;
}

/** What the runner needs from a source of deliveries: the HTTP receiver or a shard's stream receiver. */
export interface DeliverySource extends WebhookCounters, InboundReader {
  /**
   * Resolves with the delivery of `requestId`, or `{kind:'timeout'}` at `deadline` (clock.now() ms),
   * when `signal` aborts, or at close(). Never rejects. A delivery parked before the call is claimed
   * at once. A requestId already waited for or already finished resolves `{kind:'timeout'}` at once.
   */
  waitFor(requestId: string, deadline: number, signal?: AbortSignal): Promise<WebhookMatch>;
  /**
   * waitFor without a promise: `waiter.settle` gets what waitFor would resolve (AnswerWaiter).
   * What a load holds per pending answer is then the waiter and one slot of the receiver's
   * table, no promise, closure or suspended function (test/runner/pending-memory.test.ts).
   */
  expectAnswer(requestId: string, deadline: number, waiter: AnswerWaiter, signal?: AbortSignal): void;
  /** Answer waiters not yet resolved. */
  pendingCount(): number;
  /**
   * Calls `listener` with each duplicate delivery of a requestId that was matched (or is parked)
   * and its arrival (clock.now() ms), as it is counted (`duplicates`); undefined stops it.
   */
  onDuplicate(listener: ((requestId: string, receivedAt: number) => void) | undefined): void;
  /**
   * Whether the answer webhooks received so far can be matched at all: `working` after one
   * matched, `miswired` with the kind and count once 3 of one kind could not be (wrong secret,
   * malformed, another droid's than `query.droidId`), else `unknown`. The rule: wiring.ts.
   */
  wiring(query?: WiringQuery): WiringVerdict;
  /**
   * Housekeeping at `now` (default clock.now()): resolves waiters whose deadline passed, turns
   * parked deliveries past the grace period into orphans. Runs by itself on a timer; tests call it
   * with a test clock's time instead of sleeping.
   */
  housekeep(now?: number): void;
  /** Resolves pending waiters as timeout, turns parked deliveries into orphans, releases sockets. Idempotent. */
  close(): Promise<void>;
}

export interface ReceiverUrls {
  answer: string;
  messages: string;
  intents: string;
  health: string;
}

/** The HTTP side of the receiver and the relay. */
interface WebhookListener {
  /** Built, not listening. */
  readonly app: FastifyInstance;
  /** Binds host:port and resolves the answer-webhook URL `http://host:port/webhook` (without the secret). */
  listen(): Promise<string>;
  /** The routes' URLs once listening (without secret or token), else undefined. */
  urls(): ReceiverUrls | undefined;
}

/** The HTTP receiver of a run. */
export interface Receiver extends DeliverySource, WebhookListener {}

/**
 * The relay (`droidcheck receive`): publishes every delivery to a Redis Stream and correlates
 * nothing itself (shards read the stream with createStreamReceiver), so it has no waitFor.
 */
export interface Relay extends WebhookCounters, WebhookListener {
  /** Stops accepting, lets every request in flight finish its XADD and its answer, then quits Redis. Idempotent. */
  close(): Promise<void>;
}
