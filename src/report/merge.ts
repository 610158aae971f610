/**
 * `mergeReports(reports)`: one ReportDocument from several (shards, workers, repeated runs).
 * Histograms are added (decode, add, encode), so percentiles are those of all values, not
 * averages of percentiles; outcomes, retries, receiver counts and scenarios are summed/concatenated;
 * thresholds are judged again on the merged figures; pass rates, parity and accuracy are
 * merged by merge-sections.ts (pass-rate requirements judged again on the summed runs).
 */
import { UsageError } from '../errors.js';
import { DEFAULT_THRESHOLDS, LatencyRecorder, evaluateThresholds } from '../metrics/index.js';
import { assertOutcomesAddUp, emptyOutcomes, exitCodeFor, latencyEntries, summaryOf } from './build-report.js';
import { mergeAccuracy, mergeParity, mergePassRates } from './merge-sections.js';
import type { ReportDocument } from './report-document.js';
import { OUTCOMES, type ReceiverStats } from './run-types.js';

export interface MergeReportsOptions {
  /** More thresholds to judge; those of the inputs (other than the defaults) are judged again anyway. */
  thresholds?: readonly string[];
}

const RECEIVER_KEYS: readonly (keyof ReceiverStats)[] = ['received', 'matched', 'duplicates', 'late', 'orphans', 'foreign', 'badSecret', 'malformed', 'published', 'unavailable'];

/**
 * Merges `reports` (at least one; UsageError DROIDCHECK_ERR_USAGE otherwise). startedAt is the
 * earliest, finishedAt the latest, durationMs the wall span between them (ms). Settings are the
 * first report's plus `mergedReports: N` (and `shard`: every input's `settings.shard`). Exit code: 130 when any input was interrupted, else
 * from the merged failures and thresholds. Throws ThresholdError for a bad threshold.
 */
export function mergeReports(reports: readonly ReportDocument[], opts: MergeReportsOptions = {}): ReportDocument {
  const first = reports[0];
  if (!first) throw new UsageError('mergeReports needs at least one report');
  const recorder = new LatencyRecorder();
  const outcomes = emptyOutcomes();
  const receiver = Object.fromEntries(RECEIVER_KEYS.map((k) => [k, 0])) as unknown as ReceiverStats;
  let requests = 0;
  let scenarios = 0;
  let passed = 0;
  let retries = 0;
  for (const r of reports) {
    recorder.merge(LatencyRecorder.fromEncoded(r.histograms));
    for (const o of OUTCOMES) outcomes[o] += r.summary.outcomes[o];
    for (const k of RECEIVER_KEYS) receiver[k] += r.receiver[k];
    requests += r.summary.requests;
    scenarios += r.summary.scenarios;
    passed += r.summary.passed;
    retries += r.summary.retries ?? 0;
  }
  const summary = summaryOf(requests, outcomes, scenarios, passed, retries);
  assertOutcomesAddUp(summary);
  const latency = latencyEntries(recorder);
  const histograms = recorder.encodeAll();
  const defaults = new Set(DEFAULT_THRESHOLDS);
  const expressions = [
    ...new Set([...reports.flatMap((r) => r.thresholds.map((t) => t.expression)), ...(opts.thresholds ?? [])]),
  ].filter((e) => !defaults.has(e));
  const thresholds = evaluateThresholds(expressions, { summary, latency, receiver, histograms }, { defaults: true });
  const starts = reports.map((r) => Date.parse(r.startedAt)).filter(Number.isFinite);
  const ends = reports.map((r) => Date.parse(r.finishedAt)).filter(Number.isFinite);
  const startedAt = starts.length > 0 ? new Date(Math.min(...starts)).toISOString() : first.startedAt;
  const finishedAt = ends.length > 0 ? new Date(Math.max(...ends)).toISOString() : first.finishedAt;
  const durationMs = starts.length > 0 && ends.length > 0 ? Math.max(0, Math.max(...ends) - Math.min(...starts)) : first.durationMs;
  const passRates = mergePassRates(reports.map((r) => r.passRates));
  const parity = mergeParity(reports.map((r) => r.parity));
  const accuracy = mergeAccuracy(reports.map((r) => r.accuracy));
  const shards = reports.map((r) => r.settings.shard).filter((s) => s !== undefined);
  return {
    version: 1,
    tool: 'droidcheck',
    startedAt,
    finishedAt,
    durationMs,
    settings: { ...first.settings, mergedReports: reports.length, ...(shards.length > 0 && { shard: shards }) },
    summary,
    latency,
    histograms,
    receiver,
    thresholds,
    scenarios: reports.flatMap((r) => r.scenarios),
    ...(passRates && { passRates }),
    ...(parity && { parity }),
    ...(accuracy && { accuracy }),
    exitCode: exitCodeFor({
      interrupted: reports.some((r) => r.exitCode === 130),
      failed: summary.failed,
      thresholds,
      ...(passRates && { passRatesPassed: passRates.passed }),
    }),
  };
}
