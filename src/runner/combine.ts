/**
 * Several engine results as one (the capacity search runs the engine once per rate): tallies
 * and counts added (the bursts' too), latency histograms merged, timelines placed one after the other (each
 * point's `t` shifted by the length of the runs before it), notes de-duplicated per endpoint.
 * The per-scenario tallies and the notes merge with the same functions `droidcheck merge` uses
 * (outcomes.ts), so a capacity search and a merged shard report count alike.
 */
import { LatencyRecorder, mergeBurstFigures } from '../metrics/index.js';
import { mergeOutcomeTallies, uniqueNotes, zeroOutcomes, type Outcome } from '../outcomes.js';
import type { EngineResult } from './engine-types.js';
import { SendDelayRecorder } from './send-delay.js';
import type { TimelinePoint } from './timeline.js';

export function combineResults(results: readonly EngineResult[]): EngineResult {
  const first = results[0];
  if (!first) throw new Error('combineResults: nothing to combine');
  const latency = new LatencyRecorder();
  const outcomes = zeroOutcomes();
  const points: TimelinePoint[] = [];
  const sendDelay = new SendDelayRecorder();
  let offsetS = 0;
  const sum = {
    requests: 0,
    sent: 0,
    passed: 0,
    failed: 0,
    judgeErrors: 0,
    notJudged: 0,
    retries: 0,
    contractViolations: 0,
    cSent: 0,
    warm: 0,
    dropped: 0,
    notSent: 0,
    measuredMs: 0,
    durationMs: 0,
  };
  for (const r of results) {
    latency.merge(r.latency);
    if (r.sendDelay) sendDelay.merge(r.sendDelay);
    const t = r.tally;
    sum.requests += t.requests;
    sum.sent += t.sent;
    sum.passed += t.passed;
    sum.failed += t.failed;
    sum.judgeErrors += t.judgeErrors;
    sum.notJudged += t.notJudged;
    sum.retries += t.retries;
    sum.contractViolations += t.contractViolations;
    sum.cSent += r.counts.sent;
    sum.warm += r.counts.warmupSent;
    sum.dropped += r.counts.dropped;
    sum.notSent += r.counts.notSent;
    sum.measuredMs += r.measuredMs;
    sum.durationMs += r.durationMs;
    for (const o of Object.keys(outcomes) as Outcome[]) outcomes[o] += t.outcomes[o];
    for (const p of r.timeline.points) points.push({ ...p, t: Math.round((p.t + offsetS) * 1000) / 1000 });
    offsetS += r.durationMs / 1000;
  }
  const notes = uniqueNotes(results.flatMap((r) => r.notes));
  const bursts = mergeBurstFigures(results.map((r) => r.tally.bursts));
  const last = results[results.length - 1]!;
  return {
    model: first.model,
    startedAt: first.startedAt,
    finishedAt: last.finishedAt,
    durationMs: sum.durationMs,
    measuredMs: sum.measuredMs,
    planned: undefined,
    records: results.every((r) => r.records) ? results.flatMap((r) => r.records ?? []) : undefined,
    tally: {
      requests: sum.requests,
      sent: sum.sent,
      outcomes,
      passed: sum.passed,
      failed: sum.failed,
      judgeErrors: sum.judgeErrors,
      notJudged: sum.notJudged,
      retries: sum.retries,
      contractViolations: sum.contractViolations,
      scenarios: mergeOutcomeTallies(results.map((r) => r.tally.scenarios)),
      ...(bursts && { bursts }),
    },
    latency,
    sendDelay: results.some((r) => r.sendDelay) ? sendDelay : undefined,
    timeline: { intervalMs: first.timeline.intervalMs, points },
    counts: { sent: sum.cSent, warmupSent: sum.warm, dropped: sum.dropped, notSent: sum.notSent },
    interrupted: results.some((r) => r.interrupted),
    setupFailure: results.find((r) => r.setupFailure)?.setupFailure,
    notes,
  };
}
