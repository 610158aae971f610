/**
 * The requestIds a correlator knows: each one either waited for (its waiter object, W) or
 * finished (matched, timed out, orphaned, foreign), in one Map, so the per-webhook path does one
 * lookup and overwrites the same entry when a waiter finishes (no second Map of finished ids to
 * grow and hash into).
 *
 * Finished ids: the Map holds the sequence number of the id's latest finish; a FIFO of finishes
 * in order holds the id and the finish time in whole ms x 4 + state, in two parallel arrays (no
 * object per entry). Expiry and the count bound drop from the FIFO's head, so neither walks the
 * Map: a Map iterated from the front after many front deletions skips every deleted slot, which
 * cost ~50 us per add once the bound was reached, on the per-webhook path of long load runs.
 * Retention: `rememberMs` after finishing, and at most `maxEntries` finished ids (oldest
 * forgotten first). A delivery for a forgotten id is parked and later counted as an orphan.
 * FOREIGN (stream mode only): an id this shard waited for but another shard owns (see
 * stream-ownership.ts); a later waitFor for it resolves timeout at once.
 */
export const FINISHED = { MATCHED: 0, TIMED_OUT: 1, ORPHANED: 2, FOREIGN: 3 } as const;
export type FinishedState = (typeof FINISHED)[keyof typeof FINISHED];

/** The FIFO is compacted when this many dropped entries sit before its head (and they are half of it). */
const COMPACT_AT = 4096;

export class FinishedIds<W extends object = never> {
  /** id -> its waiter, or the sequence number of its latest finish (an index into the FIFO, plus #base). */
  readonly #byId = new Map<string, W | number>();
  /** Finished ids in #byId. */
  #finished = 0;
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

  /** Finished ids remembered (waiters not counted). */
  get size(): number {
    return this.#finished;
  }

  /** The id's waiter, or its finish (a number: read it with stateOf), or undefined when unknown. */
  entry(id: string): W | number | undefined {
    return this.#byId.get(id);
  }

  /** The state of a finish that entry() returned. */
  stateOf(finish: number): FinishedState {
    const v = this.#packed[finish - this.#base] as number;
    return (((v % 4) + 4) % 4) as FinishedState;
  }

  /** The finished state of `id`, or undefined (unknown, forgotten, or waited for). */
  get(id: string): FinishedState | undefined {
    const e = this.#byId.get(id);
    return typeof e === 'number' ? this.stateOf(e) : undefined;
  }

  /** Records `waiter` for `id` (the caller checked that entry(id) is undefined). */
  wait(id: string, waiter: W): void {
    this.#byId.set(id, waiter);
  }

  /** Finishes `id` (replacing an earlier finish, if any) at `now` ms. */
  add(id: string, state: FinishedState, now: number): void {
    if (typeof this.#byId.get(id) !== 'number') this.#finished++;
    this.#push(id, state, now);
  }

  /** Finishes `id`, whose entry is its waiter (the caller read it with entry()), at `now` ms. */
  settle(id: string, state: FinishedState, now: number): void {
    this.#finished++;
    this.#push(id, state, now);
  }

  /** Forgets ids finished more than rememberMs before `now`. */
  expire(now: number): void {
    const cutoff = now - this.#rememberMs;
    while (this.#head < this.#ids.length && Math.floor((this.#packed[this.#head] as number) / 4) < cutoff)
      this.#dropHead();
    this.#compact();
  }

  /** Forgets every id, waited for or finished. */
  clear(): void {
    this.#byId.clear();
    this.#finished = 0;
    this.#base += this.#ids.length;
    this.#ids = [];
    this.#packed = [];
    this.#head = 0;
  }

  #push(id: string, state: FinishedState, now: number): void {
    this.#byId.set(id, this.#base + this.#ids.length);
    this.#ids.push(id);
    this.#packed.push(Math.floor(now) * 4 + state);
    while (this.#finished > this.#maxEntries) this.#dropHead();
    this.#compact();
  }

  /** Drops the FIFO's oldest finish; forgets its id unless the id finished again (or is waited for) since. */
  #dropHead(): void {
    const i = this.#head++;
    const id = this.#ids[i] as string;
    if (this.#byId.get(id) === this.#base + i) {
      this.#byId.delete(id);
      this.#finished--;
    }
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
