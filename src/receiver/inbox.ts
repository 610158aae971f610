/**
 * Inbox: kept deliveries (forwarded messages by customer, intent webhooks) and the waiters that
 * claim them. No I/O.
 *
 * - Items are kept per key (a customerId) in arrival order, at most `perKey` per key and `max`
 *   over all keys; past a bound the oldest item goes first (counted `dropped` when unclaimed).
 *   Claimed items stay (for inspection) until a bound pushes them out.
 * - A waiter names a key, a lower bound on arrival time (`after`) and a test; it takes the first
 *   unclaimed item that passes, whether the item came before the call (found at once) or later.
 *   Waiters of one key are served in the order they called.
 * - Deadlines live in one DeadlineTimer (one timer, no timer per waiter); abort listeners are
 *   removed when a waiter ends.
 */
import type { Clock } from '../clock.js';
import { DeadlineTimer } from './deadline-timer.js';

export interface Kept {
  receivedAt: number;
  claimed: boolean;
}

interface Slot<T> {
  key: string;
  item: T;
  gone: boolean;
}

class InboxWaiter<T> {
  done = false;
  onAbort: (() => void) | undefined;
  constructor(
    readonly key: string,
    readonly after: number,
    readonly test: (item: T) => boolean,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
    readonly resolve: (item: T | undefined) => void,
  ) {}
}

export class Inbox<T extends Kept> {
  readonly counts = { claimed: 0, dropped: 0 };
  readonly #clock: Clock;
  readonly #perKey: number;
  readonly #max: number;
  readonly #byKey = new Map<string, Slot<T>[]>();
  /** Every slot in arrival order; slots already gone are skipped and compacted away. */
  #order: Slot<T>[] = [];
  #head = 0;
  #size = 0;
  readonly #waiters = new Map<string, Set<InboxWaiter<T>>>();
  readonly #deadlines: DeadlineTimer<InboxWaiter<T>>;
  #closed = false;

  constructor(clock: Clock, bounds: { perKey: number; max: number }) {
    this.#clock = clock;
    this.#perKey = Math.max(1, bounds.perKey);
    this.#max = Math.max(1, bounds.max);
    this.#deadlines = new DeadlineTimer<InboxWaiter<T>>(clock, (w, at) => {
      if (!w.done && w.deadline === at) this.#finish(w, undefined);
    });
  }

  /** Items kept now. */
  get size(): number {
    return this.#size;
  }

  /** Waiters not yet resolved. */
  get pending(): number {
    let n = 0;
    for (const set of this.#waiters.values()) n += set.size;
    return n;
  }

  /** Keeps `item` under `key`; hands it to the first waiter of that key that takes it. */
  add(key: string, item: T): void {
    const waiters = this.#waiters.get(key);
    if (waiters !== undefined) {
      for (const w of waiters) {
        if (item.receivedAt >= w.after && w.test(item)) {
          this.#claim(item);
          this.#finish(w, item);
          break;
        }
      }
    }
    const slot: Slot<T> = { key, item, gone: false };
    let ring = this.#byKey.get(key);
    if (ring === undefined) {
      ring = [];
      this.#byKey.set(key, ring);
    }
    ring.push(slot);
    this.#order.push(slot);
    this.#size++;
    if (ring.length > this.#perKey) this.#drop(ring.shift() as Slot<T>);
    while (this.#size > this.#max) this.#dropOldest();
    if (this.#order.length - this.#head > 2 * this.#max + 1024) this.#compact();
  }

  /**
   * Resolves with the first unclaimed item of `key` received at or after `after` that passes
   * `test` (claiming it), or undefined at `deadline` (clock ms), on abort or at close().
   */
  wait(
    key: string,
    after: number,
    test: (item: T) => boolean,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    const ring = this.#byKey.get(key);
    if (ring !== undefined) {
      for (const slot of ring) {
        const item = slot.item;
        if (!item.claimed && item.receivedAt >= after && test(item)) {
          this.#claim(item);
          return Promise.resolve(item);
        }
      }
    }
    const now = this.#clock.now();
    if (this.#closed || signal?.aborted === true || deadline <= now) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve) => {
      const w = new InboxWaiter<T>(key, after, test, deadline, signal, resolve);
      let set = this.#waiters.get(key);
      if (set === undefined) {
        set = new Set();
        this.#waiters.set(key, set);
      }
      set.add(w);
      this.#deadlines.add(deadline, w, now);
      if (signal !== undefined) {
        w.onAbort = () => this.#finish(w, undefined);
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
    });
  }

  /** Items kept under `key`, oldest first. */
  list(key: string): T[] {
    return (this.#byKey.get(key) ?? []).map((s) => s.item);
  }

  /** Resolves waiters whose deadline passed at `now`. */
  fire(now = this.#clock.now()): void {
    this.#deadlines.fire(now);
  }

  /** Resolves every waiter with undefined; keeps the items (for inspection). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#deadlines.close();
    for (const set of [...this.#waiters.values()]) for (const w of [...set]) this.#finish(w, undefined);
  }

  #claim(item: T): void {
    item.claimed = true;
    this.counts.claimed++;
  }

  #finish(w: InboxWaiter<T>, item: T | undefined): void {
    if (w.done) return;
    w.done = true;
    const set = this.#waiters.get(w.key);
    set?.delete(w);
    if (set !== undefined && set.size === 0) this.#waiters.delete(w.key);
    if (w.onAbort !== undefined) w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(item);
  }

  #drop(slot: Slot<T>): void {
    slot.gone = true;
    this.#size--;
    if (!slot.item.claimed) this.counts.dropped++;
  }

  #dropOldest(): void {
    while (this.#head < this.#order.length) {
      const slot = this.#order[this.#head++] as Slot<T>;
      if (slot.gone) continue;
      const ring = this.#byKey.get(slot.key) as Slot<T>[];
      ring.shift(); // the key's oldest slot is this one: both orders are arrival order
      if (ring.length === 0) this.#byKey.delete(slot.key);
      this.#drop(slot);
      return;
    }
  }

  #compact(): void {
    this.#order = this.#order.slice(this.#head).filter((s) => !s.gone);
    this.#head = 0;
  }
}
