/**
 * The byTurn section: computed from the per-turn histograms, merged by adding them (shards), read
 * back through the report schema, and shown as a turn x metric table whose p99 needs 100 samples.
 */
import { describe, expect, it } from 'vitest';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { buildReport, mergeReports, parseReportDocument } from '../../src/report/index.js';
import { SECTIONS } from '../../src/report/sections/index.js';
import { consoleLines, plainPaint, type SectionView } from '../../src/report/view.js';
import { record, run } from './fixtures.js';

/** A report of `n` 2-turn async conversations: turn 1 answers in `first` ms, turn 2 in `second` ms (+ i ms). */
function talks(n: number, first: number, second: number) {
  const input = run([record()]);
  const latency = new LatencyRecorder();
  for (let i = 0; i < n; i++) {
    latency.recordTurnMs(1, 'answer', first + i);
    latency.recordTurnMs(1, 'ack', 2);
    latency.recordTurnMs(2, 'answer', second + i);
    latency.recordTurnMs(2, 'ack', 2);
  }
  return buildReport({ ...input, latency }, { thresholds: ['turn2.answer.p99 < 1s'] });
}

const byTurnLines = (doc: object): string[] =>
  SECTIONS.find((s) => s.name === 'byTurn')!
    .views(doc)
    .flatMap((v) => consoleLines(v, plainPaint));

describe('byTurn', () => {
  it('is on the console by default only when a later turn has the 10 samples a p90 needs', () => {
    const brief = (doc: object): SectionView[] => SECTIONS.find((s) => s.name === 'byTurn')!.brief!(doc);
    expect(brief(talks(9, 100, 800))).toEqual([]);
    expect(brief(talks(10, 100, 800)).map((v) => v.title)).toEqual(['Latency by turn']);
    // Only turn 1 (scenarios of one say): the run-wide table again.
    const latency = new LatencyRecorder();
    for (let i = 0; i < 200; i++) latency.recordTurnMs(1, 'answer', 100 + i);
    const oneTurn = buildReport({ ...run([record()]), latency });
    expect(brief(oneTurn)).toEqual([]);
    expect(byTurnLines(oneTurn).length).toBeGreaterThan(0);
  });

  it('writes each turn that had samples, only its metrics, and reads back', () => {
    const doc = talks(60, 100, 800);
    expect(Object.keys(doc.byTurn!)).toEqual(['1', '2']);
    expect(Object.keys(doc.byTurn!['2']!)).toEqual(['answer', 'ack']);
    expect(doc.byTurn!['2']!.answer).toMatchObject({ count: 60 });
    expect(doc.byTurn!['2']!.answer!.max).toBeCloseTo(859, -1);
    expect(() => parseReportDocument(JSON.parse(JSON.stringify(doc)))).not.toThrow();
    expect(buildReport(run([record()])).byTurn).toBeUndefined();
    // 60 samples: a p99 is not shown, nor judged.
    expect(byTurnLines(doc).find((l) => /^\s+2\s+answer/.test(l))).toMatch(
      /^\s+2\s+answer\s+60\s+\S+ ms\s+\S+ ms\s+—\s+\S+ ms$/,
    );
    expect(doc.thresholds.find((t) => t.metric === 'turn2.answer.p99')!.status).toBe('too-few-samples');
  });

  it('merges by adding histograms: the p99 of the union, judged again', () => {
    const merged = mergeReports([talks(60, 100, 800), talks(60, 100, 1200)]);
    expect(merged.byTurn!['2']!.answer!.count).toBe(120);
    expect(merged.byTurn!['1']!.ack!.count).toBe(120);
    // The union's p99 is among the slow shard's values (1,200 ms and up): a breach now.
    expect(merged.byTurn!['2']!.answer!.p99).toBeGreaterThan(1200);
    expect(merged.thresholds.find((t) => t.metric === 'turn2.answer.p99')).toMatchObject({
      status: 'breached',
      count: 120,
    });
    expect(merged.exitCode).toBe(99);
    expect(byTurnLines(merged).find((l) => /^\s+2\s+answer/.test(l))).toMatch(/\s120\s.*\s1\.\d+ s\s+1\.\d+ s$/);
  });
});
