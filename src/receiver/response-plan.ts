/**
 * A response plan: deliberate misbehaviour of the receiver per requestId, to see how the service
 * retries a webhook (which statuses it retries, after how long, how often, whether a slow 200
 * counts as delivered). The routes consult it, through withResponsePlan in front of the sink,
 * before answering an answer webhook that passed its secret check; every attempt's arrival and
 * the status it got are recorded.
 *
 * Steps (attempt 1 of a requestId takes steps[0], attempt 2 steps[1]...; later attempts `then`):
 * - usual: handed to the sink, answered as usual (200, or 503 when the sink could not keep it);
 * - status: answered with that status (e.g. 500, 503); not handed on: counted unavailable;
 * - stall: not answered at all; the connection stays open until the client gives up, or until
 *   the receiver closes (then it is closed without an answer); counted unavailable then;
 * - delay: handed on and answered as usual after `ms` (a 200 that comes too late for the sender's
 *   timeout); counted when answered.
 * E.g. 500 to every attempt: `set(id, [], status(500))`; 503 then 200: `set(id, [status(503)])`;
 * no answer: `set(id, [], STALL)`; 200 after 6 s: `set(id, [delay(6_000)])`.
 * Message and intent webhooks, and refused secrets, are never planned.
 * Memory: the attempts of every planned requestId are kept until forget() or clear().
 */
import { sleep, systemClock, type Clock } from '../clock.js';
import { DROP, type Delivery, type DeliverySink, type Reply } from './delivery.js';

export type PlanStep =
  | { kind: 'usual' }
  | { kind: 'status'; status: number }
  | { kind: 'stall' }
  | { kind: 'delay'; ms: number };

export const USUAL: PlanStep = Object.freeze({ kind: 'usual' });
export const STALL: PlanStep = Object.freeze({ kind: 'stall' });
/** Answer `code` (>= 400; a 5xx tells the service to retry). */
export const status = (code: number): PlanStep => ({ kind: 'status', status: code });
/** The usual answer after `ms`. */
export const delay = (ms: number): PlanStep => ({ kind: 'delay', ms });

/** One attempt of a planned requestId. */
export interface Attempt {
  requestId: string;
  /** 1 for the first delivery of this requestId the plan saw. */
  n: number;
  /** clock.now() ms of the arrival. */
  at: number;
  step: PlanStep;
  /** Status answered; undefined while unanswered, and for good when the connection was closed without an answer. */
  status: number | undefined;
  /** clock.now() ms of the answer (or of the close without one). */
  answeredAt: number | undefined;
}

interface Entry {
  steps: readonly PlanStep[];
  then: PlanStep;
  attempts: Attempt[];
}

export interface ResponsePlanOptions {
  /** Default systemClock (give the receiver's). */
  clock?: Clock;
  /** How a delay step waits (tests inject one they release by hand). Default: a timer. */
  wait?: (ms: number) => Promise<void>;
}

/** A timer that does not keep the process alive by itself (the server does, while it listens). */
const timerWait = (ms: number): Promise<void> => sleep(ms, { ref: false });

export class ResponsePlan {
  readonly #clock: Clock;
  readonly #wait: (ms: number) => Promise<void>;
  readonly #plans = new Map<string, Entry>();
  #fallback: Omit<Entry, 'attempts'> | undefined;
  /** Resolvers of held answers (stalls and delays), called at release(). */
  readonly #held = new Set<() => void>();
  #released = false;

  constructor(options: ResponsePlanOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#wait = options.wait ?? timerWait;
  }

  /** Plans `requestId`: attempt i (1-based) takes steps[i - 1], later attempts `then` (default usual). */
  set(requestId: string, steps: readonly PlanStep[], then: PlanStep = USUAL): void {
    const entry = this.#plans.get(requestId);
    this.#plans.set(requestId, { steps: [...steps], then, attempts: entry?.attempts ?? [] });
  }

