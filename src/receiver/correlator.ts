/**
 * Correlates answer-webhook deliveries with waiters by requestId (the spec's Events section: one
 * webhook per requestId, which may arrive before the acknowledgement), with no I/O. Used by the
 * HTTP receiver (deliveries from its route, local-sink.ts) and the stream receiver (deliveries
 * read from Redis that this shard owns).
 *
 * - ids: one FinishedIds table, requestId -> its Waiter while waited for, then its finish
 *   (matched, timed out, orphaned, foreign; compact, bounded) to tell a duplicate from a late
 *   delivery. A webhook costs one lookup, and its waiter's entry is overwritten in place.
 * - deadlines: one DeadlineTimer keyed by Waiter (a heap and a single timer armed at the
 *   earliest deadline: no timer per waiter). A matched waiter's slot is left behind (settled)
 *   and dropped when due, or when stale slots pile up (filtered without a lookup).
 * - parked: deliveries that came before their waitFor (the webhook can beat the acknowledgement);
 *   claimed by the later waitFor, or counted as orphans after `orphanGraceMs` / at close().
 * - AbortSignals: one listener per distinct signal (not per waiter). A signal's first few
 *   waiters are listed; past SIGNAL_LIST_MAX its abort walks every pending waiter once instead,
 *   so a run-wide signal shared by 60,000 waiters costs no memory per waiter.
 * Two ways to wait: waitFor (a Promise, for the few waits of steps and doctor) and expect (an
 * AnswerWaiter called back, for a load's tens of thousands of pending answers). Memory per
 * pending expect(): the Waiter (four fields), a Map entry and a heap slot, about 0.1 KB
 * (bench/pending-heap.js); the requestId string and the AnswerWaiter are the caller's.
 */
import type { Clock } from '../clock.js';
import { DeadlineTimer } from './deadline-timer.js';
import { FINISHED, FinishedIds, type FinishedState } from './finished-ids.js';
import type { AnswerWaiter, DeliveredMatch, WebhookMatch } from './types.js';

export type DeliveryOutcome = 'matched' | 'parked' | 'duplicate' | 'late' | 'orphan';

export interface CorrelatorOptions {
  clock: Clock;
  orphanGraceMs: number;
  maxParked: number;
  rememberMs: number;
  maxRemembered: number;
}

const TIMEOUT: WebhookMatch = Object.freeze({ kind: 'timeout' });

/** Who gets a waiter's match: a waitFor's promise (its resolve function) or an expect()'s AnswerWaiter. */
type Target = ((m: WebhookMatch) => void) | AnswerWaiter;

/**
 * A pending wait. `id` is the caller's requestId string: the one remembered once finished (the
 * body's copy can go). Settled once its target is dropped (when called: a settled waiter's slot
 * must not keep its target, and the match handed to it, alive); its deadline slot (each waiter
 * has one) is then stale. No deadline of its own: the heap slot holds it. A load holds one per
 * pending answer: a field here costs 8 B each.
 */
class Waiter {
  constructor(
    readonly id: string,
    public target: Target | undefined,
    readonly signal: AbortSignal | undefined,
  ) {}
}

const isPending = (w: Waiter): boolean => w.target !== undefined;

/**
 * Matched waiters leave their deadline slot behind (removed lazily, when it comes due). Once the
 * slots outnumber twice the waiters by this much, the settled ones are dropped (a pass over the
 * slots, amortized O(1) per match by the factor two), so a settled Waiter does not outlive its
 * match by a whole timeout: each one kept is one more object every young-generation collection
 * copies (1,024 here measured +60 KB copied per scavenge in bench/receiver.js).
 */
const STALE_SLOTS = 64;

