/**
 * Compact memory of finished requestIds, to classify a later delivery as duplicate or late.
 * One Map<string, number> entry per id (no object): the value packs the state in its 2 low bits
 * and the finish time (whole ms) above them. Entries are inserted in finishing order (clock is
 * monotonic), so expiry and the count bound both drop from the front of the Map.
 * Retention: `rememberMs` after finishing, and at most `maxEntries` ids (oldest forgotten first).
 * A delivery for a forgotten id is parked and later counted as an orphan.
 * FOREIGN (stream mode only): an id this shard waited for but another shard owns (see
 * stream-ownership.ts); a later waitFor for it resolves timeout at once.
 */
export const FINISHED = { MATCHED: 0, TIMED_OUT: 1, ORPHANED: 2, FOREIGN: 3 } as const;
export type FinishedState = (typeof FINISHED)[keyof typeof FINISHED];

export class FinishedIds {
  readonly #map = new Map<string, number>();
  readonly #rememberMs: number;
  readonly #maxEntries: number;

  constructor(rememberMs: number, maxEntries: number) {
    this.#rememberMs = rememberMs;
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#map.size;
  }

  add(id: string, state: FinishedState, now: number): void {
    this.#map.delete(id); // keep insertion order == finishing order
    this.#map.set(id, Math.floor(now) * 4 + state);
    if (this.#map.size > this.#maxEntries) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
  }

  get(id: string): FinishedState | undefined {
    const v = this.#map.get(id);
    return v === undefined ? undefined : ((((v % 4) + 4) % 4) as FinishedState);
  }

  /** Forgets ids finished more than rememberMs before `now`. */
  expire(now: number): void {
    const cutoff = now - this.#rememberMs;
    for (const [id, v] of this.#map) {
      if (Math.floor(v / 4) >= cutoff) break;
      this.#map.delete(id);
    }
  }

  clear(): void {
    this.#map.clear();
  }
}
