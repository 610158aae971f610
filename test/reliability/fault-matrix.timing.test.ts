/**
 * Fault matrix (nothing lost): each fault of the emulator alone, then all together,
 * against a real emulator and receiver on 127.0.0.1. For each, droidcheck's outcome counts and
 * receiver stats equal the emulator's own stats, and the accounting invariant holds.
 *
 * On a busy machine a few answers take longer than the 2 s deadline with no fault injected (nine
 * of these runs at once beside four busy loops did): each such timeout is judged on what the
 * receiver recorded, its webhook counted late on arrival beyond the injected late ones
 * (`overdue`); an idle machine has none, and every count is then exact.
 */
import { describe, expect, it } from 'vitest';
import { assertRigAccounting, runAndTally, SLOW_ACK_MS, startRig, type Tally } from './rig.js';

const N = 300;
const ASYNC = 'get-droid-answer-async';
const DEADLINE_MS = 2_000;
const LATE_MS = 2_600; // beyond the deadline
/** The deadline of runs with slow acks: it counts from the request's start, the slow ack included. */
const SLOW_DEADLINE_MS = SLOW_ACK_MS + DEADLINE_MS;

/** Webhooks the receiver counted late beyond the injected ones: answers a busy machine made late. */
const overdue = (t: Tally): number => t.rec.late - t.emu.late;

/**
 * Acks of SLOW_ACK_MS or more are the injected ones, exactly, unless this process's timers were
 * that late during the run (a busy machine): then at least those.
 */
function expectSlowAcks(t: Tally, injected: number): void {
  if (t.lag.maxMs < SLOW_ACK_MS) expect(t.slowAcks).toBe(injected);
  else expect(t.slowAcks).toBeGreaterThanOrEqual(injected);
}

/** What holds whatever the faults: nothing lost on either side. */
function expectNothingLost(t: Tally & Parameters<typeof assertRigAccounting>[0]): void {
  assertRigAccounting(t);
  const sent = Object.values(t.out).reduce((a, b) => a + b, 0);
  expect(sent).toBe(N);
  expect(t.out.interrupted).toBe(0);
  // Every acknowledged request either got its webhook or timed out (dropped or late; late from a
  // busy machine too, each seen late by the receiver).
  expect(t.emu.accepted).toBe(t.out.answered + t.out.failed + t.out.timeout);
  expect(overdue(t)).toBeGreaterThanOrEqual(0);
  expect(t.out.timeout).toBeGreaterThanOrEqual(t.emu.dropped + t.emu.late);
  expect(t.out.timeout).toBeLessThanOrEqual(t.emu.dropped + t.emu.late + overdue(t));
  // Every delivery that reached the receiver is classified exactly once.
  expect(t.rec.matched).toBe(t.out.answered + t.out.failed);
  expect(t.rec.matched + t.rec.duplicates + t.rec.late + t.rec.orphans).toBe(t.emu.delivered);
  expect(t.rec.received).toBe(t.emu.deliveryAttempts);
  expect(t.rec.badSecret + t.rec.malformed + t.rec.orphans).toBe(0);
}

