/**
 * Compact memory of finished requestIds, to classify a later delivery as duplicate or late.
 * A Map<string, number> from id to the sequence number of its latest finish, and a FIFO of
 * finishes in order (id, and the finish time in whole ms x 4 + state, in two parallel arrays: no
 * object per entry). Expiry and the count bound drop from the FIFO's head, so neither walks the
 * Map: a Map iterated from the front after many front deletions skips every deleted slot, which
 * cost ~50 us per add once the bound was reached, on the per-webhook path of long load runs.
 * Retention: `rememberMs` after finishing, and at most `maxEntries` ids (oldest forgotten first).
 * A delivery for a forgotten id is parked and later counted as an orphan.
 * FOREIGN (stream mode only): an id this shard waited for but another shard owns (see
 * stream-ownership.ts); a later waitFor for it resolves timeout at once.
 */
export const FINISHED = { MATCHED: 0, TIMED_OUT: 1, ORPHANED: 2, FOREIGN: 3 } as const;
export type FinishedState = (typeof FINISHED)[keyof typeof FINISHED];

/** The FIFO is compacted when this many dropped entries sit before its head (and they are half of it). */
const COMPACT_AT = 4096;

export class FinishedIds {
  /** id -> sequence number of its latest finish (an index into the FIFO, plus #base). */
  readonly #latest = new Map<string, number>();
  /** FIFO of finishes: ids and packed `floor(ms) * 4 + state`, from #head on. */
  #ids: string[] = [];
  #packed: number[] = [];
  #head = 0;
  /** Sequence number of #ids[0]. */
  #base = 0;
  readonly #rememberMs: number;
  readonly #maxEntries: number;

  constructor(rememberMs: number, maxEntries: number) {
    this.#rememberMs = rememberMs;
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#latest.size;
  }

  add(id: string, state: FinishedState, now: number): void {
    this.#latest.set(id, this.#base + this.#ids.length);
    this.#ids.push(id);
    this.#packed.push(Math.floor(now) * 4 + state);
    while (this.#latest.size > this.#maxEntries) this.#dropHead();
    this.#compact();
  }

  get(id: string): FinishedState | undefined {
    const seq = this.#latest.get(id);
    if (seq === undefined) return undefined;
    const v = this.#packed[seq - this.#base] as number;
    return (((v % 4) + 4) % 4) as FinishedState;
  }

  /** Forgets ids finished more than rememberMs before `now`. */
  expire(now: number): void {
    const cutoff = now - this.#rememberMs;
    while (this.#head < this.#ids.length && Math.floor((this.#packed[this.#head] as number) / 4) < cutoff)
      this.#dropHead();
    this.#compact();
  }

  clear(): void {
    this.#latest.clear();
    this.#base += this.#ids.length;
    this.#ids = [];
    this.#packed = [];
    this.#head = 0;
  }

  /** Drops the FIFO's oldest finish; forgets its id unless the id finished again since. */
  #dropHead(): void {
    const i = this.#head++;
    const id = this.#ids[i] as string;
    if (this.#latest.get(id) === this.#base + i) this.#latest.delete(id);
  }

  #compact(): void {
    const head = this.#head;
    if (head < COMPACT_AT || head * 2 < this.#ids.length) return;
    this.#ids = this.#ids.slice(head);
    this.#packed = this.#packed.slice(head);
    this.#base += head;
    this.#head = 0;
  }
}
