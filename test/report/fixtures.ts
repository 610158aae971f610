/**
 * Builders of RequestRecord / report inputs for report tests.
 */
import { LatencyRecorder } from '../../src/metrics/index.js';
import { mulberry32 } from '../../src/random.js';
import type { ReportInput } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { Tally } from '../../src/runner/index.js';

export function record(over: Partial<RequestRecord> = {}): RequestRecord {
  return {
    seq: 0,
    suite: 'Shop',
    scenario: 'buys shirts',
    file: 'scenarios/shop.yaml',
    mode: 'sync',
    outcome: 'answered',
    passed: true,
    startedAt: '2025-01-01T00:00:00.000Z',
    syncMs: 120,
    failures: [],
    contractViolations: [],
    ...over,
  };
}

export const failingRecord = (over: Partial<RequestRecord> = {}): RequestRecord =>
  record({
    seq: 1,
    scenario: 'expects refund',
    mode: 'async',
    requestId: 'tpa-123',
    ackMs: 12,
    answerMs: 340,
    syncMs: undefined,
    passed: false,
    failures: [
      {
        path: 'intents',
        matcher: 'includes',
        expected: 'refund',
        actual: ['greeting'],
        message: 'intents does not include "refund"',
        location: { file: 'scenarios/shop.yaml', line: 14, col: 7 },
      },
    ],
    ...over,
  });

/** The input `droidcheck run` would give buildReport for `records` (latencies from the records). */
export function run(records: RequestRecord[], over: Partial<ReportInput> = {}): ReportInput {
  const latency = new LatencyRecorder();
  const tally = new Tally();
  for (const r of records) {
    tally.add(r);
    if (r.syncMs !== undefined) latency.recordMs('sync', r.syncMs);
    if (r.ackMs !== undefined) latency.recordMs('ack', r.ackMs);
    if (r.answerMs !== undefined && r.outcome === 'answered') latency.recordMs('answer', r.answerMs);
  }
  return {
    kind: 'run',
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:00:02.000Z',
    durationMs: 2000,
    settings: { mode: 'both', concurrency: 4 },
    tally: tally.snapshot(),
    records,
    latency,
    receiver: {
      received: 1,
      matched: 1,
      duplicates: 0,
      late: 0,
      orphans: 0,
      foreign: 0,
      badSecret: 0,
      malformed: 0,
      published: 0,
      unavailable: 0,
    },
    interrupted: false,
    ...over,
  };
}

/** A log-normal draw around `median` (ms) with spread `sigma` (of the log), from a seeded source. */
export function logNormal(random: () => number, median: number, sigma: number): number {
  const u = Math.max(random(), 1e-12);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(sigma * z);
}

/**
 * A run of `n` scenarios in both modes with latencies drawn (seeded) from one distribution:
 * ack ~2 ms (the first two requests open connections: +15..35 ms), answer ~35 ms, sync ~30 ms,
 * every latency times `slowdown`. Records carry the latencies, so buildReport's histograms are real.
 */
export function latencyRun(seed: number, n: number, slowdown = 1): ReportInput {
  const random = mulberry32(seed);
  const records: RequestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const cold = i < 2 ? 15 + 20 * random() : 0;
    const ackMs = (cold + logNormal(random, 2, 0.3)) * slowdown;
    const answerMs = logNormal(random, 35, 0.6) * slowdown;
    const syncMs = logNormal(random, 30, 0.6) * slowdown;
    records.push(
      record({ seq: 2 * i, scenario: `s${i}`, mode: 'async', syncMs: undefined, ackMs, answerMs, requestId: `r${i}` }),
      record({ seq: 2 * i + 1, scenario: `s${i}`, mode: 'sync', syncMs }),
    );
  }
  return run(records, {
    receiver: {
      received: n,
      matched: n,
      duplicates: 0,
      late: 0,
      orphans: 0,
      foreign: 0,
      badSecret: 0,
      malformed: 0,
      published: 0,
      unavailable: 0,
    },
  });
}
