/**
 * Builders of RequestRecord / report inputs for report tests.
 */
import { LatencyRecorder } from '../../src/metrics/index.js';
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
    receiver: { received: 1, matched: 1, duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    interrupted: false,
    ...over,
  };
}
