/**
 * Fault matrix (nothing lost): each fault of the emulator alone, then all together,
 * against a real emulator and receiver on 127.0.0.1. For each, droidcheck's outcome counts and
 * receiver stats equal the emulator's own stats, and the accounting invariant holds.
 */
import { describe, expect, it } from 'vitest';
import { assertRigAccounting, runAndTally, SLOW_ACK_MS, startRig, type Tally } from './rig.js';

const N = 300;
const ASYNC = 'get-droid-answer-async';
const DEADLINE_MS = 2_000;
const LATE_MS = 2_600; // beyond the deadline

/** What holds whatever the faults: nothing lost on either side. */
function expectNothingLost(t: Tally & Parameters<typeof assertRigAccounting>[0]): void {
  assertRigAccounting(t);
  const sent = Object.values(t.out).reduce((a, b) => a + b, 0);
  expect(sent).toBe(N);
  expect(t.out.interrupted).toBe(0);
  // Every acknowledged request either got its webhook or timed out (dropped or late).
  expect(t.emu.accepted).toBe(t.out.answered + t.out.failed + t.out.timeout);
  expect(t.out.timeout).toBe(t.emu.dropped + t.emu.late);
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
    expect(t.out.answered).toBe(N);
    expect(t.emu.injectedFaults).toBe(0);
  });

  it('drop 5%: dropped webhooks are timeouts, no more, no less', async () => {
    const t = await runAndTally(await startRig({ webhooks: [{ probability: 0.05, action: 'drop' }] }), N, {
      timeoutMs: DEADLINE_MS,
    });
    expectNothingLost(t);
    expect(t.emu.dropped).toBeGreaterThan(0);
    expect(t.out.timeout).toBe(t.emu.dropped);
  });

  it('duplicate 20%: each extra copy is one receiver duplicate', async () => {
    const t = await runAndTally(
      await startRig({ webhooks: [{ probability: 0.2, action: 'duplicate', copies: 2 }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.duplicated).toBeGreaterThan(20);
    expect(t.rec.duplicates).toBe(t.emu.duplicated);
    expect(t.out.answered).toBe(N);
  });

  it('late 2% (beyond the deadline): timeouts, then counted late on arrival', async () => {
    const t = await runAndTally(
      await startRig({ webhooks: [{ probability: 0.02, action: 'late', delayMs: LATE_MS }] }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    expect(t.emu.late).toBeGreaterThan(0);
    expect(t.out.timeout).toBe(t.emu.late);
    expect(t.rec.late).toBe(t.emu.late);
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

  it('slow ack (1 s, over the 100 ms limit) 5%: slow acks equal the injected delays', async () => {
    const slow = {
      endpoint: ASYNC,
      probability: 0.05,
      action: 'delay',
      delay: { kind: 'fixed', ms: SLOW_ACK_MS },
    } as const;
    const t = await runAndTally(await startRig({ requests: [slow] }), N, { timeoutMs: DEADLINE_MS });
    expectNothingLost(t);
    expect(t.emu.injectedFaults).toBeGreaterThan(0);
    expect(t.slowAcks).toBe(t.emu.injectedFaults);
    expect(t.out.answered).toBe(N);
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
          { probability: 0.02, action: 'late', delayMs: LATE_MS },
        ],
      }),
      N,
      { timeoutMs: DEADLINE_MS },
    );
    expectNothingLost(t);
    const rejected = (t.byStatus.get(502) ?? 0) + (t.byStatus.get(429) ?? 0);
    expect(rejected).toBe(t.out.rejected);
    expect(t.out.rejected + t.out['transport-error'] + t.slowAcks).toBe(t.emu.injectedFaults);
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
    expect(t.result.records.filter((r) => r.ackMs !== undefined)).toHaveLength(t.emu.accepted);
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
