/**
 * Correlates answer-webhook deliveries with waiters by requestId (spec: Events, rules 2-3), with
 * no I/O. Used by the HTTP receiver (deliveries from its route) and the stream receiver
 * (deliveries read from Redis that this shard owns).
 *
 * - waiters: Map<requestId, Waiter{resolve, deadline, signal}>, deadlines in one DeadlineTimer
 *   (a heap and a single timer armed at the earliest deadline: no timer per waiter).
 * - parked: deliveries that came before their waitFor (the webhook can beat the acknowledgement);
 *   claimed by the later waitFor, or counted as orphans after `orphanGraceMs` / at close().
 * - finished: FinishedIds (compact, bounded) to tell a duplicate from a late delivery.
 * - AbortSignals: one listener per distinct signal (not per waiter), so a run-wide signal
 *   shared by 100k waiters holds one listener and a Set of ids.
 * Heap per pending waiter: the Waiter, its Promise and resolve function, a Map entry and a
 * heap slot: a few hundred bytes (well under 2 KB); the requestId string is the caller's.
 */
import type { Clock } from '../clock.js';
import { DeadlineTimer } from './deadline-timer.js';
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

export const TIMEOUT: WebhookMatch = Object.freeze({ kind: 'timeout' });

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
  readonly #deadlines: DeadlineTimer<string>;
  readonly #bySignal = new WeakMap<AbortSignal, Set<string>>();
  #closed = false;

  constructor(options: CorrelatorOptions) {
    this.#o = options;
    this.#finished = new FinishedIds(options.rememberMs, options.maxRemembered);
    this.#deadlines = new DeadlineTimer<string>(options.clock, (id, at, now) => {
      const w = this.#waiters.get(id);
      if (w !== undefined && w.deadline === at) this.#timeOut(id, w, now); // else matched already, or a stale slot
    });
  }

  get pending(): number {
    return this.#waiters.size;
  }

  get parked(): number {
    return this.#parked.size;
  }

  /** True when `id` is waited for, parked, or remembered as finished here (and not another shard's). */
  knows(id: string): boolean {
    if (this.#waiters.has(id) || this.#parked.has(id)) return true;
    const done = this.#finished.get(id);
    return done !== undefined && done !== FINISHED.FOREIGN;
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
      this.#deadlines.add(deadline, id, now);
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

  /**
   * Stream mode: `id` turned out to be another shard's. Resolves its waiter (if any) as timeout
   * and remembers it as FOREIGN, so a later waitFor resolves timeout at once and knows() is false.
   */
  expel(id: string, now = this.#o.clock.now()): void {
    const w = this.#waiters.get(id);
    if (w !== undefined) {
      this.#waiters.delete(id);
      if (w.signal !== undefined) this.#bySignal.get(w.signal)?.delete(id);
      w.resolve(TIMEOUT);
    }
    this.#finished.add(id, FINISHED.FOREIGN, now);
  }

  /**
   * Resolves waiters whose deadline passed, turns parked deliveries older than orphanGraceMs into
   * orphans, forgets old finished ids. Called by the receiver's housekeeping interval, and by tests
   * with a test clock's time.
   */
  housekeep(now = this.#o.clock.now()): void {
    this.#deadlines.fire(now);
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
    this.#deadlines.close();
    this.counts.orphans += this.#parked.size;
    this.#parked.clear();
    const waiters = [...this.#waiters.values()];
    this.#waiters.clear();
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
