/**
 * createStreamReceiver: the deliveries of a shard read from a Redis Stream that relays
 * (createRelay, `droidcheck receive`) fill, behind the same DeliverySource interface as the HTTP
 * receiver, with no HTTP server.
 *
 * - Reads the stream from `from` (default: Redis TIME when created: the shard's start).
 * - Answer entries: matched to this shard's own requestIds; others' counted `foreign`; who
 *   counts what is the rule of stream-ownership.ts (written down there).
 * - Message and intent entries: kept like the HTTP receiver keeps them (every shard keeps all).
 * - Arrival times: an entry's `at` (the receiver's wall clock, us) is mapped onto this shard's
 *   clock through Redis TIME: receivedAt = m + (at + skew - T) / 1000, where (T, m) is the latest
 *   TIME sample (Redis us, clock.now() ms at the round trip's midpoint) and skew the receiver's own
 *   measurement (Redis minus receiver). The error is within both round trips' halves
 *   (clockSkew().receivers[].uncertaintyUs) plus the clocks' drift between samples.
 * - close(): reads to the end of the stream as it is then, waits until held entries are
 *   closeSettleMs old, settles them (rule 1), then resolves waiters as timeout and quits Redis.
 * Throws ConfigError (DROIDCHECK_ERR_CONFIG) when Redis cannot be reached at creation.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { Correlator } from './correlator.js';
import { InboundDeliveries } from './inbound.js';
import { within } from './within.js';
import {
  connectRedis,
  createRedis,
  createWallUs,
  quitRedis,
  sampleRedisTime,
  type TimeSample,
} from './redis-connection.js';
import { EntryClassifier } from './stream-classifier.js';
import type { StreamEntry } from './stream-entry.js';
import { Ownership } from './stream-ownership.js';
import { StreamReader, type RawEntry } from './stream-reader.js';
import { judgeWiring, ORPHAN_SUSPECT_MS, staleOfOtherDroids } from './wiring.js';
import type { ClockSkew, CorrelationOptions, DeliverySource, InboxBounds, ReceiverStats } from './types.js';

export interface StreamReceiverOptions extends CorrelationOptions, InboxBounds {
  redisUrl: string;
  stream: string;
  /** Read entries after this stream ID (XREAD semantics; `0-0`: the whole stream). Default: Redis TIME now. */
  from?: string;
  /** Default `<hostname>:<pid>:<6 random hex>`. */
  shardId?: string;
  /** Prefix of the ownership hashes `<prefix>:owners` and `<prefix>:claims`. Default: the stream key. */
  keyPrefix?: string;
  /** TTL of the ownership hashes after their last write, s. Default 86_400. */
  ownerTtlSeconds?: number;
  /** Entries per XREAD. Default 500. */
  readCount?: number;
  /** XREAD BLOCK, ms. Default 1_000. */
  blockMs?: number;
  /** Re-measures the skew against Redis TIME this often, ms. Default 30_000. */
  skewIntervalMs?: number;
  /** Creation fails when Redis cannot be reached within this, ms. Default 5_000. */
  connectTimeoutMs?: number;
  /** close() settles held entries once they are this old, ms. Default min(orphanGraceMs, 2_000). */
  closeSettleMs?: number;
}

export interface StreamReceiver extends DeliverySource {
  readonly shardId: string;
  /** ID of the last entry read. */
  lastId(): string;
  /** Resolves once every entry in the stream when called has been read and classified or held. */
  drain(): Promise<void>;
  /** The last Redis error seen (message only), if any. */
  lastError(): string | undefined;
}

type RedisClient = Awaited<ReturnType<typeof createRedis>>;

/** The shard's two connections (commands; the blocking reader), connected. Throws ConfigError. */
async function connectShard(
  options: StreamReceiverOptions,
  connectTimeoutMs: number,
): Promise<{ cmd: RedisClient; reader: RedisClient }> {
  const connect = { connectTimeoutMs, offlineQueue: true };
  const cmd = await createRedis(options.redisUrl, { ...connect, name: 'droidcheck-shard' });
  const reader = await createRedis(options.redisUrl, { ...connect, name: 'droidcheck-shard-reader' });
  try {
    await connectRedis(cmd, options.redisUrl, connectTimeoutMs);
    await connectRedis(reader, options.redisUrl, connectTimeoutMs);
  } catch (err) {
    cmd.disconnect();
    reader.disconnect();
    throw err;
  }
  return { cmd, reader };
}

