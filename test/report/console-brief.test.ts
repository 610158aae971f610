/**
 * The console's default summary fits a screen, as k6's end-of-test summary does: one line per
 * suite, the failures in full, each section only when it has something to say. `verbose`
 * (`--verbose`) draws a line per request and every section, as report.html and summary.md do.
 */
import { describe, expect, it } from 'vitest';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { buildReport, renderConsoleSummary } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/report/run-types.js';
import { failingRecord, record, run } from './fixtures.js';
import { unwrapped } from '../helpers/console-text.js';

const SUITES = ['Contacts', 'Purchases', 'Support', 'Thai', 'Images', 'CRM', 'Takeover', 'Talks', 'Portable'];

/** 9 suites x 4 scenarios x both modes, all answered and passed, each async one matched by the receiver. */
function allPass(): RequestRecord[] {
  return SUITES.flatMap((suite, s) =>
    Array.from({ length: 4 }, (_, i) => i).flatMap((i) => {
      const seq = s * 8 + i * 2;
      return [
        record({ seq, suite, scenario: `scenario ${i}`, syncMs: 20 + i }),
        record({
          seq: seq + 1,
          suite,
          scenario: `scenario ${i}`,
          mode: 'async',
          syncMs: undefined,
          requestId: `tpa-${seq}`,
          ackMs: 8,
          answerMs: 60 + i,
        }),
      ];
    }),
  );
}

/** The quick start's shape: conversations of two turns, but a turn 2 of one sample; a repeated scenario that always passed. */
function quickStart(records: RequestRecord[]) {
  const input = run(records, {
    receiver: {
      received: 36,
      matched: 36,
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
  for (let i = 0; i < 6; i++) input.latency.recordTurnMs(1, 'answer', 50 + i);
  input.latency.recordTurnMs(2, 'answer', 70);
  return buildReport(input);
}

const lines = (text: string): string[] => text.trimEnd().split('\n');
const occurrences = (text: string, word: string): number => text.split(word).length - 1;

describe('the console summary of an all-pass run', () => {
  const repeated = [0, 1, 2].map((repeat) =>
    record({ seq: 100 + repeat, suite: 'Portable', scenario: 'repeated', repeat }),
  );
  const report = quickStart([...allPass(), ...repeated]);
  const text = unwrapped(renderConsoleSummary(report));

  it('fits a screen (at most 40 lines) and names each suite once, with its counts by mode', () => {
    expect(report.summary.passed).toBe(75);
    expect(lines(text).length).toBeLessThanOrEqual(40);
    for (const suite of SUITES) expect(occurrences(text, suite), suite).toBe(1);
    expect(text).toMatch(/^ {2}✓ Contacts {4}8 passed {2}\(sync 4, async 4\)$/m);
    expect(text).toMatch(/^ {2}✓ Portable {3}11 passed {2}\(sync 7, async 4\)$/m);
    expect(text).not.toContain('›');
    expect(lines(text).at(-1)).toBe('75 passed, 0 failed (75 requests) · exit 0');
  });

  it('leaves out what has nothing to say: a quiet receiver, passing repeats, a turn 2 of one sample', () => {
    expect(text).toContain('Outcomes  answered 75');
    expect(text).toMatch(/^Latency$/m);
    expect(text).toMatch(/^Thresholds$/m);
    for (const quiet of ['Receiver', 'Pass rates', 'Latency by turn', 'Failures']) expect(text).not.toContain(quiet);
  });

  it('--verbose gives every scenario line and every section', () => {
    const verbose = renderConsoleSummary(report, { verbose: true });
    for (const s of report.scenarios)
      expect(verbose).toContain(`  ✓ ${s.suite} › ${s.name} [${s.mode}]  answered  ${s.latencyMs} ms`);
    for (const section of ['Receiver  received 36 · matched 36', 'Pass rates  0 flaky', 'Latency by turn'])
      expect(verbose).toContain(section);
    expect(lines(verbose).length).toBeGreaterThan(report.scenarios.length);
  });
});

describe('the console summary of a run with a failure', () => {
  it('expands the failure with expected, actual and where it is written, and marks its suite', () => {
    const text = renderConsoleSummary(quickStart([...allPass(), failingRecord({ seq: 200, suite: 'Purchases' })]));
    expect(text).toMatch(/^ {2}✗ Purchases {2}8 passed, 1 failed {2}\(sync 4, async 5\)$/m);
    const failure = text.slice(text.indexOf('\nFailures\n'));
    expect(failure).toContain('  1) Purchases › expects refund [async]  answered  requestId tpa-123');
    expect(failure).toContain('     intents includes: intents does not include "refund"');
    expect(failure).toContain('       expected: "refund"');
    expect(failure).toContain('       actual:   ["greeting"]');
    expect(failure).toContain('       at scenarios/shop.yaml:14:7');
    expect(lines(text).at(-1)).toBe('72 passed, 1 failed (73 requests) · exit 1');
  });

  it('shows a receiver that saw something wrong', () => {
    const input = run([record()]);
    const text = renderConsoleSummary(buildReport({ ...input, receiver: { ...input.receiver, orphans: 2 } }));
    expect(text).toContain('Receiver  received 1 · matched 1 · duplicates 0 · late 0 · orphans 2');
  });
});

describe('the console summary of a load', () => {
  it('counts each suite from the tallies and lists only the scenarios that failed, with an example', () => {
    const records = [
      ...Array.from({ length: 5 }, (_, i) => record({ seq: i })),
      ...Array.from({ length: 3 }, (_, i) => failingRecord({ seq: 5 + i })),
      record({ seq: 9, suite: 'Greetings', scenario: 'says hello' }),
    ];
    const report = buildReport({ ...run(records), kind: 'load', records: undefined, latency: new LatencyRecorder() });
    expect(report.scenarios).toEqual([]);
    const text = unwrapped(renderConsoleSummary(report));
    expect(text).toMatch(/^ {2}✗ Shop {7}5 passed, 3 failed {2}\(sync 5, async 3\)$/m);
    expect(text).toMatch(/^ {2}✓ Greetings {2}1 passed {2}\(sync 1\)$/m);
    expect(text).toContain('Scenarios that failed');
    expect(text).toMatch(
      /Shop › expects refund \[async\]\s+3\s+0\s+3\s+#5 answered: intents does not include "refund"/,
    );
    expect(text).not.toMatch(/Shop › buys shirts \[sync\]\s+5/);
    expect(renderConsoleSummary(report, { verbose: true })).toMatch(/Shop › buys shirts \[sync\]\s+5\s+5\s+0/);
  });
});
