/**
 * One timer for many deadlines: a DeadlineHeap and a single setTimeout armed at the earliest
 * deadline (no timer per waiter). Deadlines are `clock.now()` ms. `fire(now)` resolves everything
 * due at `now`; the timer calls it with the clock's time, and tests call it (through a receiver's
 * `housekeep(now)`) with a test clock's time, so absences are proven without sleeping.
 */
import type { Clock } from '../clock.js';
import { DeadlineHeap } from './deadline-heap.js';

/** setTimeout's largest delay (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export class DeadlineTimer<K> {
  readonly #clock: Clock;
  readonly #onDue: (key: K, at: number, now: number) => void;
  readonly #heap = new DeadlineHeap<K>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #closed = false;

  /** `onDue(key, at, now)` is called once per entry whose deadline `at` is <= now; it must ignore stale entries. */
  constructor(clock: Clock, onDue: (key: K, at: number, now: number) => void) {
    this.#clock = clock;
    this.#onDue = onDue;
  }

  get size(): number {
    return this.#heap.size;
  }

  add(at: number, key: K, now = this.#clock.now()): void {
    if (this.#closed) return;
    this.#heap.push(at, key);
    if (at < this.#timerAt) this.#arm(at, now);
  }

  /** Calls onDue for every entry due at `now`, then re-arms the timer at the next deadline. */
  fire(now = this.#clock.now()): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const heap = this.#heap;
    while (heap.size > 0 && heap.peek() <= now) {
      const at = heap.peek();
      this.#onDue(heap.pop(), at, now);
    }
    if (heap.size > 0 && !this.#closed) this.#arm(heap.peek(), now);
  }

  /** The keys of every entry (pending and stale), in no particular order. */
  keys(): K[] {
    return this.#heap.keys();
  }

  /**
   * Drops the entries whose key fails `keep` (stale ones). The timer is left as armed: if the
   * earliest entry went, fire() at that time finds nothing due and re-arms at the earliest left.
   */
  retain(keep: (key: K) => boolean): void {
    if (!this.#closed) this.#heap.retain(keep);
  }

  /** Drops every entry and the timer; add() does nothing afterwards. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = -Infinity;
    this.#heap.clear();
  }

  #arm(at: number, now: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - now)));
    this.#timer = setTimeout(() => this.fire(), delay);
  }
}
