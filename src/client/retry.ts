/**
 * Opt-in retry of a submit (off by default, so a run reports what the service did): HTTP 429
 * and 5xx (docs/service-reference.md: Errors; Limits, rate limit with `Retry-After`), with
 * exponential backoff and jitter, bounded in attempts and in each wait.
 *
 * What is retried:
 * - ApiError 429 or 5xx: the service said no before doing the work;
 * - TransportError (no HTTP answer) only when `kind` is `sync` or `other`: an async submit whose
 *   connection broke may already have been accepted, and a second one would charge twice.
 * Never retried: a 2xx (an acknowledged async request is done: retrying it double-charges),
 * other 4xx, TimeoutError, ContractError, AbortedError.
 */
import { AbortedError, ApiError, TransportError } from '../errors.js';

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

export interface RetryOptions {
  policy: RetryPolicy | undefined;
  kind: RetryKind;
  /** Cancels the wait between attempts (the call then rejects with AbortedError). */
  signal?: AbortSignal | undefined;
  /** Called before each retry: attempt about to start (2, 3...), the error, the wait in ms. */
  onRetry?: (attempt: number, err: unknown, waitMs: number) => void;
  /** Injected for tests; default Math.random. */
  random?: () => number;
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

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('aborted while waiting to retry'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('aborted while waiting to retry'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `fn` until it resolves, throws something not retryable, or the attempts run out
 * (then the last error is rethrown). Without a policy (or attempts <= 1) `fn` runs once.
 * Each retry is reported to `onRetry` (the runner counts it in `RequestRecord.retries`).
 * @throws whatever `fn` throws last; AbortedError when `signal` aborts during a wait.
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const policy = options.policy;
  const attempts = policy ? Math.min(MAX_ATTEMPTS, Math.max(1, Math.floor(policy.attempts))) : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!policy || attempt >= attempts || !isRetryable(err, options.kind) || options.signal?.aborted) throw err;
      const waitMs = retryDelayMs(policy, attempt, err, options.random);
      options.onRetry?.(attempt + 1, err, waitMs);
      await sleep(waitMs, options.signal);
    }
  }
}
