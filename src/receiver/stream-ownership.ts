/**
 * Who counts an answer-webhook entry when several shards read one stream (docs/scale.md).
 *
 * Every shard reads every entry XADDed after its start. The rule makes each entry counted by
 * every shard that reads it, and as something other than `foreign` by exactly one of them:
 *
 * 1. An entry with verdict `ok` and requestId X belongs to the owner of X: the value of field X
 *    in the hash `<prefix>:owners`, set once (HSETNX) and never changed.
 *    - A shard sets it to its shard id when it waits for X (the runner calls waitFor once the
 *      acknowledgement gave it X). It owns X: its correlator counts X's entries matched,
 *      duplicate or late (or orphan when it no longer remembers X).
 *    - A shard that has held an entry of X nobody owns for orphanGraceMs (from reading it) sets
 *      it to `orphan:<shard id>`: it counts the first such entry an orphan, and every other entry
 *      of X (held or later) a duplicate.
 *    Whichever HSETNX comes first wins. Every other shard counts X's entries `foreign`. A shard
 *    whose waitFor lost (X orphaned after the grace period) resolves that waiter as timeout.
 *    A shard asks the hash (HMGET, one round trip per XREAD batch) only for requestIds it does
 *    not know; while X has no owner, its entries are held (counted in parkedCount()).
 * 2. An entry with verdict `bad-secret`, without a requestId, or that does not decode is counted
 *    (badSecret or malformed) by the shard that claims its entry ID first in `<prefix>:claims`
 *    (HSETNX); the others count it `foreign`.
 *
 * Hence per shard: received = matched + duplicates + late + orphans + foreign + badSecret +
 * malformed + parked; summed over the shards (a merge): received - foreign = the entries read by
 * at least one shard, each counted once. An entry read by no shard (all closed, or before every
 * start) is counted by none. Both hashes expire `ownerTtlSeconds` after their last write.
 * Message and intent entries are not partitioned: every shard keeps every one (any shard may
 * wait for any customer), so their counters are per-shard views of the whole stream.
 */
import type { Redis } from 'ioredis';

/** HSETNX, refresh the key's TTL, and return the field's (final) value: one round trip, atomic. */
const SET_ONCE = `redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return redis.call('HGET', KEYS[1], ARGV[1])`;

type WithSetOnce = Redis & {
  dcSetOnce(key: string, field: string, value: string, ttl: number): Promise<string | null>;
};

export class Ownership {
  readonly shardId: string;
  readonly orphanValue: string;
  readonly #redis: WithSetOnce;
  readonly #owners: string;
  readonly #claims: string;
  readonly #ttl: number;

  constructor(redis: Redis, prefix: string, shardId: string, ttlSeconds: number) {
    if (!('dcSetOnce' in redis)) redis.defineCommand('dcSetOnce', { numberOfKeys: 1, lua: SET_ONCE });
    this.#redis = redis as WithSetOnce;
    this.#owners = `${prefix}:owners`;
    this.#claims = `${prefix}:claims`;
    this.#ttl = Math.max(1, Math.round(ttlSeconds));
    this.shardId = shardId;
    this.orphanValue = `orphan:${shardId}`;
  }

  /** Registers this shard as the owner of requestId `id`; resolves the final owner value. */
  async register(id: string): Promise<string> {
    return (await this.#redis.dcSetOnce(this.#owners, id, this.shardId, this.#ttl)) ?? '';
  }

  /** Claims `id` as an orphan of this shard; resolves the final owner value. */
  async claimOrphan(id: string): Promise<string> {
    return (await this.#redis.dcSetOnce(this.#owners, id, this.orphanValue, this.#ttl)) ?? '';
  }

  /** Owner values of `ids` (null: nobody yet). */
  async lookup(ids: readonly string[]): Promise<(string | null)[]> {
    return ids.length === 0 ? [] : this.#redis.hmget(this.#owners, ...ids);
  }

  /** Claims a stream entry (rule 2); true when this shard counts it. */
  async claimEntry(entryId: string): Promise<boolean> {
    return (await this.#redis.dcSetOnce(this.#claims, entryId, this.shardId, this.#ttl)) === this.shardId;
  }
}