/** A signal's waiters are listed up to this many; past it, its abort walks every pending waiter. */
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
  /**
   * Called with each duplicate of a matched (or parked) requestId and its arrival (clock ms), when
   * set (OpenTelemetry export: an event on that requestId's delivery span). Unset, the duplicate
   * costs nothing more than its count.
   */
  onDuplicate: ((requestId: string, receivedAt: number) => void) | undefined;
  readonly #o: CorrelatorOptions;
  /** Pending waiters and finished ids, by requestId. */
  readonly #ids: FinishedIds<Waiter>;
  readonly #parked = new Map<string, Parked>();
  readonly #deadlines: DeadlineTimer<Waiter>;
  /** Signals listened to, with their waiters (null once past SIGNAL_LIST_MAX: walk every pending waiter). */
  readonly #bySignal = new WeakMap<AbortSignal, Waiter[] | null>();
  #pending = 0;
  #closed = false;

  constructor(options: CorrelatorOptions) {
    this.#o = options;
    this.#ids = new FinishedIds<Waiter>(options.rememberMs, options.maxRemembered);
    this.#deadlines = new DeadlineTimer<Waiter>(options.clock, (w, _at, now) => {
      if (w.target !== undefined) this.#finish(w, FINISHED.TIMED_OUT, now, TIMEOUT); // else matched already
    });
  }

  get pending(): number {
    return this.#pending;
  }

  get parked(): number {
    return this.#parked.size;
  }

  /** Deadline slots held (pending waiters, and matched ones' slots not yet due or dropped). */
  get deadlineSlots(): number {
    return this.#deadlines.size;
  }

  /** Parked deliveries, oldest first, as `[arrival ms, body]` (the wiring rule's orphan suspects, wiring.ts). */
  *parkedBodies(): Generator<readonly [number, unknown]> {
    for (const p of this.#parked.values()) yield [p.at, p.match.payload];
  }

  /** True when `id` is waited for, parked, or remembered as finished here (and not another shard's). */
  knows(id: string): boolean {
    if (this.#parked.has(id)) return true;
    const e = this.#ids.entry(id);
    return typeof e === 'object' || (e !== undefined && this.#ids.stateOf(e) !== FINISHED.FOREIGN);
  }

  /** See Receiver.waitFor. */
  waitFor(id: string, deadline: number, signal?: AbortSignal): Promise<WebhookMatch> {
    const now = this.#o.clock.now();
    const atOnce = this.#atOnce(id, deadline, signal, now);
    if (atOnce !== undefined) return Promise.resolve(atOnce);
    const promise = new Promise<WebhookMatch>(capture);
    this.#wait(id, deadline, signal, captured as (m: WebhookMatch) => void, now);
    captured = undefined;
    return promise;
  }

  /** See Receiver.expectAnswer: `waiter.settle` gets what waitFor would resolve (at once, for a known id). */
  expect(id: string, deadline: number, waiter: AnswerWaiter, signal?: AbortSignal): void {
    const now = this.#o.clock.now();
    const atOnce = this.#atOnce(id, deadline, signal, now);
    if (atOnce !== undefined) waiter.settle(atOnce);
    else this.#wait(id, deadline, signal, waiter, now);
  }

  /**
   * What a wait for `id` gets without waiting: a delivery parked before it (claimed), a timeout
   * for an id waited for already or finished, or for a wait that cannot start (closed, aborted,
   * deadline passed); undefined when it must wait.
   */
  #atOnce(id: string, deadline: number, signal: AbortSignal | undefined, now: number): WebhookMatch | undefined {
    const parked = this.#parked.get(id);
    if (parked !== undefined) {
      this.#parked.delete(id);
      this.#ids.add(id, FINISHED.MATCHED, now);
      this.counts.matched++;
      return parked.match;
    }
    if (this.#ids.entry(id) !== undefined) return TIMEOUT; // waited for already, or finished
    if (this.#closed || signal?.aborted === true || deadline <= now) {
      this.#ids.add(id, FINISHED.TIMED_OUT, now);
      return TIMEOUT;
    }
    return undefined;
  }

  #wait(id: string, deadline: number, signal: AbortSignal | undefined, target: Target, now: number): void {
    const w = new Waiter(id, target, signal);
    this.#ids.wait(id, w);
    this.#pending++;
    this.#deadlines.add(deadline, w, now);
    if (signal !== undefined) this.#link(signal, w);
  }

  /** Classifies one valid delivery (requestId present) and resolves its waiter when there is one. */
  deliver(id: string, match: DeliveredMatch, now: number): DeliveryOutcome {
    const e = this.#ids.entry(id);
    if (typeof e === 'object') {
      this.counts.matched++;
      this.#finish(e, FINISHED.MATCHED, now, match);
      if (this.#deadlines.size > 2 * this.#pending + STALE_SLOTS) this.#deadlines.retain(isPending);
      return 'matched';
    }
    const done = e === undefined ? undefined : this.#ids.stateOf(e);
    if (done === FINISHED.TIMED_OUT) {
      this.counts.late++;
      return 'late';
    }
    if (done !== undefined || this.#parked.has(id)) {
      this.counts.duplicates++;
      // Another shard's id or a forgotten waiter's is no delivery of ours to tell of.
      if (this.onDuplicate !== undefined && (done === undefined || done === FINISHED.MATCHED))
        this.onDuplicate(id, match.receivedAt);
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
    const e = this.#ids.entry(id);
    if (typeof e === 'object') this.#finish(e, FINISHED.FOREIGN, now, TIMEOUT);
    else this.#ids.add(id, FINISHED.FOREIGN, now);
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
      this.#ids.add(id, FINISHED.ORPHANED, now);
      this.counts.orphans++;
    }
    this.#ids.expire(now);
  }

  /** Resolves every waiter as timeout and turns every parked delivery into an orphan. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const now = this.#o.clock.now();
    for (const w of this.#deadlines.keys())
      if (w.target !== undefined) this.#finish(w, FINISHED.TIMED_OUT, now, TIMEOUT);
    this.#deadlines.close();
    this.counts.orphans += this.#parked.size;
    this.#parked.clear();
    this.#ids.clear();
  }

  /** Settles pending waiter `w` as `state` and hands it `match`. */
  #finish(w: Waiter, state: FinishedState, now: number, match: WebhookMatch): void {
    this.#pending--;
    this.#ids.settle(w.id, state, now);
    const target = w.target as Target;
    w.target = undefined;
    if (typeof target === 'function') target(match);
    else target.settle(match);
  }

  #orphanOldest(now: number): void {
    const oldest = this.#parked.keys().next();
    if (oldest.done) return;
    this.#parked.delete(oldest.value);
    this.#ids.add(oldest.value, FINISHED.ORPHANED, now);
    this.counts.orphans++;
  }

  /** Listens to `signal` once; lists `w` while the list is short (a settled one is skipped at abort). */
  #link(signal: AbortSignal, w: Waiter): void {
    const listed = this.#bySignal.get(signal);
    if (listed === undefined) {
      this.#bySignal.set(signal, [w]);
      signal.addEventListener('abort', () => this.#abortAll(signal), { once: true });
    } else if (listed !== null) {
      if (listed.length < SIGNAL_LIST_MAX) listed.push(w);
      else this.#bySignal.set(signal, null);
    }
  }

  /** Times out the pending waiters of `signal` (every pending waiter has a deadline slot). */
  #abortAll(signal: AbortSignal): void {
    const now = this.#o.clock.now();
    const listed = this.#bySignal.get(signal);
    this.#bySignal.delete(signal);
    const waiters = listed ?? this.#deadlines.keys();
    for (const w of waiters)
      if (w.target !== undefined && w.signal === signal) this.#finish(w, FINISHED.TIMED_OUT, now, TIMEOUT);
  }
}
