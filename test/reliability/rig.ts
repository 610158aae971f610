/**
 * Test rig of the reliability tests: a real emulator (with a fault profile) and a real receiver,
 * both on 127.0.0.1 port 0, a DroidClient over a pooled undici Agent, and helpers to run a suite of
 * `repeat` requests and to wait, bounded, until every delivery the emulator planned has ended.
 */
import type { RetryPolicy } from '../../src/client/retry.js';
import type { EmulatorStats, FaultProfileInput } from '../../src/emulator/index.js';
import type { ReceiverStats } from '../../src/receiver/index.js';
import { HANG_MS } from '../helpers/hang.js';
import { measuringLag, type Lag } from '../helpers/lag.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { checkAccounting, type EngineResult, type Outcome } from '../../src/runner/index.js';
import { parseSuite, type Suite } from '../../src/scenario/index.js';
import { runPlan } from '../helpers/engine.js';

/**
 * The injected slow ack (fixed delay, ms): far over the spec's 100 ms so that an ordinary ack
 * on a loaded CI machine is never mistaken for an injected one (1 s was: nine fault runs at once
 * on a busy machine acknowledged a few in over a second), unless this process's timers were that
 * late (Tally.lag: a test judges its slow acks exactly only when they were not).
 */
export const SLOW_ACK_MS = 3_000;

/**
 * The emulator's delivery attempt timeout and the client's request timeouts in the rig, ms: hang
 * detectors, far above what a loaded machine takes (an attempt timed out by a busy machine would be
 * retried, and its copy counted as a duplicate no fault injected).
 */
const RIG_TIMEOUT_MS = 10_000;

const SECRET = 'rig-secret-0123456789abcdefghijklmnopqrstuv';

export type Rig = Loopback;

export function startRig(faults?: FaultProfileInput, opts: { seed?: number; timeoutMs?: number } = {}): Promise<Rig> {
  return startLoopback({
    secret: SECRET,
    receiver: { orphanGraceMs: 60_000 },
    emulator: {
      seed: opts.seed ?? 7,
      ...(faults !== undefined && { faults }),
      delivery: { attempts: 3, backoffMs: 50, maxBackoffMs: 200, timeoutMs: RIG_TIMEOUT_MS },
    },
    agent: { connections: 64, keepAliveTimeout: 10_000 },
    client: { requestTimeoutMs: opts.timeoutMs ?? RIG_TIMEOUT_MS, syncTimeoutMs: opts.timeoutMs ?? RIG_TIMEOUT_MS },
  });
}

/** A suite of one scenario repeated `n` times in `mode`. */
export function repeatedSuite(n: number, mode: 'sync' | 'async'): Suite {
  const text = `suite: reliability\nscenarios:\n  - name: hello ${mode}\n    modes: [${mode}]\n    repeat: ${n}\n    humanMessage: Hello, do you have silk scarves?\n`;
  return parseSuite(text, 'reliability.yaml');
}

export async function runRig(
  rig: Rig,
  n: number,
  opts: { mode?: 'sync' | 'async'; timeoutMs?: number; concurrency?: number; retry?: RetryPolicy } = {},
): Promise<EngineResult> {
  return runPlan(rig, [repeatedSuite(n, opts.mode ?? 'async')], {
    concurrency: opts.concurrency ?? 16,
    timeoutMs: opts.timeoutMs ?? 1_500,
    // Faults make many requests fail on purpose: no early stop.
    setupBreaker: false,
    ...(opts.retry && { retry: opts.retry }),
  });
}

/** The accounting invariant of a finished rig run (throws InternalError when it breaks). */
export function assertRigAccounting(t: { result: EngineResult; rec: ReceiverStats }): void {
  checkAccounting({
    outcomes: t.result.tally.outcomes,
    requests: t.result.tally.requests,
    notSent: t.result.counts.notSent,
    receiver: t.rec,
  });
}

/** Deliveries the emulator will make in total: accepted minus dropped, plus duplicate copies. */
function plannedDeliveries(s: EmulatorStats): number {
  return s.accepted - s.dropped + s.duplicated;
}

/**
 * Waits (at most `maxMs`, a hang detector) until every planned delivery ended (2xx or gave up)
 * and none is pending, so late and duplicate copies are counted before the receiver closes.
 */
async function settle(rig: Rig, maxMs = HANG_MS): Promise<void> {
  const until = performance.now() + maxMs;
  for (;;) {
    const s = rig.emulator.stats();
    if (s.pending === 0 && s.delivered + s.deliveryFailures >= plannedDeliveries(s)) return;
    if (performance.now() > until) throw new Error(`deliveries did not settle in ${maxMs} ms: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Tally {
  out: Record<Outcome, number>;
  emu: EmulatorStats;
  rec: ReceiverStats;
  retries: number;
  byStatus: Map<number, number>;
  slowAcks: number;
  /** How late this process's timers fired during the run (helpers/lag.ts). */
  lag: Lag;
}

/** Runs, settles, closes, and tallies droidcheck's counts beside the emulator's own stats. */
export async function runAndTally(
  rig: Rig,
  n: number,
  opts: Parameters<typeof runRig>[2] = {},
): Promise<Tally & { result: EngineResult }> {
  const [result, lag] = await measuringLag(() => runRig(rig, n, opts));
  await settle(rig);
  const emu = rig.emulator.stats();
  await rig.close();
  const rec = rig.receiver.stats();
  const byStatus = new Map<number, number>();
  let retries = 0;
  let slowAcks = 0;
  for (const r of result.records!) {
    retries += r.retries ?? 0;
    if (r.outcome === 'rejected' && r.httpStatus !== undefined)
      byStatus.set(r.httpStatus, (byStatus.get(r.httpStatus) ?? 0) + 1);
    if (r.ackMs !== undefined && r.ackMs >= SLOW_ACK_MS) slowAcks++;
  }
  return { out: { ...result.tally.outcomes }, emu, rec, retries, byStatus, slowAcks, lag, result };
}
