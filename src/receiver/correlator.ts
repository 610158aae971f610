/**
 * Correlates answer-webhook deliveries with waiters by requestId (the spec's Events section: one
 * webhook per requestId, which may arrive before the acknowledgement), with no I/O. Used by the
 * HTTP receiver (deliveries from its route, local-sink.ts) and the stream receiver (deliveries
 * read from Redis that this shard owns).
 *
 * - waiters: Map<requestId, Waiter{resolve, deadline, signal}>, deadlines in one DeadlineTimer
 *   (a heap and a single timer armed at the earliest deadline: no timer per waiter).
 * - parked: deliveries that came before their waitFor (the webhook can beat the acknowledgement);
 *   claimed by the later waitFor, or counted as orphans after `orphanGraceMs` / at close().
 * - finished: FinishedIds (compact, bounded) to tell a duplicate from a late delivery.
 * - AbortSignals: one listener per distinct signal (not per waiter). A signal's first few
 *   requestIds are listed; past SIGNAL_LIST_MAX its abort walks every waiter once instead, so
 *   a run-wide signal shared by 60,000 waiters costs no memory per waiter.
 * Memory per pending waiter (bench/receiver-memory.js): the Waiter, its Promise and resolving
 * functions, a Map entry and a heap slot, about 0.25 KB; the requestId string is the caller's.
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

const TIMEOUT: WebhookMatch = Object.freeze({ kind: 'timeout' });

/** `id` is the caller's requestId string: the one remembered once finished (the body's copy can go). */
class Waiter {
  constructor(
    readonly id: string,
    readonly resolve: (m: WebhookMatch) => void,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
  ) {}
}

/**
 * Matched waiters leave their deadline slot behind (removed lazily, when it comes due). Once the
 * slots outnumber twice the waiters by this much, they are rebuilt from the waiters, so a slot
 * (and its requestId string) does not outlive its waiter by a whole timeout.
 */
const STALE_SLOTS = 1024;

/** A signal's requestIds are listed up to this many; past it, its abort walks every waiter. */
const SIGNAL_LIST_MAX = 16;

/**
 * The executor of every waiter's Promise: hands out its resolve function without a closure per
 * call (new Promise runs the executor synchronously, so `captured` is read right after).
 */
let captured: ((m: WebhookMatch) => void) | undefined;
const capture = (resolve: (m: WebhookMatch) => void): void => {
  captured = resolve;
};

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
  /** Signals listened to, with their requestIds (null once past SIGNAL_LIST_MAX: walk every waiter). */
  readonly #bySignal = new WeakMap<AbortSignal, string[] | null>();
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

  /** Deadline slots held (pending waiters, and matched ones' slots not yet due or rebuilt away). */
  get deadlineSlots(): number {
    return this.#deadlines.size;
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
    const promise = new Promise<WebhookMatch>(capture);
    this.#waiters.set(id, new Waiter(id, captured as (m: WebhookMatch) => void, deadline, signal));
    captured = undefined;
    this.#deadlines.add(deadline, id, now);
    if (signal !== undefined) this.#link(signal, id);
    return promise;
  }

  /** Classifies one valid delivery (requestId present) and resolves its waiter when there is one. */
  deliver(id: string, match: DeliveredMatch, now: number): DeliveryOutcome {
    const waiter = this.#waiters.get(id);
    if (waiter !== undefined) {
      this.#waiters.delete(id);
      this.#finished.add(waiter.id, FINISHED.MATCHED, now);
      this.counts.matched++;
      waiter.resolve(match);
      if (this.#deadlines.size > 2 * this.#waiters.size + STALE_SLOTS) this.#rebuildDeadlines(now);
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
    this.#finished.add(w.id, FINISHED.TIMED_OUT, now);
    w.resolve(TIMEOUT);
  }

  #rebuildDeadlines(now: number): void {
    this.#deadlines.replace(
      this.#waiters.values(),
      (w) => w.deadline,
      (w) => w.id,
      now,
    );
  }

  /** Listens to `signal` once; lists `id` while the list is short (a stale id is skipped at abort). */
  #link(signal: AbortSignal, id: string): void {
    const ids = this.#bySignal.get(signal);
    if (ids === undefined) {
      this.#bySignal.set(signal, [id]);
      signal.addEventListener('abort', () => this.#abortAll(signal), { once: true });
    } else if (ids !== null) {
      if (ids.length < SIGNAL_LIST_MAX) ids.push(id);
      else this.#bySignal.set(signal, null);
    }
  }

  /** Times out the waiters of `signal` (a Map may lose entries while it is walked). */
  #abortAll(signal: AbortSignal): void {
    const now = this.#o.clock.now();
    const ids = this.#bySignal.get(signal);
    this.#bySignal.delete(signal);
    if (ids === undefined || ids === null) {
      for (const [id, w] of this.#waiters) if (w.signal === signal) this.#timeOut(id, w, now);
      return;
    }
    for (const id of ids) {
      const w = this.#waiters.get(id);
      if (w !== undefined && w.signal === signal) this.#timeOut(id, w, now);
    }
  }
}
