/**
 * Tells a broken set-up from failed expectations (a dead or wrong target would otherwise look
 * like N failed expectations). A record fails in a *set-up way* when the target refused it
 * before doing any work: HTTP 401/403/404/405 or another 4xx but 408/409/422/429 (token, droid id, route,
 * webhook or test customer not configured), a connection that could not be made (refused,
 * unknown host, unreachable, TLS), or a 2xx that is not JSON (an HTML page: not the API).
 * Against a remote target, an async answer that passed its deadline while nothing at all had
 * reached the receiver (no answer, no forwarded message, no intent webhook: cause
 * NO_DELIVERY_CAUSE, answer-turn.ts) is one too: the service posts to the URL in its settings,
 * and that is not where droidcheck listens.
 * When the first `threshold` records (default 3) all fail in the same set-up way and none was
 * answered, the breaker trips: the engine stops and the job exits 2 with one line.
 * It also trips on the receiver's word (`miswired`): answer webhooks arrive but none can be
 * matched (receiver/wiring.ts: 3 with a wrong secret, not answer payloads, or another droid's,
 * and none matched), seen through wiring-stop.ts while the records still wait. The requests in
 * flight then end `interrupted`; the job writes the partial report, then exits 2 with the
 * sentence (`SetupFailure.wiring` and `partial` set). The first-answer watch (first-answer.ts,
 * `--first-answer-timeout`) stops a run the same way when nothing at all was delivered.
 */
import type { WiringFault } from '../receiver/index.js';
import { SetupError } from '../errors.js';
import type { RequestRecord } from './types.js';

/** What tripped the breaker: the shared signature, how many records had it, and the first one's error. */
export interface SetupFailure {
  /** `rejected:401`, `transport:ECONNREFUSED`, `no-delivery`, `invalid-response`, `wiring:<kind>` or `no-first-answer`. */
  signature: string;
  /** Records that failed that way (0 for a wiring fault: the records were still waiting). */
  records: number;
  httpStatus?: number;
  error: { code: string; message: string; cause?: string; excerpt?: string };
  /** Set when the receiver tripped it (see the module docs). */
  wiring?: WiringFault;
  /**
   * Set when the run was stopped while its requests waited (a wiring fault, the first-answer
   * timeout): the records say so, the partial report is kept, and `error.message` is the whole
   * sentence.
   */
  partial?: true;
}

/** `RecordError.cause` of an async answer whose deadline passed with no delivery of any kind received yet (answer-turn.ts). */
export const NO_DELIVERY_CAUSE = 'NO_DELIVERY';

const CONNECT_CAUSES =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY)/;
const NOT_SETUP_STATUS = new Set([408, 409, 422, 429]);

/** The set-up signature of a record, or undefined when its failure says nothing about the set-up. */
function setupSignature(record: RequestRecord): string | undefined {
  const error = record.error ?? record.steps?.find((s) => s.outcome !== 'answered')?.error;
  if (record.outcome === 'invalid-response') return 'invalid-response';
  if (record.outcome === 'timeout' && error?.cause === NO_DELIVERY_CAUSE) return 'no-delivery';
  if (record.outcome === 'rejected' && record.httpStatus !== undefined) {
    const s = record.httpStatus;
    if (s >= 400 && s < 500 && !NOT_SETUP_STATUS.has(s)) return `rejected:${s}`;
  }
  if (record.outcome === 'transport-error' && error?.cause !== undefined && CONNECT_CAUSES.test(error.cause))
    return `transport:${error.cause}`;
  return undefined;
}

export class SetupBreaker {
  readonly #threshold: number;
  #first: SetupFailure | undefined;
  #armed = true;
  #tripped = false;
  #wiring: SetupFailure | undefined;

  constructor(threshold = 3) {
    this.#threshold = threshold;
  }

  get tripped(): boolean {
    return this.#tripped;
  }

  /** Feeds one ended, sent record; true when this record trips the breaker. */
  observe(record: RequestRecord): boolean {
    if (!this.#armed || record.outcome === 'not-sent' || record.outcome === 'interrupted') return false;
    const signature = setupSignature(record);
    if (signature === undefined || (this.#first && this.#first.signature !== signature)) {
      this.#armed = false;
      return false;
    }
    if (!this.#first) {
      const error = record.error ?? { code: 'DROIDCHECK_ERR_STEP', message: record.outcome };
      this.#first = {
        signature,
        records: 0,
        error,
        ...(record.httpStatus !== undefined && { httpStatus: record.httpStatus }),
      };
    }
    this.#first.records += 1;
    if (this.#first.records >= this.#threshold && !this.#tripped) {
      this.#tripped = true;
      return true;
    }
    return false;
  }

  /**
   * Trips on a wiring fault of the receiver (`sentence`: wiring-stop.ts); true unless the
   * breaker had tripped already.
   */
  miswired(fault: WiringFault, sentence: string): boolean {
    return this.#stop({ signature: `wiring:${fault.kind}`, wiring: fault }, sentence);
  }

  /**
   * Trips while the records still wait, on a watch's word (`no-first-answer`: first-answer.ts);
   * true unless the breaker had tripped already.
   */
  stopEarly(signature: 'no-first-answer', sentence: string): boolean {
    return this.#stop({ signature }, sentence);
  }

  #stop(what: Pick<SetupFailure, 'signature' | 'wiring'>, sentence: string): boolean {
    if (this.#tripped) return false;
    this.#tripped = true;
    this.#wiring = { ...what, records: 0, error: { code: SetupError.code, message: sentence }, partial: true };
    return true;
  }

  /**
   * The failure, when the breaker tripped or (at the end of a run too short to trip it) every
   * record sent failed the same set-up way; undefined otherwise.
   */
  failure(): SetupFailure | undefined {
    if (this.#wiring) return { ...this.#wiring };
    return this.#armed && this.#first ? { ...this.#first } : undefined;
  }
}
