/**
 * Correlates webhook deliveries with waiters by requestId (spec: Events, rules 2-3), with no I/O.
 *
 * - waiters: Map<requestId, Waiter{resolve, deadline, signal}>, deadlines in one DeadlineHeap
 *   served by a single timer armed at the earliest deadline (no timer per waiter).
 * - parked: deliveries that came before their waitFor (the webhook can beat the acknowledgement);
 *   claimed by the later waitFor, or counted as orphans after `orphanGraceMs` / at close().
 * - finished: FinishedIds (compact, bounded) to tell a duplicate from a late delivery.
 * - AbortSignals: one listener per distinct signal (not per waiter), so a run-wide signal
 *   shared by 100k waiters holds one listener and a Set of ids.
 * Heap per pending waiter: the Waiter, its Promise and resolve function, a Map entry and a
 * heap slot: a few hundred bytes (well under 2 KB); the requestId string is the caller's.
 */
import type { Clock } from '../clock.js';
import { DeadlineHeap } from './deadline-heap.js';
import { FINISHED, FinishedIds } from './finished-ids.js';
import type { DeliveredMatch, WebhookMatch } from './types.js';

export type DeliveryOutcome = 'matched' | 'parked' | 'duplicate' | 'late' | 'orphan';

export interface CorrelatorOptions {
  clock: Clock;
  orphanGraceMs: number;
  maxParked: number;
  rememberMs: number;
  maxRemembered: number;
}

const TIMEOUT: WebhookMatch = Object.freeze({ kind: 'timeout' });
const MAX_TIMER_MS = 2_147_483_647;

class Waiter {
  constructor(
    readonly resolve: (m: WebhookMatch) => void,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
  ) {}
}

interface Parked {
  match: DeliveredMatch;
  at: number;
}

export class Correlator {
  readonly counts = { matched: 0, duplicates: 0, late: 0, orphans: 0 };
  readonly #o: CorrelatorOptions;
  readonly #waiters = new Map<string, Waiter>();
  readonly #parked = new Map<string, Parked>();
  readonly #finished: FinishedIds;
  readonly #heap = new DeadlineHeap();
  readonly #bySignal = new WeakMap<AbortSignal, Set<string>>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  readonly #housekeeping: NodeJS.Timeout;
  #closed = false;

  constructor(options: CorrelatorOptions) {
    this.#o = options;
    this.#finished = new FinishedIds(options.rememberMs, options.maxRemembered);
    const every = Math.min(1000, Math.max(10, Math.floor(options.orphanGraceMs / 4)));
    this.#housekeeping = setInterval(() => this.housekeep(), every);
    this.#housekeeping.unref();
  }

  get pending(): number {
    return this.#waiters.size;
  }

  get parked(): number {
    return this.#parked.size;
  }

  /** See Receiver.waitFor. */
  waitFor(id: string, deadline: number, signal?: AbortSignal): Promise<WebhookMatch> {
    const now = this.#o.clock.now();
    const parked = this.#parked.get(id);
    if (parked !== undefined) {
      this.#parked.delete(id);
      this.#finished.add(id, FINISHED.MATCHED, now);
      this.counts.matched++;
      return Promise.resolve(parked.match);
    }
    if (this.#waiters.has(id) || this.#finished.get(id) !== undefined) return Promise.resolve(TIMEOUT);
    if (this.#closed || signal?.aborted === true || deadline <= now) {
      this.#finished.add(id, FINISHED.TIMED_OUT, now);
      return Promise.resolve(TIMEOUT);
    }
    return new Promise<WebhookMatch>((resolve) => {
      this.#waiters.set(id, new Waiter(resolve, deadline, signal));
      this.#heap.push(deadline, id);
      if (deadline < this.#timerAt) this.#arm(deadline, now);
      if (signal !== undefined) this.#link(signal, id);
    });
  }

  /** Classifies one valid delivery (requestId present) and resolves its waiter when there is one. */
  deliver(id: string, match: DeliveredMatch, now: number): DeliveryOutcome {
    const waiter = this.#waiters.get(id);
    if (waiter !== undefined) {
      this.#waiters.delete(id);
      if (waiter.signal !== undefined) this.#bySignal.get(waiter.signal)?.delete(id);
      this.#finished.add(id, FINISHED.MATCHED, now);
      this.counts.matched++;
      waiter.resolve(match);
      return 'matched';
    }
    const done = this.#finished.get(id);
    if (done === FINISHED.TIMED_OUT) {
      this.counts.late++;
      return 'late';
    }
    if (done !== undefined || this.#parked.has(id)) {
      this.counts.duplicates++;
      return 'duplicate';
    }
    if (this.#closed) {
      this.counts.orphans++; // nobody can claim it any more
      return 'orphan';
    }
    this.#parked.set(id, { match, at: now });
    if (this.#parked.size > this.#o.maxParked) this.#orphanOldest(now);
    return 'parked';
  }

  /** Turns parked deliveries older than orphanGraceMs into orphans; forgets old finished ids. */
  housekeep(now = this.#o.clock.now()): void {
    const cutoff = now - this.#o.orphanGraceMs;
    for (const [id, p] of this.#parked) {
      if (p.at > cutoff) break;
      this.#parked.delete(id);
      this.#finished.add(id, FINISHED.ORPHANED, now);
      this.counts.orphans++;
    }
    this.#finished.expire(now);
  }

  /** Resolves every waiter as timeout and turns every parked delivery into an orphan. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#housekeeping);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = -Infinity; // never re-arm
    this.counts.orphans += this.#parked.size;
    this.#parked.clear();
    const waiters = [...this.#waiters.values()];
    this.#waiters.clear();
    this.#heap.clear();
    this.#finished.clear();
    for (const w of waiters) w.resolve(TIMEOUT);
  }

  #orphanOldest(now: number): void {
    const oldest = this.#parked.keys().next();
    if (oldest.done) return;
    this.#parked.delete(oldest.value);
    this.#finished.add(oldest.value, FINISHED.ORPHANED, now);
    this.counts.orphans++;
  }

  #arm(at: number, now: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - now)));
    this.#timer = setTimeout(() => this.#expire(), delay);
  }

  /** Timer callback: resolves every waiter whose deadline passed, then re-arms at the next one. */
  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.#o.clock.now();
    const heap = this.#heap;
    while (heap.size > 0 && heap.peek() <= now) {
      const at = heap.peek();
      const id = heap.pop();
      const w = this.#waiters.get(id);
      if (w === undefined || w.deadline !== at) continue; // matched already, or a stale slot
      this.#timeOut(id, w, now);
    }
    if (heap.size > 0 && !this.#closed) this.#arm(heap.peek(), now);
  }

  #timeOut(id: string, w: Waiter, now: number): void {
    this.#waiters.delete(id);
    if (w.signal !== undefined) this.#bySignal.get(w.signal)?.delete(id);
    this.#finished.add(id, FINISHED.TIMED_OUT, now);
    w.resolve(TIMEOUT);
  }

  #link(signal: AbortSignal, id: string): void {
    let ids = this.#bySignal.get(signal);
    if (ids === undefined) {
      const set = new Set<string>();
      ids = set;
      this.#bySignal.set(signal, set);
      signal.addEventListener('abort', () => this.#abortAll(signal, set), { once: true });
    }
    ids.add(id);
  }

  #abortAll(signal: AbortSignal, ids: Set<string>): void {
    const now = this.#o.clock.now();
    for (const id of ids) {
      const w = this.#waiters.get(id);
      if (w !== undefined && w.signal === signal) this.#timeOut(id, w, now);
    }
    ids.clear();
    this.#bySignal.delete(signal);
  }
}
