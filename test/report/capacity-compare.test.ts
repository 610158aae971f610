/**
 * Two capacity reports compared: whether the knee (every criterion, answers right included) and
 * the latency-only capacity moved, said in the comparison and never a regression by itself; and
 * the capacity chart's series (% right with its interval, latency on its own axis).
 */
import { describe, expect, it } from 'vitest';
import { capacityChartData } from '../../src/report/html-charts.js';
import type { CapacityPoint, CapacitySection, ReportDocument } from '../../src/report/index.js';
import { compareKnees, kneeNotes } from '../../src/report/sections/capacity-compare.js';

const point = (rate: number, passed: number, judged: number, latencyPassed = true): CapacityPoint => ({
  rate,
  achievedRate: rate,
  sent: judged,
  dropped: 0,
  errors: 0,
  errorRate: 0,
  ack: { count: 0, p50: 0, p99: 0 },
  answer: { count: 0, p50: 0, p99: 0 },
  sync: { count: judged, p50: 200, p99: 210 },
  generatorBound: false,
  sendDelayP99Ms: 0,
  answers: { passed, judged, share: passed / judged, interval: { low: 0.5, high: 1 }, judgedOn: 'point' },
  latencyPassed,
  passed: latencyPassed && passed === judged,
  reasons: [],
});

const section = (maxRate: number | null, latencyMaxRate: number | null, ended: string[]): CapacitySection => ({
  maxRate,
  firstFailingRate: null,
  limitedBySearch: false,
  suspect: false,
  criteria: { ackP99Ms: 100, answerP99Ms: null, maxErrorRate: 0.01, minPassRate: 0.99 },
  endedBy: ended.length > 0 ? { rate: 30, criteria: ended as ['answers'], reasons: [] } : null,
  latencyOnly: { maxRate: latencyMaxRate, firstFailingRate: null, limitedBySearch: false },
  curve: [point(10, 50, 50), point(20, 17, 100), point(30, 1, 150)],
});

describe('compare of two capacity reports', () => {
  it('says the knee moved down while the latency-only capacity held', () => {
    const k = compareKnees({ capacity: section(40, 60, ['latency']) }, { capacity: section(10, 60, ['answers']) })!;
    expect(k).toMatchObject({ moved: 'down', latencyMoved: 'same' });
    expect(kneeNotes(k)).toEqual([
      'the knee (answers right and latency held) moved down: 40 req/s -> 10 req/s (ended by answers)',
      'the latency-only capacity did not move: 60 req/s',
    ]);
  });

  it('a report without a passing rate is below every rate; an older report (latency only) compares as its capacity', () => {
    const old = section(40, null, []);
    delete old.latencyOnly;
    const k = compareKnees({ capacity: old }, { capacity: section(null, 50, ['answers']) })!;
    expect(k).toMatchObject({ moved: 'down', latencyMoved: 'up' });
    expect(k.base.latencyMaxRate).toBe(40);
    expect(kneeNotes(k)[0]).toBe(
      'the knee (answers right and latency held) moved down: 40 req/s -> no rate (ended by answers)',
    );
  });

  it('says nothing unless both reports are capacity searches', () => {
    expect(compareKnees({}, { capacity: section(10, 60, []) })).toBeUndefined();
    expect(kneeNotes(undefined)).toEqual([]);
  });
});

describe('the capacity chart', () => {
  it('gives % right with its interval on one axis and the latency on another', () => {
    const data = capacityChartData({ capacity: section(10, 60, ['answers']) } as ReportDocument)!;
    expect(data.rate).toEqual([10, 20, 30]);
    expect(data.rightPct).toEqual([100, 17, 0.7]);
    expect(data.rightLowPct).toEqual([50, 50, 50]);
    expect(data.minPct).toBe(99);
    // 50 samples support no p99: the median stands in, as the label says; 100 and more give the p99.
    expect(data.latencyP99).toEqual([200, 210, 210]);
    expect(data.latencyLabel).toBe('sync p99 (p50 below 100 samples), ms');
  });
});