/** A shard's answer counters: the correlator's, with what the classifier counted itself. */
function shardStats(correlator: Correlator, classifier: EntryClassifier): ReceiverStats {
  const c = correlator.counts;
  const k = classifier.counts;
  return {
    received: k.received,
    matched: c.matched,
    duplicates: c.duplicates + k.duplicates,
    late: c.late,
    orphans: c.orphans + k.orphans,
    foreign: k.foreign,
    badSecret: k.badSecret,
    malformed: k.malformed,
    published: 0,
    unavailable: 0,
  };
}

function shardSkew(sample: TimeSample, classifier: EntryClassifier): ClockSkew {
  return {
    redisMinusLocalUs: sample.redisMinusLocalUs,
    rttUs: sample.rttUs,
    measuredAt: sample.at.toISOString(),
    receivers: [...classifier.receivers].map(([receiverId, r]) => ({
      receiverId,
      redisMinusReceiverUs: r.skewUs,
      receiverMinusLocalUs: sample.redisMinusLocalUs - r.skewUs,
      uncertaintyUs: Math.round((sample.rttUs + r.rttUs) / 2),
    })),
  };
}

/** What close() works through, in order (see the module comment). */
interface ShardParts {
  /** Housekeeping and skew sampling: cleared first. */
  timers: ReturnType<typeof setInterval>[];
  clock: Clock;
  cmd: RedisClient;
  streamReader: StreamReader;
  classifier: EntryClassifier;
  correlator: Correlator;
  inbound: InboundDeliveries;
  inFlight: Set<Promise<unknown>>;
  connectTimeoutMs: number;
  closeSettleMs: number;
  fail: (err: unknown) => void;
}

async function closeShard(p: ShardParts): Promise<void> {
  for (const timer of p.timers) clearInterval(timer);
  const { clock, classifier, connectTimeoutMs, closeSettleMs } = p;
  await within(p.streamReader.drain().catch(p.fail), connectTimeoutMs);
  await p.streamReader.stop();
  await within(Promise.allSettled([...p.inFlight]), connectTimeoutMs); // registrations and claims in flight
  const wait = classifier.youngestHeldAt() + closeSettleMs - clock.now();
  // On the receiver's clock, as the entries' ages are (a test's clock settles them without a real wait).
  if (wait > 0) await clock.sleep(Math.min(wait, closeSettleMs));
  classifier.housekeep(clock.now(), true); // settles everything still held
  await within(Promise.allSettled([...p.inFlight]), connectTimeoutMs);
  classifier.forfeit(); // only when Redis failed: what is left is this shard's
  p.correlator.close();
  p.inbound.close();
  await quitRedis(p.cmd);
}

/** The shard's correlator of answers to this shard's requestIds (defaults: see CorrelationOptions). */
function newCorrelator(
  options: StreamReceiverOptions,
  clock: Clock,
  orphanGraceMs: number,
  maxHeld: number,
): Correlator {
  return new Correlator({
    clock,
    orphanGraceMs,
    maxParked: maxHeld,
    rememberMs: options.rememberMs ?? 600_000,
    maxRemembered: options.maxRemembered ?? 500_000,
  });
}

/** A `track` that keeps each promise in `inFlight` until it settles (close() waits for them). */
function tracker(inFlight: Set<Promise<unknown>>): <T>(p: Promise<T>) => Promise<T> {
  return <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    const done = (): void => void inFlight.delete(p);
    p.then(done, done);
    return p;
  };
}

/** Starts reading `options.stream` after `from`, each batch to the classifier. */
function startStreamReader(
  options: StreamReceiverOptions,
  reader: RedisClient,
  cmd: RedisClient,
  from: string,
  classifier: EntryClassifier,
  fail: (err: unknown) => void,
): StreamReader {
  const onBatch = (entries: RawEntry[]): Promise<void> => classifier.onBatch(entries);
  const streamReader = new StreamReader({
    reader,
    cmd,
    stream: options.stream,
    from,
    count: options.readCount ?? 500,
    blockMs: options.blockMs ?? 1_000,
    onBatch,
    onError: fail,
  });
  streamReader.start();
  return streamReader;
}

/** Re-samples Redis TIME every `intervalMs` (unref'd timer), each sample to `onSample`. */
function startSkewSampling(
  cmd: RedisClient,
  clock: Clock,
  wallUs: ReturnType<typeof createWallUs>,
  intervalMs: number,
  onSample: (sample: TimeSample) => void,
  fail: (err: unknown) => void,
): ReturnType<typeof setInterval> {
  const timer = setInterval(() => void sampleRedisTime(cmd, clock, wallUs).then(onSample, fail), intervalMs);
  timer.unref();
  return timer;
}

