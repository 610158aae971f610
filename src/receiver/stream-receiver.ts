/**
 * createStreamReceiver: the deliveries of a shard read from a Redis Stream that publishing
 * receivers fill (issue 13, part 2), behind the same DeliverySource interface as the HTTP
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
import { systemClock } from '../clock.js';
import { answerMatch } from './answer-match.js';
import { Correlator } from './correlator.js';
import { InboundDeliveries } from './inbound.js';
import { parseObject, within } from './json-body.js';
import { connectRedis, createRedis, createWallUs, quitRedis, sampleRedisTime, type TimeSample } from './redis-connection.js';
import { decodeEntry, type StreamEntry } from './stream-entry.js';
import { Ownership } from './stream-ownership.js';
import { StreamReader, type RawEntry } from './stream-reader.js';
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

/** An entry that does not decode: counted malformed by the shard that claims it (rule 2). */
function undecodable(id: string): StreamEntry {
  return { id, route: 'answer', verdict: 'ok', atUs: 0, skewUs: 0, rttUs: 0, receiverId: '', requestId: undefined, customerId: undefined, body: '' };
}

interface Held {
  entries: StreamEntry[];
  firstAt: number;
  resolving: boolean;
}

/** Connects, measures the skew, and starts reading. Options and defaults: see StreamReceiverOptions. */
export async function createStreamReceiver(options: StreamReceiverOptions): Promise<StreamReceiver> {
  const clock = options.clock ?? systemClock;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const orphanGraceMs = options.orphanGraceMs ?? 30_000;
  const closeSettleMs = options.closeSettleMs ?? Math.min(orphanGraceMs, 2_000);
  const shardId = options.shardId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
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
  const wallUs = createWallUs(clock);
  let sample: TimeSample = await sampleRedisTime(cmd, clock, wallUs);
  const from = options.from ?? `${Math.floor(sample.redisUs / 1000) - 1}-18446744073709551615`;

  const maxHeld = options.maxParked ?? 100_000;
  const correlator = new Correlator({
    clock,
    orphanGraceMs,
    maxParked: maxHeld,
    rememberMs: options.rememberMs ?? 600_000,
    maxRemembered: options.maxRemembered ?? 500_000,
  });
  const inbound = new InboundDeliveries(clock, options);
  const ownership = new Ownership(cmd, options.keyPrefix ?? options.stream, shardId, options.ownerTtlSeconds ?? 86_400);
  const counts = { received: 0, foreign: 0, badSecret: 0, malformed: 0 };
  const own = { orphans: 0, duplicates: 0 }; // rule 1's orphan claims (beside the correlator's)
  const held = new Map<string, Held>();
  let heldCount = 0;
  const unclaimed: StreamEntry[] = []; // rule 2 entries whose claim failed (Redis error); retried
  const registering = new Set<string>();
  const receivers = new Map<string, { skewUs: number; rttUs: number }>();
  const inFlight = new Set<Promise<unknown>>();
  let lastError: string | undefined;
  let closing: Promise<void> | undefined;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    const done = (): void => void inFlight.delete(p);
    p.then(done, done);
    return p;
  };
  const fail = (err: unknown): void => {
    lastError = err instanceof Error ? err.message : String(err);
  };
  const toMono = (e: StreamEntry): number => sample.monoMs + (e.atUs + e.skewUs - sample.redisUs) / 1000;

  const deliverOwn = (e: StreamEntry): void => {
    const body = parseObject(e.body);
    if (body === undefined) {
      counts.malformed++;
      return;
    }
    const receivedAt = toMono(e);
    correlator.deliver(e.requestId as string, answerMatch(body, receivedAt), clock.now());
  };

  /** Classifies the held entries of `id` once its owner value is final (rule 1). */
  const settle = (id: string, owner: string, claimedNow: boolean): void => {
    const h = held.get(id);
    held.delete(id);
    const entries = h?.entries ?? [];
    heldCount -= entries.length;
    entries.forEach((e, i) => {
      if (owner === shardId) deliverOwn(e);
      else if (owner === ownership.orphanValue) {
        if (claimedNow && i === 0) own.orphans++;
        else own.duplicates++;
      } else counts.foreign++;
    });
  };

  const hold = (e: StreamEntry): void => {
    const id = e.requestId as string;
    let h = held.get(id);
    if (h === undefined) {
      h = { entries: [], firstAt: clock.now(), resolving: false };
      held.set(id, h);
    }
    h.entries.push(e);
    heldCount++;
  };

  const countClaimed = (e: StreamEntry, mine: boolean): void => {
    if (!mine) counts.foreign++;
    else if (e.verdict === 'bad-secret') counts.badSecret++;
    else counts.malformed++;
  };

  const inboundEntry = (e: StreamEntry): void => {
    const stats = e.route === 'message' ? inbound.messageStats : inbound.intentStats;
    stats.received++;
    if (e.verdict !== 'ok') {
      stats.badSecret++;
      return;
    }
    const body = parseObject(e.body);
    if (body === undefined) stats.malformed++;
    else if (e.route === 'message') inbound.addMessage(body, toMono(e));
    else inbound.addIntent(body, toMono(e));
  };

  const onBatch = async (raw: RawEntry[]): Promise<void> => {
    const entries = raw.map(([id, fields]) => decodeEntry(id, fields) ?? undecodable(id));
    const unknown = new Set<string>();
    const toClaim: string[] = [];
    for (const e of entries) {
      if (e.route !== 'answer') continue;
      else if (e.verdict !== 'ok' || e.requestId === undefined) toClaim.push(e.id);
      else if (!registering.has(e.requestId) && !held.has(e.requestId) && !correlator.knows(e.requestId)) unknown.add(e.requestId);
    }
    const ids = [...unknown];
    const [owners, claims] = await Promise.all([
      ownership.lookup(ids).catch((err: unknown) => (fail(err), ids.map(() => null))),
      Promise.all(toClaim.map((id) => ownership.claimEntry(id).catch((err: unknown) => (fail(err), undefined)))),
    ]);
    const ownerOf = new Map(ids.map((id, i) => [id, owners[i] ?? null]));
    const claimOf = new Map(toClaim.map((id, i) => [id, claims[i]]));
    for (const e of entries) {
      if (e.receiverId !== '') receivers.set(e.receiverId, { skewUs: e.skewUs, rttUs: e.rttUs });
      if (e.route !== 'answer') {
        inboundEntry(e);
        continue;
      }
      counts.received++;
      const id = e.requestId;
      if (e.verdict !== 'ok' || id === undefined) {
        const mine = claimOf.get(e.id);
        if (mine === undefined) unclaimed.push(e);
        else countClaimed(e, mine);
      } else if (registering.has(id) || held.has(id)) hold(e);
      else if (correlator.knows(id)) deliverOwn(e);
      else {
        const owner = ownerOf.get(id) ?? null;
        if (owner === null) hold(e);
        else if (owner === shardId) deliverOwn(e);
        else if (owner === ownership.orphanValue) own.duplicates++;
        else counts.foreign++;
      }
    }
  };

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

  const claimHeld = (id: string, h: Held): void => {
    h.resolving = true;
    track(ownership.claimOrphan(id)).then(
      (owner) => settle(id, owner, owner === ownership.orphanValue),
      (err: unknown) => {
        fail(err);
        h.resolving = false; // retried by the next housekeeping
      },
    );
  };

  const retryClaims = (): void => {
    for (const e of unclaimed.splice(0)) {
      track(ownership.claimEntry(e.id)).then(
        (mine) => countClaimed(e, mine),
        (err: unknown) => (fail(err), unclaimed.push(e)),
      );
    }
  };

  /** Asks again who owns held requestIds (at most 1,000 per call): an owner that registered late settles them early. */
  const recheckHeld = (): void => {
    const ids: string[] = [];
    for (const [id, h] of held) {
      if (ids.length >= 1_000) break;
      if (h.resolving || registering.has(id)) continue;
      h.resolving = true;
      ids.push(id);
    }
    if (ids.length === 0) return;
    track(ownership.lookup(ids)).then(
      (owners) =>
        ids.forEach((id, i) => {
          const h = held.get(id);
          if (h === undefined) return;
          const owner = owners[i] ?? null;
          if (owner === null || registering.has(id)) h.resolving = false;
          else settle(id, owner, false);
        }),
      (err: unknown) => {
        fail(err);
        for (const id of ids) {
          const h = held.get(id);
          if (h !== undefined) h.resolving = false;
        }
      },
    );
  };

  const housekeep = (now = clock.now()): void => {
    correlator.housekeep(now);
    inbound.fire(now);
    const cutoff = now - orphanGraceMs;
    let over = heldCount - maxHeld; // past maxParked the oldest held are settled early (like the HTTP receiver's orphans)
    for (const [id, h] of held) {
      if (h.firstAt > cutoff && over <= 0) break;
      over -= h.entries.length;
      if (!h.resolving && !registering.has(id)) claimHeld(id, h);
    }
    if (closing === undefined) {
      recheckHeld();
      if (unclaimed.length > 0) retryClaims();
    }
  };
  const housekeeping = setInterval(() => housekeep(), Math.min(1000, Math.max(10, Math.floor(orphanGraceMs / 4))));
  housekeeping.unref();
  const skewTimer = setInterval(() => {
    sampleRedisTime(cmd, clock, wallUs).then((s) => void (sample = s), fail);
  }, options.skewIntervalMs ?? 30_000);
  skewTimer.unref();

  const waitFor: DeliverySource['waitFor'] = (id, deadline, signal) => {
    if (closing !== undefined || registering.has(id) || correlator.knows(id)) return correlator.waitFor(id, deadline, signal);
    const waiting = correlator.waitFor(id, deadline, signal);
    registering.add(id);
    track(ownership.register(id)).then(
      (owner) => {
        registering.delete(id);
        if (owner !== shardId) correlator.expel(id);
        if (held.has(id)) settle(id, owner, false);
      },
      (err: unknown) => {
        fail(err);
        registering.delete(id);
        correlator.expel(id); // without an owner this shard may not count X's entries
      },
    );
    return waiting;
  };

  const skew = (): ClockSkew => ({
    redisMinusLocalUs: sample.redisMinusLocalUs,
    rttUs: sample.rttUs,
    measuredAt: sample.at.toISOString(),
    receivers: [...receivers].map(([receiverId, r]) => ({
      receiverId,
      redisMinusReceiverUs: r.skewUs,
      receiverMinusLocalUs: sample.redisMinusLocalUs - r.skewUs,
      uncertaintyUs: Math.round((sample.rttUs + r.rttUs) / 2),
    })),
  });

  return {
    shardId,
    lastId: () => streamReader.lastId,
    drain: () => streamReader.drain(),
    lastError: () => lastError,
    waitFor,
    waitForMessage: (wait, deadline, signal) => inbound.waitForMessage(wait, deadline, signal),
    waitForIntent: (wait, deadline, signal) => inbound.waitForIntent(wait, deadline, signal),
    messagesOf: (customerId) => inbound.messagesOf(customerId),
    stats(): ReceiverStats {
      const c = correlator.counts;
      return {
        ...counts,
        matched: c.matched,
        duplicates: c.duplicates + own.duplicates,
        late: c.late,
        orphans: c.orphans + own.orphans,
        published: 0,
        unavailable: 0,
      };
    },
    inboundStats: () => inbound.stats(),
    pendingCount: () => correlator.pending,
    parkedCount: () => correlator.parked + heldCount + unclaimed.length,
    housekeep,
    clockSkew: skew,
    close() {
      closing ??= (async () => {
        clearInterval(housekeeping);
        clearInterval(skewTimer);
        await within(streamReader.drain().catch(fail), connectTimeoutMs);
        await streamReader.stop();
        await within(Promise.allSettled([...inFlight]), connectTimeoutMs); // registrations and claims in flight
        const youngest = [...held.values()].reduce((max, h) => Math.max(max, h.firstAt), -Infinity);
        const wait = youngest + closeSettleMs - clock.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, closeSettleMs)));
        for (const [id, h] of held) if (!h.resolving) claimHeld(id, h);
        retryClaims();
        await within(Promise.allSettled([...inFlight]), connectTimeoutMs);
        // Redis failed: what is still held or unclaimed becomes this shard's orphans / malformed.
        for (const [id, h] of held) {
          own.orphans++;
          own.duplicates += h.entries.length - 1;
          heldCount -= h.entries.length;
          held.delete(id);
        }
        counts.malformed += unclaimed.splice(0).length;
        correlator.close();
        inbound.close();
        await quitRedis(cmd);
      })();
      return closing;
    },
  };
}