describe.concurrent('fault matrix: droidcheck counts equal the emulator stats', () => {
  it('no faults: every request answered', async () => {
    const t = await runAndTally(await startRig(), N, { timeoutMs: DEADLINE_MS });
    expectNothingLost(t);
    expect(t.out.answered).toBe(N - t.out.timeout); // timeouts: overdue ones only (expectNothingLost)
    expect(t.emu.injectedFaults).toBe(0);
  });

  it('drop 5%: dropped webhooks are timeouts, no more, no less', async () => {
    const t = await runAndTally(await startRig({ webhooks: [{ probability: 0.05, action: 'drop' }] }), N, {
      timeoutMs: DEADLINE_MS,
    });
    expectNothingLost(t);
    expect(t.emu.dropped).toBeGreaterThan(0);
    // Timeouts: the dropped ones, plus overdue ones only (expectNothingLost).
    expect(t.out.timeout - t.emu.dropped).toBeLessThanOrEqual(overdue(t));
  });

  it('duplicate 20%: each extra copy is one receiver duplicate', async () => {
    const t = await runAndTally(
      await startRig({ webhooks: [{ probability: 0.2, action: 'duplicate', copies: 2 }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.duplicated).toBeGreaterThan(20);
    // A copy of an overdue answer is late, not a duplicate.
    expect(t.rec.duplicates).toBeLessThanOrEqual(t.emu.duplicated);
    expect(t.rec.duplicates + overdue(t)).toBeGreaterThanOrEqual(t.emu.duplicated);
    expect(t.out.answered).toBe(N - t.out.timeout);
  });

  it('late 2% (beyond the deadline): timeouts, then counted late on arrival', async () => {
    const t = await runAndTally(
      await startRig({ webhooks: [{ probability: 0.02, action: 'late', delayMs: LATE_MS }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.late).toBeGreaterThan(0);
    expect(t.out.timeout - t.emu.late).toBeLessThanOrEqual(overdue(t));
    expect(t.rec.late).toBeGreaterThanOrEqual(t.emu.late);
  });

  it('5xx 5%: rejected with the status, one per injected fault', async () => {
    const t = await runAndTally(
      await startRig({ requests: [{ endpoint: ASYNC, probability: 0.05, action: 'error', status: 503 }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.injectedFaults).toBeGreaterThan(0);
    expect(t.out.rejected).toBe(t.emu.injectedFaults);
    expect(t.byStatus.get(503)).toBe(t.emu.injectedFaults);
  });

  it('429 10%: rejected with 429, one per injected fault', async () => {
    const t = await runAndTally(
      await startRig({ requests: [{ endpoint: ASYNC, probability: 0.1, action: 'rate-limit', retryAfterS: 1 }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.out.rejected).toBe(t.emu.injectedFaults);
    expect(t.byStatus.get(429)).toBe(t.emu.injectedFaults);
  });

  it('connection reset 2%: transport errors, one per reset', async () => {
    const t = await runAndTally(
      await startRig({ requests: [{ endpoint: ASYNC, probability: 0.02, action: 'reset' }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.injectedFaults).toBeGreaterThan(0);
    expect(t.out['transport-error']).toBe(t.emu.injectedFaults);
  });

  it('slow ack (3 s, over the 100 ms limit) 5%: slow acks equal the injected delays', async () => {
    const slow = {
      endpoint: ASYNC,
      probability: 0.05,
      action: 'delay',
      delay: { kind: 'fixed', ms: SLOW_ACK_MS },
    } as const;
    const t = await runAndTally(await startRig({ requests: [slow] }), N, { timeoutMs: SLOW_DEADLINE_MS });
    expectNothingLost(t);
    expect(t.emu.injectedFaults).toBeGreaterThan(0);
    expectSlowAcks(t, t.emu.injectedFaults);
    expect(t.out.answered).toBe(N - t.out.timeout);
  });

  it('all together: every count still matches', async () => {
    const t = await runAndTally(
      await startRig({
        requests: [
          { endpoint: ASYNC, probability: 0.05, action: 'error', status: 502 },
          { endpoint: ASYNC, probability: 0.1, action: 'rate-limit', retryAfterS: 1 },
          { endpoint: ASYNC, probability: 0.02, action: 'reset' },
          { endpoint: ASYNC, probability: 0.05, action: 'delay', delay: { kind: 'fixed', ms: SLOW_ACK_MS } },
        ],
        webhooks: [
          { probability: 0.05, action: 'drop' },
          { probability: 0.2, action: 'duplicate', copies: 2 },
          { probability: 0.02, action: 'late', delayMs: SLOW_DEADLINE_MS + 600 },
        ],
      }),
      N,
      { timeoutMs: SLOW_DEADLINE_MS },
    );
    expectNothingLost(t);
    const rejected = (t.byStatus.get(502) ?? 0) + (t.byStatus.get(429) ?? 0);
    expect(rejected).toBe(t.out.rejected);
    expectSlowAcks(t, t.emu.injectedFaults - t.out.rejected - t.out['transport-error']);
    expect(t.emu.accepted).toBe(N - t.out.rejected - t.out['transport-error']);
    expect(t.rec.late).toBeGreaterThanOrEqual(t.emu.late);
  });
});

describe.concurrent('client retries against injected faults', () => {
  const policy = { attempts: 4, baseMs: 5, maxMs: 50, jitter: 0.5, maxRetryAfterMs: 50 };

  it('retries 429 and 5xx: every injected fault is a retry or a final rejection', async () => {
    const rig = await startRig({
      requests: [
        { endpoint: ASYNC, probability: 0.05, action: 'error', status: 503 },
        { endpoint: ASYNC, probability: 0.1, action: 'rate-limit', retryAfterS: 0 },
      ],
    });
    const t = await runAndTally(rig, N, { retry: policy });
    assertRigAccounting(t);
    expect(t.retries).toBeGreaterThan(10);
    expect(t.retries + t.out.rejected).toBe(t.emu.injectedFaults);
    expect(t.emu.accepted).toBe(N - t.out.rejected);
    // Never a second acknowledgement for one record: accepted requests = records that got an ack.
    expect(t.result.records!.filter((r) => r.ackMs !== undefined)).toHaveLength(t.emu.accepted);
  });

  it('never retries an async submit whose connection was reset (it may have been accepted)', async () => {
    const t = await runAndTally(
      await startRig({ requests: [{ endpoint: ASYNC, probability: 0.05, action: 'reset' }] }),
      N,
      { retry: policy },
    );
    expect(t.retries).toBe(0);
    expect(t.out['transport-error']).toBe(t.emu.injectedFaults);
  });

  it('retries a reset sync request', async () => {
    const rig = await startRig({ requests: [{ endpoint: 'get-droid-answer', probability: 0.05, action: 'reset' }] });
    const t = await runAndTally(rig, 200, { mode: 'sync', retry: policy });
    expect(t.emu.injectedFaults).toBeGreaterThan(0);
    expect(t.retries + t.out['transport-error']).toBe(t.emu.injectedFaults);
    expect(t.out.answered).toBe(200 - t.out['transport-error']);
  });
});
