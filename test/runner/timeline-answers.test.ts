/**
 * Answers right over time: each interval of the timeline counts the requests that ended in it
 * whose outcome passed, of those with a verdict, with the share's Wilson 95% interval; shards'
 * intervals merge by adding the counts; the console line names the worst interval.
 */
import { describe, expect, it } from 'vitest';
import { passShare } from '../../src/metrics/index.js';
import { timelineSection } from '../../src/report/sections/timeline.js';
import { MeasuredLatency, TimelineBuilder, type Timeline } from '../../src/runner/timeline.js';

/** Two 1 s intervals: 10 of 10 right, then 2 of 20 right (and an interrupted request, no verdict). */
function timeline(): Timeline {
  const b = new TimelineBuilder(new MeasuredLatency(), 0, 1000);
  for (let i = 0; i < 10; i++) b.onEnd('answered', 'passed');
  b.tick(1000, 0);
  for (let i = 0; i < 20; i++) b.onEnd('answered', i < 2 ? 'passed' : 'failed');
  b.onEnd('interrupted', 'none');
  b.tick(2000, 0);
  b.tick(3000, 0);
  return { intervalMs: 1000, points: b.points };
}

describe('answers right per interval of the timeline', () => {
  it('counts passed of judged per interval, with the Wilson interval; none in an interval without a verdict', () => {
    const [first, second, third] = timeline().points;
    expect(first!.answers).toEqual(passShare(10, 10));
    expect(second!.answers).toMatchObject({ passed: 2, judged: 20, share: 0.1 });
    expect(second!.answers!.interval.low).toBeCloseTo(0.0279, 4);
    expect(second!.answers!.interval.high).toBeCloseTo(0.301, 4);
    expect(third).not.toHaveProperty('answers');
  });

  it('merges shards interval by interval, adding the counts', () => {
    const merged = timelineSection.merge!(
      [{ timeline: timeline() }, { timeline: timeline() }],
      {} as never,
      {} as never,
    ) as {
      timeline: Timeline;
    };
    expect(merged.timeline.points[1]!.answers).toEqual(passShare(4, 40));
  });

  it('the console line names the worst interval of 10 answers or more', () => {
    const views = timelineSection.views({ kind: 'load', timeline: timeline() } as never);
    expect(String(views[0]!.summary)).toContain('answers right down to 10% (2 of 20, at 2 s)');
  });
});
