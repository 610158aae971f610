/**
 * Opt-in retry of a request (off by default, so a run reports what the service did): HTTP 429
 * and 5xx (docs/service-reference.md: Errors; Limits, rate limit with `Retry-After`), with
 * exponential backoff and jitter, bounded in attempts and in each wait.
 *
 * undici's retry interceptor (`interceptors.retry`, its RetryHandler) re-sends the request;
 * this module gives it the rule, as undici's `retry` callback (`retryOptions`), because its
 * default rule cannot express ours: it retries by method and error code, not by request kind;
 * its backoff has no jitter; and it caps `Retry-After` at the backoff's cap.
 *
 * What is retried:
 * - a 429 or 5xx answer: the service said no before doing the work;
 * - no HTTP answer (TransportError) only when `kind` is `sync` or `other`: an async submit whose
 *   connection broke may already have been accepted, and a second one would charge twice.
 * Never retried: a 2xx (an acknowledged async request is done: retrying it double-charges),
 * other 4xx, a timeout, an abort, and any response whose headers reached the caller: undici
 * would resume a broken body with a `Range` request, which the endpoints do not serve, and a
 * sync answer that broke mid-body was produced (a second request is a second answer).
 *
 * While it waits on a 429/5xx, undici holds that response paused on its connection: the
 * connection is busy for the wait (the target's Agent then opens another for new requests).
 */
import { sleep } from '../clock.js';
import type { RetryHandler } from 'undici';
import { ApiError, TransportError } from '../errors.js';

export interface RetryPolicy {
  /** Attempts in total, the first one included (1 = no retry). `--retries N` => N + 1. */
  attempts: number;
  /** Backoff of the first retry, ms; doubles each retry. */
  baseMs: number;
  /** Largest backoff, ms (also caps a `Retry-After` unless `maxRetryAfterMs` says otherwise). */
  maxMs: number;
  /** 0..1: share of each backoff that is random (0.5 => wait 50%..100% of the backoff). */
  jitter: number;
  /** Largest wait honoured for a `Retry-After` header, ms. Default 60_000. */
  maxRetryAfterMs?: number;
}

/** Which request is being retried: decides whether a TransportError is safe to retry. */
export type RetryKind = 'async-submit' | 'sync' | 'other';

/** A caller's retry of one request (CallOptions.retry): the policy and who counts the retries. */
export interface RequestRetry {
  policy: RetryPolicy;
  /** Called before each retry: attempt about to start (2, 3...), the error, the wait in ms. */
  onRetry?: ((attempt: number, err: unknown, waitMs: number) => void) | undefined;
}

/** What the client knows of the request being retried (client/call.ts). */
export interface RetryTarget {
  kind: RetryKind;
  /** Cancels the wait between attempts (the call then rejects with AbortedError). */
  signal: AbortSignal | undefined;
  /** The droidcheck error undici's `err` stands for: ApiError for a status, else TransportError & co. */
  classify: (err: Error) => unknown;
  /** True once the response's headers reached the caller: never retried from then on. */
  delivered: () => boolean;
}

const DEFAULT_RETRY_POLICY: Omit<RetryPolicy, 'attempts'> = {
  baseMs: 200,
  maxMs: 5_000,
  jitter: 0.5,
  maxRetryAfterMs: 60_000,
};

/** Most attempts accepted whatever the policy says (bounded). */
const MAX_ATTEMPTS = 11;

/** The policy for `--retries N` (N retries after the first attempt); undefined when N is 0. */
export function retryPolicyFor(retries: number): RetryPolicy | undefined {
  return retries > 0 ? { ...DEFAULT_RETRY_POLICY, attempts: Math.min(MAX_ATTEMPTS, retries + 1) } : undefined;
}

/** True when `err` may be retried for a request of `kind` (see the module comment). */
export function isRetryable(err: unknown, kind: RetryKind): boolean {
  if (err instanceof ApiError) return err.status === 429 || (err.status >= 500 && err.status <= 599);
  if (err instanceof TransportError) return kind !== 'async-submit';
  return false;
}

/**
 * Wait before retry number `retry` (1-based), ms: the `Retry-After` of an ApiError when present
 * (capped at maxRetryAfterMs, plus up to `jitter * baseMs` so clients do not return in step),
 * else `min(maxMs, baseMs * 2^(retry-1))` reduced by up to `jitter` of itself.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  err: unknown,
  random: () => number = Math.random,
): number {
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  if (err instanceof ApiError && err.retryAfterS !== undefined) {
    const cap = policy.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs!;
    return Math.min(cap, err.retryAfterS * 1000) + Math.round(random() * jitter * policy.baseMs);
  }
  const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(30, retry - 1));
  return Math.round(backoff * (1 - jitter * random()));
}

/**
 * undici `retryOptions` for one request through the retry interceptor: retries per
 * `isRetryable`, waits `retryDelayMs` (abortable), at most `policy.attempts` attempts in all
 * (capped at 11), reports each retry once to `onRetry`. The last answer reaches the caller as
 * it came (`throwOnError: false`: a final 503 keeps its body for the ApiError).
 */
export function retryOptionsFor(retry: RequestRetry, target: RetryTarget): RetryHandler.RetryOptions {
  const { policy, onRetry } = retry;
  const { kind, signal, classify, delivered } = target;
  const attempts = Math.min(MAX_ATTEMPTS, Math.max(1, Math.floor(policy.attempts)));
  let reported = 0;
  return {
    throwOnError: false,
    maxRetries: attempts - 1,
    retry(err, { state }, callback) {
      // undici's counter: the attempts made so far, the one that just failed included.
      const failed = state.counter;
      const cause = classify(err);
      if (failed >= attempts || delivered() || !isRetryable(cause, kind) || signal?.aborted) return callback(err);
      const waitMs = retryDelayMs(policy, failed, cause);
      // One attempt can fail twice (a 503 whose body then breaks): one retry, counted once.
      if (failed > reported) {
        reported = failed;
        onRetry?.(failed + 1, cause, waitMs);
      }
      void sleep(waitMs, { signal }).then(() => {
        if (!signal?.aborted) return callback(delivered() ? err : null);
        // Aborted: a 429/5xx is still open (paused) and undici's abort of the request ends the
        // call; after a transport error nothing is open, so end it here (call() maps it to AbortedError).
        if (!(cause instanceof ApiError)) callback(err);
      });
    },
  };
}
