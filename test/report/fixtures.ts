/**
 * Builders of RequestRecord / RunResult for report tests.
 */
import { LatencyRecorder } from '../../src/metrics/index.js';
import type { RequestRecord, RunResult } from '../../src/report/run-types.js';

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
    unknownFields: [],
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

export function run(records: RequestRecord[], over: Partial<RunResult> = {}): RunResult {
  const latency = new LatencyRecorder();
  for (const r of records) {
    if (r.syncMs !== undefined) latency.recordMs('sync', r.syncMs);
    if (r.ackMs !== undefined) latency.recordMs('ack', r.ackMs);
    if (r.answerMs !== undefined && r.outcome === 'answered') latency.recordMs('answer', r.answerMs);
  }
  return {
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:00:02.000Z',
    durationMs: 2000,
    settings: { mode: 'both', concurrency: 4 },
    records,
    latency,
    receiver: { received: 1, matched: 1, duplicates: 0, late: 0, orphans: 0, foreign: 0, badSecret: 0, malformed: 0, published: 0, unavailable: 0 },
    interrupted: false,
    ...over,
  };
}
