/**
 * The state of one engine run (runner/engine.ts): counters, the tally, the latency sink, the
 * timeline, kept records, sinks, the stop and abort controllers, and the set-up breaker (fed by
 * the records, by the receiver's wiring verdict: wiring-stop.ts, and by the first-answer watch:
 * first-answer.ts).
 * Schedulers (closed.ts, open.ts) drive it through `launch`.
 */
import { setMaxListeners } from 'node:events';
import { systemClock, type Clock } from '../clock.js';
import { InternalError } from '../errors.js';
import type { ExecuteContext } from './context.js';
import { ContractNotes } from './contract-notes.js';
import type { EngineOptions, RecordSink } from './engine-types.js';
import { startRequest, type RequestEnd } from './execute.js';
import { firstAnswerReason, watchFirstAnswer, type FirstAnswerWatch } from './first-answer.js';
import { SendDelayRecorder } from './send-delay.js';
import { SetupBreaker, type SetupFailure } from './setup-breaker.js';
import type { RequestSource } from './source.js';
import { Tally, verdictOf } from './tally.js';
import { DISCARD_LATENCY, MeasuredLatency, TimelineBuilder } from './timeline.js';
import { watchWiring, wiringReason } from './wiring-stop.js';
import type { PlannedRequest, RequestRecord } from './types.js';

export class EngineRun {
  readonly clock: Clock;
  readonly source: RequestSource;
  readonly tally = new Tally();
  readonly latency = new MeasuredLatency();
  readonly notes = new ContractNotes();
  readonly timeline: TimelineBuilder;
  readonly sendDelay = new SendDelayRecorder();
  readonly records: RequestRecord[] = [];
  readonly #ctx: ExecuteContext;
  readonly #warmCtx: ExecuteContext;
  readonly #sinks: readonly RecordSink[];
  readonly #keep: boolean;
  readonly #breaker: SetupBreaker | undefined;
  readonly #unwatch: (() => void) | undefined;
  readonly #firstAnswer: FirstAnswerWatch | undefined;
  #stopReason: string | undefined;
  readonly stop = new AbortController();
  readonly abort = new AbortController();
  readonly t0: number;
  inFlight = 0;
  sent = 0;
  warmupSent = 0;
  dropped = 0;
  #idle: (() => void)[] = [];
  #released: (() => void)[] = [];
  #failure: unknown;

