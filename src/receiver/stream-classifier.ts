/**
 * Classifies the entries a shard reads from the stream, by the rule of stream-ownership.ts:
 * answer entries of this shard go to its correlator (matched, duplicate, late...), others'
 * are counted foreign, entries of no known owner are held until their owner is known or the
 * grace period ends (then claimed as orphans), refused and undecodable entries are counted by the
 * shard that claims them. Message and intent entries are kept in the inbound store.
 * Redis round trips: one HMGET and the claims per XREAD batch, one script call per waitFor.
 */
import type { Clock } from '../clock.js';
import { answerMatch } from './answer-match.js';
import type { Correlator } from './correlator.js';
import type { InboundDeliveries } from './inbound.js';
import { parseObject } from './json-body.js';
import { decodeEntry, type StreamEntry } from './stream-entry.js';
import type { Ownership } from './stream-ownership.js';
import type { RawEntry } from './stream-reader.js';

interface Held {
  entries: StreamEntry[];
  /** clock.now() ms when the first entry was read. */
  firstAt: number;
  /** A claim or lookup is in flight. */
  resolving: boolean;
}

/** An entry that does not decode: counted malformed by the shard that claims it (rule 2). */
function undecodable(id: string): StreamEntry {
  return {
    id,
    route: 'answer',
    verdict: 'ok',
    atUs: 0,
    skewUs: 0,
    rttUs: 0,
    receiverId: '',
    requestId: undefined,
    customerId: undefined,
    body: '',
  };
}

export interface ClassifierDeps {
  clock: Clock;
  correlator: Correlator;
  inbound: InboundDeliveries;
  ownership: Ownership;
  orphanGraceMs: number;
  /** Past this many held entries, the oldest are claimed before the grace period ends. */
  maxHeld: number;
  /** An entry's arrival on this shard's clock (ms). */
  toMono: (e: StreamEntry) => number;
  /** Keeps a promise until it settles (close() waits for them). */
  track: <T>(p: Promise<T>) => Promise<T>;
  /** Records a Redis error. */
  fail: (err: unknown) => void;
}

export class EntryClassifier {
  /** Answer entries: received (all read), and those counted here rather than by the correlator. */
  readonly counts = { received: 0, foreign: 0, badSecret: 0, malformed: 0, orphans: 0, duplicates: 0 };
  /** Receiver id -> its last reported skew (Redis minus receiver) and round trip, us. */
  readonly receivers = new Map<string, { skewUs: number; rttUs: number }>();
  readonly #d: ClassifierDeps;
  readonly #held = new Map<string, Held>();
  #heldCount = 0;
  /** Rule-2 entries whose claim failed (Redis error); retried by housekeeping. */
  #unclaimed: StreamEntry[] = [];
  readonly #registering = new Set<string>();

  constructor(deps: ClassifierDeps) {
    this.#d = deps;
  }

  /** Entries held or waiting for a claim (part of parkedCount()). */
  get parked(): number {
    return this.#heldCount + this.#unclaimed.length;
  }

  /** True while this shard's registration of `id` is in flight. */
  registering(id: string): boolean {
    return this.#registering.has(id);
  }

  /** Registers this shard as the owner of `id` (its waiter already exists in the correlator). */
  register(id: string): void {
    const { correlator, ownership } = this.#d;
    this.#registering.add(id);
    this.#d.track(ownership.register(id)).then(
      (owner) => {
        this.#registering.delete(id);
        if (owner !== ownership.shardId) correlator.expel(id);
        if (this.#held.has(id)) this.#settle(id, owner, false);
      },
      (err: unknown) => {
        this.#d.fail(err);
        this.#registering.delete(id);
        correlator.expel(id); // without being the owner, this shard may not count X's entries
      },
    );
  }