  /** The plan of every requestId that has none of its own (each still counts its own attempts); undefined: none. */
  setDefault(steps: readonly PlanStep[] | undefined, then: PlanStep = USUAL): void {
    this.#fallback = steps === undefined ? undefined : { steps: [...steps], then };
  }

  /** Attempts of `requestId` in arrival order (empty when it was never planned). */
  attempts(requestId: string): readonly Attempt[] {
    return this.#plans.get(requestId)?.attempts ?? [];
  }

  /** Forgets `requestId`'s plan and attempts. */
  forget(requestId: string): void {
    this.#plans.delete(requestId);
  }

  clear(): void {
    this.#plans.clear();
  }

  /** Records an attempt of `requestId` arriving at `at` and returns it with its step; undefined when nothing plans it. */
  next(requestId: string, at: number): Attempt | undefined {
    let entry = this.#plans.get(requestId);
    if (entry === undefined) {
      if (this.#fallback === undefined) return undefined;
      entry = { ...this.#fallback, attempts: [] };
      this.#plans.set(requestId, entry);
    }
    const n = entry.attempts.length + 1;
    const step = entry.steps[n - 1] ?? entry.then;
    const attempt: Attempt = { requestId, n, at, step, status: undefined, answeredAt: undefined };
    entry.attempts.push(attempt);
    return attempt;
  }

  /** Records the answer given to `a` (undefined: none, the connection was closed). */
  answered(a: Attempt, code: number | undefined): void {
    a.status = code;
    a.answeredAt = this.#clock.now();
  }

  /** Resolves after `ms`, or at release(). */
  wait(ms: number): Promise<void> {
    if (this.#released) return Promise.resolve();
    return this.#hold(this.#wait(ms));
  }

  /** Resolves at release() only. */
  stall(): Promise<void> {
    if (this.#released) return Promise.resolve();
    return this.#hold(new Promise<void>(() => undefined));
  }

  /** Ends every held answer now (the receiver is closing); later stalls and delays do not wait. */
  release(): void {
    this.#released = true;
    for (const done of [...this.#held]) done();
  }

  #hold(p: Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.#held.delete(done);
        resolve();
      };
      this.#held.add(done);
      p.then(done, done);
    });
  }
}

/** The Reply `r` as the status it gives: undefined is the usual 200 here (verdict ok), DROP none. */
function statusOf(r: Reply): number | undefined {
  return r === undefined ? 200 : r === DROP ? undefined : r;
}

/** Records the answer `r` (or the promise of it) to `a`, and passes it on. */
function recorded(plan: ResponsePlan, a: Attempt, r: Reply | Promise<Reply>): Reply | Promise<Reply> {
  if (typeof r !== 'object') {
    plan.answered(a, statusOf(r));
    return r;
  }
  return r.then(
    (x) => (plan.answered(a, statusOf(x)), x),
    () => (plan.answered(a, 503), 503),
  );
}

/** `sink` with `plan` consulted first for answer webhooks that passed their secret check. */
export function withResponsePlan(sink: DeliverySink, plan: ResponsePlan): DeliverySink {
  const take = (d: Delivery): Reply | Promise<Reply> => {
    const a =
      d.route === 'answer' && d.verdict === 'ok' && d.requestId !== undefined
        ? plan.next(d.requestId, d.receivedAt)
        : undefined;
    if (a === undefined) return sink.take(d);
    const step = a.step;
    switch (step.kind) {
      case 'status':
        return recorded(plan, a, step.status);
      case 'stall':
        return plan.stall().then(() => recorded(plan, a, DROP));
      case 'delay':
        return plan.wait(step.ms).then(() => recorded(plan, a, sink.take(d)));
      default:
        return recorded(plan, a, sink.take(d));
    }
  };
  return {
    take,
    answerCounts: (accepted) => sink.answerCounts(accepted),
    keptCounts: () => sink.keptCounts(),
    ready: () => sink.ready(),
    healthy: () => sink.healthy(),
    release() {
      plan.release();
      sink.release();
    },
    close: () => sink.close(),
  };
}