  constructor(o: EngineOptions) {
    this.clock = o.clock ?? systemClock;
    this.source = o.source;
    setMaxListeners(0, this.stop.signal, this.abort.signal);
    link(o.stopSignal, this.stop);
    link(o.abortSignal, this.abort);
    // Each request gets the job's request options as given, on this run's clock, abort and notes.
    const base = {
      ...o,
      clock: this.clock,
      abortSignal: this.abort.signal,
      ackOnly: o.ackOnly ?? false,
      skipGraded: o.skipGraded ?? false,
      notes: this.notes,
      stopReason: () => this.#stopReason,
      onAcknowledged: () => this.#firstAnswer?.acknowledged(),
    };
    this.#ctx = { ...base, latency: this.latency };
    this.#warmCtx = { ...base, latency: DISCARD_LATENCY };
    this.#sinks = o.sinks ?? [];
    this.#keep = o.keepRecords ?? false;
    this.#breaker = o.setupBreaker === false ? undefined : new SetupBreaker();
    // Only while answers are awaited: an ack-only or sync run matches no webhook by design.
    if (this.#breaker && o.receiver && !o.ackOnly && o.source.hasAsync())
      this.#unwatch = watchWiring(o.receiver, o.webhooks, (fault, sentence) => {
        if (this.#breaker?.miswired(fault, sentence)) {
          this.#stopReason = wiringReason(fault);
          this.stop.abort();
          this.abort.abort();
        }
      });
    // Against a remote target only: droidcheck wires the embedded emulator itself.
    if (this.#breaker && o.receiver && !o.ackOnly && o.source.hasAsync() && o.webhooks) {
      const timeoutMs = o.firstAnswerTimeoutMs;
      this.#firstAnswer = watchFirstAnswer({
        receiver: o.receiver,
        clock: this.clock,
        answerUrl: o.webhooks.answer,
        timeoutMs,
        log: o.log,
        onTimeout: (sentence) => {
          if (this.#breaker?.stopEarly('no-first-answer', sentence)) {
            this.#stopReason = firstAnswerReason(timeoutMs ?? 0);
            this.stop.abort();
            this.abort.abort();
          }
        },
      });
    }
    this.t0 = this.clock.now();
    this.timeline = new TimelineBuilder(this.latency, this.t0, o.intervalMs ?? 1000);
  }

  get stopped(): boolean {
    return this.stop.signal.aborted;
  }

  /**
   * Starts one request. Never throws. What a request holds while in flight is its Launched
   * (below), its record and what its execution keeps (execute.ts): the open model calls this for
   * every arrival.
   */
  launch(planned: PlannedRequest, warm: boolean, intendedStart?: number): void {
    this.#start(new Launched(this, planned, warm), intendedStart);
  }

  /** Starts one request; resolves once it ended and was recorded (the closed model's workers). Never rejects. */
  launchAndWait(planned: PlannedRequest, warm: boolean): Promise<void> {
    return new Promise((resolve) => this.#start(new Awaited(this, planned, warm, resolve)));
  }

  #start(end: Launched, intendedStart?: number): void {
    this.inFlight += 1;
    if (end.warm) this.warmupSent += 1;
    else {
      this.sent += 1;
      this.timeline.onStart(this.inFlight);
    }
    try {
      startRequest(end.planned, end.warm ? this.#warmCtx : this.#ctx, end, intendedStart);
    } catch (err) {
      end.failed(err);
    }
  }

  /** Resolves at the next end of a request (a closed-model worker whose source had nothing free). */
  released(): Promise<void> {
    return new Promise((resolve) => this.#released.push(resolve));
  }

  /** Resolves when nothing is in flight. */
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Resolves when every sink can take more records (closed-model backpressure); undefined when
   * all can now (no promise, no microtask per request on the usual path).
   */
  drained(): Promise<void> | undefined {
    for (let i = 0; i < this.#sinks.length; i++) {
      const pending = this.#sinks[i]!.drained?.();
      if (pending) return this.#drainFrom(i, pending);
    }
    return undefined;
  }

  async #drainFrom(i: number, pending: Promise<void>): Promise<void> {
    await pending;
    for (let j = i + 1; j < this.#sinks.length; j++) await this.#sinks[j]!.drained?.();
  }

  /** Records `record` (not sent, or ended) in every figure and sink. */
  record(record: RequestRecord, warm: boolean): void {
    if (!warm) {
      this.tally.add(record);
      if (this.#keep) this.records[record.seq] = record;
      if (record.outcome !== 'not-sent') this.timeline.onEnd(record.outcome, verdictOf(record), record.bursts);
      if (this.#breaker?.observe(record)) {
        this.stop.abort();
        this.abort.abort();
      }
    }
    for (const s of this.#sinks) s.onRecord(record, warm);
  }

  /** A request ended (Launched): its record goes to every figure and sink, then its slot is freed. */
  ended(planned: PlannedRequest, record: RequestRecord, warm: boolean): void {
    try {
      this.record(record, warm);
    } catch (err) {
      this.#failure ??= err;
    }
    this.#settle(planned);
  }

  /** A request's execution threw (a droidcheck bug, reported by assertHealthy()); its slot is freed. */
  failed(planned: PlannedRequest, err: unknown): void {
    this.#failure ??= err;
    this.#settle(planned);
  }

  #settle(planned: PlannedRequest): void {
    this.inFlight -= 1;
    this.source.release(planned);
    if (this.#released.length > 0) {
      const waiting = this.#released;
      this.#released = [];
      for (const resolve of waiting) resolve();
    }
    if (this.inFlight === 0 && this.#idle.length > 0) {
      const waiting = this.#idle;
      this.#idle = [];
      for (const resolve of waiting) resolve();
    }
  }

  /** Throws InternalError when a request's execution threw (a droidcheck bug). */
  assertHealthy(): void {
    if (this.#failure !== undefined) {
      const f = this.#failure;
      throw new InternalError(
        `engine: a request's execution threw: ${f instanceof Error ? (f.stack ?? f.message) : String(f)}`,
      );
    }
  }

  breakerFailure(): SetupFailure | undefined {
    return this.#breaker?.failure();
  }

  /** Stops watching the receiver's wiring (the run is over). Idempotent. */
  dispose(): void {
    this.#unwatch?.();
    this.#firstAnswer?.stop();
  }
}

/**
 * One launched request's end (execute.ts RequestEnd), called exactly once: what the engine keeps
 * per request in flight besides the request's own state, so a field here costs 8 B per pending
 * answer (test/runner/pending-memory.test.ts).
 */
class Launched implements RequestEnd {
  constructor(
    readonly run: EngineRun,
    readonly planned: PlannedRequest,
    readonly warm: boolean,
  ) {}

  ended(record: RequestRecord): void {
    this.run.ended(this.planned, record, this.warm);
  }

  failed(err: unknown): void {
    this.run.failed(this.planned, err);
  }
}

/** A Launched whose worker waits for its end (closed model). */
class Awaited extends Launched {
  constructor(
    run: EngineRun,
    planned: PlannedRequest,
    warm: boolean,
    readonly after: () => void,
  ) {
    super(run, planned, warm);
  }

  override ended(record: RequestRecord): void {
    super.ended(record);
    this.after();
  }

  override failed(err: unknown): void {
    super.failed(err);
    this.after();
  }
}

function link(from: AbortSignal | undefined, to: AbortController): void {
  if (!from) return;
  if (from.aborted) to.abort();
  else from.addEventListener('abort', () => to.abort(), { once: true });
}
