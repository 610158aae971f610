/**
 * Whether the answer webhooks that reach a receiver can be matched at all. A run whose every
 * answer arrives with a wrong `?secret=`, as some other body, or from another droid would
 * otherwise wait out each answer's deadline (180 s) although the receiver knew within seconds.
 * The runner polls `DeliverySource.wiring()` and stops the run on `miswired`
 * (runner/engine-run.ts, setup-breaker.ts); docs/receiver.md, "Wiring mistakes".
 *
 * The rule, on the answer-webhook counters (ReceiverStats) and the parked deliveries:
 * - `working` once one answer webhook matched a waiting requestId, or came for one whose
 *   deadline had passed (`late`: the run's own answer, only slow). Counters never go down, so a
 *   single match disarms the rule for the receiver's life;
 * - else `miswired` as soon as one kind of delivery that cannot be matched reaches
 *   WIRING_THRESHOLD (3), checked in this order:
 *   - `bad-secret`: refused for a wrong or missing `?secret=` (401; spec: Authentication 7);
 *   - `malformed`: not a JSON object with a string requestId (400), too large (413), too slow
 *     (408) or not HTTP (400/431);
 *   - `other-droid`: parked unclaimed for ORPHAN_SUSPECT_MS while its body's `droidId` is not
 *     the run's droid (only when the caller names it): another droid's answer webhook points at
 *     this receiver. A webhook may beat its acknowledgement, but only by the acknowledgement's own
 *     time (the spec's limit is 100 ms), so 2 s unclaimed is not a race;
 * - else `unknown` (nothing yet, or fewer than 3 of each kind).
 * A service retrying a refused webhook counts once per attempt. Two kinds never count:
 * - orphans of the run's own droid (requestIds it never sent): before the run's first answer
 *   arrives they cannot be told from the retried webhooks of an earlier run (stopped with
 *   requests in flight, at the same URL) reaching a droid that merely answers slowly;
 * - `foreign` (stream mode: another shard's entries): answers of a sibling shard, proof that the
 *   wiring works.
 * The bound is small because a healthy run's first answer matches: a few stray deliveries
 * before it (a scanner, an old client) stay under 3, and after it nothing stops the run.
 */
/** Deliveries of one unmatchable kind, with none matched, that make a receiver `miswired`. */
export const WIRING_THRESHOLD = 3;

/** A parked answer webhook of another droid unclaimed this long counts for the rule, ms. */
export const ORPHAN_SUSPECT_MS = 2_000;

/** What an answer webhook that cannot be matched was. */
type UnmatchedKind = 'bad-secret' | 'malformed' | 'other-droid';

/** Why a receiver is `miswired`. */
export interface WiringFault {
  kind: UnmatchedKind;
  /** Deliveries of that kind received so far (each attempt of a retried webhook counts). */
  deliveries: number;
  /** `other-droid`: the droids the parked bodies name (distinct, at most WIRING_THRESHOLD); else []. */
  droidIds: number[];
}

/** See the module docs. */
export type WiringVerdict = { state: 'working' } | { state: 'unknown' } | { state: 'miswired'; fault: WiringFault };

/** What `DeliverySource.wiring()` judges against. */
export interface WiringQuery {
  /** clock ms; default clock.now(). */
  now?: number;
  /** The run's droid: parked answers naming another one count as `other-droid`. Absent: they never count. */
  droidId?: number | string;
}

/** Parked answer webhooks of another droid, older than the suspect age: how many (up to a limit), which droids. */
export interface StaleParked {
  count: number;
  droidIds: number[];
}

/** The answer-webhook counters the rule reads (ReceiverStats has them). */
interface WiringCounts {
  matched: number;
  late: number;
  badSecret: number;
  malformed: number;
}

const WORKING: WiringVerdict = Object.freeze({ state: 'working' });
const UNKNOWN: WiringVerdict = Object.freeze({ state: 'unknown' });

/**
 * The verdict of the rule (module docs) on `stats`; `stale(limit)` lists up to `limit` parked
 * deliveries of another droid past ORPHAN_SUSPECT_MS, and is called only while nothing matched.
 */
export function judgeWiring(stats: WiringCounts, stale: (limit: number) => StaleParked): WiringVerdict {
  if (stats.matched > 0 || stats.late > 0) return WORKING;
  const fault = (kind: UnmatchedKind, deliveries: number, droidIds: number[] = []): WiringVerdict => ({
    state: 'miswired',
    fault: { kind, deliveries, droidIds },
  });
  if (stats.badSecret >= WIRING_THRESHOLD) return fault('bad-secret', stats.badSecret);
  if (stats.malformed >= WIRING_THRESHOLD) return fault('malformed', stats.malformed);
  const others = stale(WIRING_THRESHOLD);
  if (others.count >= WIRING_THRESHOLD) return fault('other-droid', others.count, others.droidIds);
  return UNKNOWN;
}

/**
 * Collects the stale parked bodies (oldest first, each `[arrival ms, body]`) that name a droid
 * other than `droidId`, up to `limit`; stops at the first that arrived after `cutoff`.
 */
export function staleOfOtherDroids(
  parked: Iterable<readonly [number, unknown]>,
  cutoff: number,
  droidId: number | string | undefined,
  limit: number,
  into: StaleParked = { count: 0, droidIds: [] },
): StaleParked {
  if (droidId === undefined) return into;
  const own = String(droidId);
  for (const [at, body] of parked) {
    if (at > cutoff || into.count >= limit) break;
    const id = (body as { droidId?: unknown } | null | undefined)?.droidId;
    if (typeof id !== 'number' || String(id) === own) continue;
    into.count++;
    if (!into.droidIds.includes(id)) into.droidIds.push(id);
  }
  return into;
}