/** Runs `housekeep` every orphanGraceMs / 4 (10 ms to 1 s; unref'd timer). */
function startHousekeeping(housekeep: () => void, orphanGraceMs: number): ReturnType<typeof setInterval> {
  const timer = setInterval(() => housekeep(), Math.min(1000, Math.max(10, Math.floor(orphanGraceMs / 4))));
  timer.unref();
  return timer;
}

/** Connects, measures the skew, and starts reading. Options and defaults: see StreamReceiverOptions. */
export async function createStreamReceiver(options: StreamReceiverOptions): Promise<StreamReceiver> {
  const clock = options.clock ?? systemClock;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const orphanGraceMs = options.orphanGraceMs ?? 30_000;
  const shardId = options.shardId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const { cmd, reader } = await connectShard(options, connectTimeoutMs);
  const wallUs = createWallUs(clock);
  let sample: TimeSample = await sampleRedisTime(cmd, clock, wallUs);
  const from = options.from ?? `${Math.floor(sample.redisUs / 1000) - 1}-18446744073709551615`;

  const maxHeld = options.maxParked ?? 100_000;
  const correlator = newCorrelator(options, clock, orphanGraceMs, maxHeld);
  const inbound = new InboundDeliveries(clock, options);
  const ownership = new Ownership(cmd, options.keyPrefix ?? options.stream, shardId, options.ownerTtlSeconds ?? 86_400);
  const inFlight = new Set<Promise<unknown>>();
  let lastError: string | undefined;
  let closing: Promise<void> | undefined;
  const track = tracker(inFlight);
  const fail = (err: unknown): void => void (lastError = err instanceof Error ? err.message : String(err));
  const toMono = (e: StreamEntry): number => sample.monoMs + (e.atUs + e.skewUs - sample.redisUs) / 1000;
  const classifier = new EntryClassifier({
    clock,
    correlator,
    inbound,
    ownership,
    orphanGraceMs,
    maxHeld,
    toMono,
    track,
    fail,
  });
  const streamReader = startStreamReader(options, reader, cmd, from, classifier, fail);

  const housekeep = (now = clock.now()): void => {
    correlator.housekeep(now);
    inbound.fire(now);
    if (closing === undefined) classifier.housekeep(now);
  };
  const housekeeping = startHousekeeping(housekeep, orphanGraceMs);
  const skewInterval = options.skewIntervalMs ?? 30_000;
  const skewTimer = startSkewSampling(cmd, clock, wallUs, skewInterval, (s) => void (sample = s), fail);
  const closeSettleMs = options.closeSettleMs ?? Math.min(orphanGraceMs, 2_000);
  const parts: ShardParts = {
    timers: [housekeeping, skewTimer],
    clock,
    cmd,
    streamReader,
    classifier,
    correlator,
    inbound,
    inFlight,
    connectTimeoutMs,
    closeSettleMs,
    fail,
  };

  return {
    shardId,
    lastId: () => streamReader.lastId,
    drain: () => streamReader.drain(),
    lastError: () => lastError,
    waitFor(id, deadline, signal) {
      const known = closing !== undefined || classifier.registering(id) || correlator.knows(id);
      const waiting = correlator.waitFor(id, deadline, signal);
      if (!known) classifier.register(id);
      return waiting;
    },
    expectAnswer(id, deadline, waiter, signal) {
      const known = closing !== undefined || classifier.registering(id) || correlator.knows(id);
      correlator.expect(id, deadline, waiter, signal);
      if (!known) classifier.register(id);
    },
    waitForMessage: (wait, deadline, signal) => inbound.waitForMessage(wait, deadline, signal),
    waitForIntent: (wait, deadline, signal) => inbound.waitForIntent(wait, deadline, signal),
    messagesOf: (customerId) => inbound.messagesOf(customerId),
    stats: () => shardStats(correlator, classifier),
    inboundStats: () => inbound.stats(),
    pendingCount: () => correlator.pending,
    onDuplicate: (listener) => {
      correlator.onDuplicate = listener;
    },
    wiring({ now = clock.now(), droidId } = {}) {
      const cutoff = now - ORPHAN_SUSPECT_MS;
      return judgeWiring(shardStats(correlator, classifier), (limit) => {
        const held = staleOfOtherDroids(classifier.heldBodies(), cutoff, droidId, limit);
        return staleOfOtherDroids(correlator.parkedBodies(), cutoff, droidId, limit, held);
      });
    },
    parkedCount: () => correlator.parked + classifier.parked,
    housekeep,
    clockSkew: () => shardSkew(sample, classifier),
    close: () => (closing ??= closeShard(parts)),
  };
}
