/**
 * Conversations with think time against the real emulator on 127.0.0.1 port 0: the pause is
 * waited (the conversation's time holds it) but never counted in a turn's latency, each turn is
 * recorded under its number, and the pauses drawn are reproducible from the request's seq. The
 * pauses are waited on the run's injected clock: here one whose sleep moves it at once, so two
 * 10-minute pauses take no real time, and a latency that held one would read 10 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/clock.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { mulberry32 } from '../../src/random.js';
import { executeRequest, type ExecuteContext } from '../../src/runner/index.js';
import { pause, sampleThinkMs, thinkRandom } from '../../src/runner/think.js';
import { parseSuite } from '../../src/scenario/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';

const SUITE = `
suite: Talk
scenarios:
  - name: three turns
    think: 10m
    steps:
      - say: Hi, do you sell shirts?
      - say: I want to buy 2 Oxford shirts
      - say: Send them to 99 Sukhumvit Rd, Bangkok 10110
`;

describe('think time in a conversation (127.0.0.1)', () => {
  let rig: Loopback;
  beforeAll(async () => {
    rig = await startLoopback();
  });
  afterAll(async () => {
    await rig?.close();
  });
  const scenario = parseSuite(SUITE, 'talk.yaml').scenarios[0]!;
  /** Real time, plus every sleep's length at once: a pause moves the clock and waits for nothing. */
  const jumping = (): Clock => {
    let slept = 0;
    return {
      now: () => performance.now() + slept,
      wallNow: () => new Date(),
      sleep: async (ms) => void (slept += Math.max(0, ms)),
    };
  };
  /** A request's context on the loopback rig, recording into `latency`. */
  const contextOf = (
    latency: ExecuteContext['latency'],
    abortSignal?: AbortSignal,
    clock: Clock = systemClock,
  ): ExecuteContext => ({
    client: rig.client,
    receiver: rig.receiver,
    clock,
    timeoutMs: 10_000,
    latency,
    ...(abortSignal && { abortSignal }),
  });

  it.each(['sync', 'async'] as const)(
    '%s: waits 2 x 10 min between the turns, none of it in a latency',
    async (mode) => {
      const latency = new LatencyRecorder();
      const clock = jumping();
      const t0 = clock.now();
      const record = await executeRequest({ seq: 0, scenario, mode }, contextOf(latency, undefined, clock));
      const conversationMs = clock.now() - t0;
      expect(record.outcome).toBe('answered');
      expect(record.steps!.map((s) => s.kind)).toEqual(['say', 'say', 'say']);
      expect(conversationMs).toBeGreaterThanOrEqual(2 * 600_000);
      const metric = mode === 'sync' ? 'sync' : 'answer';
      // A latency that held a pause would read 10 minutes: the emulator answers in milliseconds.
      for (const s of record.steps!) expect(s.latencyMs!).toBeLessThan(60_000);
      expect([...latency.byTurn.keys()].sort()).toEqual([1, 2, 3]);
      for (const turn of [1, 2, 3]) {
        const r = latency.byTurn.get(turn)!;
        expect(r.count(metric)).toBe(1);
        expect(r.summary(metric).max).toBeLessThan(60_000);
        if (mode === 'async') expect(r.count('ack')).toBe(1);
      }
      // The run-wide histogram holds the same three turns.
      expect(latency.count(metric)).toBe(3);
    },
  );

  it('an interrupt during a pause ends the conversation interrupted, before the next turn', async () => {
    const abort = new AbortController();
    // The run is interrupted the moment the first turn's answer is measured: in the pause after it.
    const latency = { recordMs: () => abort.abort() };
    const record = await executeRequest({ seq: 0, scenario, mode: 'sync' }, contextOf(latency, abort.signal));
    expect(record.outcome).toBe('interrupted');
    expect(record.steps).toHaveLength(1);
    expect(record.error?.message).toBe('run interrupted before step 2');
  });
});

describe('drawing the pauses', () => {
  const loc = { file: 's.yaml', line: 1, col: 1 };

  it('uniform: within the range; the same seq draws the same pauses', () => {
    const u = { kind: 'uniform' as const, minMs: 2000, maxMs: 8000, location: loc };
    const a = Array.from(
      { length: 200 },
      (
        (r) => () =>
          sampleThinkMs(u, r)
      )(thinkRandom(7)),
    );
    const b = Array.from(
      { length: 200 },
      (
        (r) => () =>
          sampleThinkMs(u, r)
      )(thinkRandom(7)),
    );
    const c = Array.from(
      { length: 200 },
      (
        (r) => () =>
          sampleThinkMs(u, r)
      )(thinkRandom(8)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...a)).toBeLessThan(8000);
  });

  it('lognormal: the median and p90 of 20,000 draws are those written (within 3%)', () => {
    const ln = { kind: 'lognormal' as const, medianMs: 4000, p90Ms: 12_000, location: loc };
    const random = mulberry32(1);
    const draws = Array.from({ length: 20_000 }, () => sampleThinkMs(ln, random)).sort((x, y) => x - y);
    expect(draws[10_000]! / 4000).toBeCloseTo(1, 1);
    expect(Math.abs(draws[18_000]! / 12_000 - 1)).toBeLessThan(0.03);
    expect(Math.abs(draws[10_000]! / 4000 - 1)).toBeLessThan(0.03);
    expect(draws.at(-1)!).toBeLessThanOrEqual(600_000);
  });

  it('pause: resolves false at once when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await pause(systemClock, 10_000, abort.signal)).toBe(false);
    expect(await pause(systemClock, 0, undefined)).toBe(true);
    // Aborted in the middle: a 10-minute pause ends at once (the test's 5 s limit would catch a wait).
    const later = new AbortController();
    const waiting = pause(systemClock, 600_000, later.signal);
    setImmediate(() => later.abort());
    expect(await waiting).toBe(false);
  });
});
