/**
 * Reliability units: the accounting invariant fails loudly; the retry policy is bounded, honours
 * Retry-After, never retries an async submit's transport error nor a success (the client's retry
 * against a real server: test/client/retry.test.ts). (Hostile YAML that must parse in time linear
 * in its size: test/scenario/hostile.timing.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { isRetryable, retryDelayMs, retryPolicyFor, type RetryPolicy } from '../../src/client/retry.js';
import {
  AbortedError,
  ApiError,
  ContractError,
  InternalError,
  TimeoutError,
  TransportError,
} from '../../src/errors.js';
import { zeroOutcomes } from '../../src/outcomes.js';
import { assertReceiverAddsUp, assertRequestsAddUp } from '../../src/runner/accounting.js';
import { Tally, type RequestRecord } from '../../src/runner/index.js';

const api = (status: number, retryAfterS?: number): ApiError =>
  new ApiError({ endpoint: 'e', status, ...(retryAfterS !== undefined && { retryAfterS }) });
const rec = (outcome: RequestRecord['outcome'], passed = false): RequestRecord =>
  ({
    seq: 0,
    suite: 's',
    scenario: 'x',
    file: 'f',
    mode: 'sync',
    outcome,
    passed,
    startedAt: '',
    failures: [],
    contractViolations: [],
  }) as RequestRecord;
const stats = {
  received: 10,
  matched: 4,
  duplicates: 2,
  late: 1,
  orphans: 1,
  foreign: 0,
  badSecret: 1,
  malformed: 1,
  published: 0,
  unavailable: 0,
};
const counts = (over: Partial<Record<RequestRecord['outcome'], number>>) => ({ ...zeroOutcomes(), ...over });

describe('accounting invariant', () => {
  it('passes when outcomes add up and the receiver balances', () => {
    expect(assertRequestsAddUp(counts({ answered: 1, timeout: 1 }), 2)).toBe(2);
    expect(() => assertReceiverAddsUp(stats)).not.toThrow();
    expect(() => assertReceiverAddsUp({ ...stats, received: 11 }, 1)).not.toThrow();
  });

  it('throws InternalError for a lost request or an unbalanced receiver', () => {
    expect(() => assertRequestsAddUp(counts({ answered: 1 }), 2)).toThrow(InternalError);
    expect(() => assertRequestsAddUp(counts({ answered: 1 }), 2)).toThrow(/2 requests but 1 outcomes/);
    expect(() => assertReceiverAddsUp({ ...stats, received: 11 })).toThrow(/answer webhook: received 11 != matched 4/);
  });

  it('the tally gives every record one outcome; not-sent and interrupted ones have no verdict', () => {
    const t = new Tally();
    for (const r of [rec('answered', true), rec('answered'), rec('timeout'), rec('not-sent'), rec('interrupted')])
      t.add(r);
    const s = t.snapshot();
    expect(s).toMatchObject({ requests: 5, sent: 4, passed: 1, failed: 2 });
    expect(s.outcomes).toMatchObject({ answered: 2, timeout: 1, 'not-sent': 1, interrupted: 1 });
  });
});

describe('retry policy', () => {
  const policy: RetryPolicy = { attempts: 4, baseMs: 1, maxMs: 4, jitter: 0.5, maxRetryAfterMs: 30 };

  it('retries 429 and 5xx only; transport errors except for an async submit', () => {
    for (const s of [429, 500, 502, 503, 599]) expect(isRetryable(api(s), 'async-submit')).toBe(true);
    for (const s of [400, 401, 403, 404, 413]) expect(isRetryable(api(s), 'sync')).toBe(false);
    expect(isRetryable(new TransportError('reset', 'ECONNRESET'), 'sync')).toBe(true);
    expect(isRetryable(new TransportError('reset', 'ECONNRESET'), 'async-submit')).toBe(false);
    for (const e of [new TimeoutError('t'), new ContractError('e', []), new AbortedError(), new Error('x')])
      expect(isRetryable(e, 'sync')).toBe(false);
  });

  it('backs off exponentially with jitter, capped; honours Retry-After up to its cap', () => {
    const noJitter = { ...policy, baseMs: 100, maxMs: 1_000, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(noJitter, n, api(503)))).toEqual([100, 200, 400, 800, 1_000]);
    expect(retryDelayMs({ ...noJitter, jitter: 0.5 }, 1, api(503), () => 1)).toBe(50);
    expect(retryDelayMs({ ...noJitter, maxRetryAfterMs: 60_000 }, 1, api(429, 2))).toBe(2_000);
    expect(retryDelayMs({ ...noJitter, maxRetryAfterMs: 5_000 }, 1, api(429, 3_600))).toBe(5_000);
    expect(retryPolicyFor(0)).toBeUndefined();
    expect(retryPolicyFor(1_000)?.attempts).toBe(11);
  });
});