  /** Classifies one XREAD batch, in stream order. */
  async onBatch(raw: RawEntry[]): Promise<void> {
    const { correlator, ownership, fail } = this.#d;
    const entries = raw.map(([id, fields]) => decodeEntry(id, fields) ?? undecodable(id));
    const unknown = new Set<string>();
    const toClaim: string[] = [];
    for (const e of entries) {
      if (e.route !== 'answer') continue;
      if (e.verdict !== 'ok' || e.requestId === undefined) toClaim.push(e.id);
      else if (!this.#registering.has(e.requestId) && !this.#held.has(e.requestId) && !correlator.knows(e.requestId))
        unknown.add(e.requestId);
    }
    const ids = [...unknown];
    const [owners, claims] = await Promise.all([
      ownership.lookup(ids).catch((err: unknown) => (fail(err), ids.map(() => null))),
      Promise.all(toClaim.map((id) => ownership.claimEntry(id).catch((err: unknown) => (fail(err), undefined)))),
    ]);
    const ownerOf = new Map(ids.map((id, i) => [id, owners[i] ?? null]));
    const claimOf = new Map(toClaim.map((id, i) => [id, claims[i]]));
    for (const e of entries) {
      if (e.receiverId !== '') this.receivers.set(e.receiverId, { skewUs: e.skewUs, rttUs: e.rttUs });
      if (e.route !== 'answer') {
        this.#inboundEntry(e);
        continue;
      }
      this.counts.received++;
      const id = e.requestId;
      if (e.verdict !== 'ok' || id === undefined) {
        const mine = claimOf.get(e.id);
        if (mine === undefined) this.#unclaimed.push(e);
        else this.#countClaimed(e, mine);
      } else if (this.#registering.has(id) || this.#held.has(id)) this.#hold(e);
      else if (correlator.knows(id)) this.#deliverOwn(e);
      else this.#byOwner(e, ownerOf.get(id) ?? null);
    }
  }

  /**
   * At `now`: claims held entries past the grace period (or past maxHeld) as orphans; unless
   * `final`, asks again who owns the other held ones and retries failed claims.
   */
  housekeep(now: number, final = false): void {
    const cutoff = now - this.#d.orphanGraceMs;
    let over = this.#heldCount - this.#d.maxHeld;
    for (const [id, h] of this.#held) {
      if (!final && h.firstAt > cutoff && over <= 0) break;
      over -= h.entries.length;
      if (!h.resolving && !this.#registering.has(id)) this.#claimHeld(id, h);
    }
    if (final || this.#unclaimed.length > 0) this.#retryClaims();
    if (!final) this.#recheckHeld();
  }

  /** Held requestIds (no owner known yet), oldest first, as `[first read ms, first body]` (the wiring rule, wiring.ts). */
  *heldBodies(): Generator<readonly [number, unknown]> {
    for (const h of this.#held.values()) yield [h.firstAt, parseObject(h.entries[0]?.body ?? '')];
  }

  /** clock.now() ms when the youngest held entry was read (-Infinity when none). */
  youngestHeldAt(): number {
    let max = -Infinity;
    for (const h of this.#held.values()) max = Math.max(max, h.firstAt);
    return max;
  }

  /** Redis failed at close: what is still held becomes this shard's orphans, unclaimed entries its own. */
  forfeit(): void {
    for (const [id, h] of this.#held) {
      this.counts.orphans++;
      this.counts.duplicates += h.entries.length - 1;
      this.#heldCount -= h.entries.length;
      this.#held.delete(id);
    }
    for (const e of this.#unclaimed.splice(0)) this.#countClaimed(e, true);
  }

  #byOwner(e: StreamEntry, owner: string | null): void {
    const { ownership } = this.#d;
    if (owner === null) this.#hold(e);
    else if (owner === ownership.shardId) this.#deliverOwn(e);
    else if (owner === ownership.orphanValue) this.counts.duplicates++;
    else this.counts.foreign++;
  }

  #deliverOwn(e: StreamEntry): void {
    const body = parseObject(e.body);
    if (body === undefined) {
      this.counts.malformed++;
      return;
    }
    const receivedAt = this.#d.toMono(e);
    this.#d.correlator.deliver(e.requestId as string, answerMatch(body, receivedAt), this.#d.clock.now());
  }

  #hold(e: StreamEntry): void {
    const id = e.requestId as string;
    let h = this.#held.get(id);
    if (h === undefined) {
      h = { entries: [], firstAt: this.#d.clock.now(), resolving: false };
      this.#held.set(id, h);
    }
    h.entries.push(e);
    this.#heldCount++;
  }

  /** Classifies the held entries of `id` once its owner value is final (rule 1). */
  #settle(id: string, owner: string, claimedNow: boolean): void {
    const entries = this.#held.get(id)?.entries ?? [];
    this.#held.delete(id);
    this.#heldCount -= entries.length;
    entries.forEach((e, i) => {
      if (owner === this.#d.ownership.orphanValue && claimedNow && i === 0) this.counts.orphans++;
      else this.#byOwner(e, owner);
    });
  }

  #countClaimed(e: StreamEntry, mine: boolean): void {
    if (!mine) this.counts.foreign++;
    else if (e.verdict === 'bad-secret') this.counts.badSecret++;
    else this.counts.malformed++;
  }

  #inboundEntry(e: StreamEntry): void {
    const { inbound } = this.#d;
    const stats = e.route === 'message' ? inbound.messageStats : inbound.intentStats;
    stats.received++;
    if (e.verdict !== 'ok') {
      stats.badSecret++;
      return;
    }
    const body = parseObject(e.body);
    if (body === undefined) {
      stats.malformed++;
      return;
    }
    stats.accepted++;
    if (e.route === 'message') inbound.addMessage(body, this.#d.toMono(e));
    else inbound.addIntent(body, this.#d.toMono(e));
  }

  #claimHeld(id: string, h: Held): void {
    h.resolving = true;
    const { ownership } = this.#d;
    this.#d.track(ownership.claimOrphan(id)).then(
      (owner) => this.#settle(id, owner, owner === ownership.orphanValue),
      (err: unknown) => {
        this.#d.fail(err);
        h.resolving = false; // retried by the next housekeeping
      },
    );
  }

  #retryClaims(): void {
    for (const e of this.#unclaimed.splice(0)) {
      this.#d.track(this.#d.ownership.claimEntry(e.id)).then(
        (mine) => this.#countClaimed(e, mine),
        (err: unknown) => (this.#d.fail(err), this.#unclaimed.push(e)),
      );
    }
  }

  /** Asks again who owns held requestIds (at most 1,000 per call): an owner that registered since settles them early. */
  #recheckHeld(): void {
    const ids: string[] = [];
    for (const [id, h] of this.#held) {
      if (ids.length >= 1_000) break;
      if (h.resolving || this.#registering.has(id)) continue;
      h.resolving = true;
      ids.push(id);
    }
    if (ids.length === 0) return;
    const reopen = (id: string): void => {
      const h = this.#held.get(id);
      if (h !== undefined) h.resolving = false;
    };
    this.#d.track(this.#d.ownership.lookup(ids)).then(
      (owners) =>
        ids.forEach((id, i) => {
          const owner = owners[i] ?? null;
          if (!this.#held.has(id)) return;
          if (owner === null || this.#registering.has(id)) reopen(id);
          else this.#settle(id, owner, false);
        }),
      (err: unknown) => {
        this.#d.fail(err);
        ids.forEach(reopen);
      },
    );
  }
}
