/**
 * `mergeReports(reports)`: one ReportDocument from several (shards, workers, repeated runs).
 * Histograms are added (decode, add, encode), so percentiles are those of all values, not
 * averages of percentiles; outcomes, retries, receiver counts, tallies and scenarios are
 * summed or concatenated; timelines are merged interval by interval (counts added, interval
 * histograms added); thresholds are judged again on the merged figures; pass rates, parity and
 * accuracy are merged by merge-sections.ts, the load and stream sections of shards by
 * merge-load.ts.
 */
import * as hdr from 'hdr-histogram-js';
import { UsageError } from '../errors.js';
import { DEFAULT_THRESHOLDS, LOAD_DEFAULT_THRESHOLDS, LATENCY_METRICS, LatencyRecorder, REMOTE_DEFAULT_THRESHOLDS, evaluateThresholds, summarizeHistogram } from '../metrics/index.js';
import { zeroOutcomes } from '../outcomes.js';
import { exitCodeFor, latencyEntries } from './build-report.js';
import { mergeLoadSections, mergeStreamSections } from './merge-load.js';
import { mergeAccuracy, mergeParity, mergePassRates } from './merge-sections.js';
import type { ReportDocument, ReportSummary } from './report-document.js';
import { OUTCOMES, type ReceiverStats, type ScenarioTally, type Timeline, type TimelinePoint } from './run-types.js';

export interface MergeReportsOptions {
  /** More thresholds to judge; those of the inputs (other than the defaults) are judged again anyway. */
  thresholds?: readonly string[];
}

const RECEIVER_KEYS = ['received', 'matched', 'duplicates', 'late', 'orphans', 'foreign', 'badSecret', 'malformed', 'published', 'unavailable'] as const;

function mergeSummaries(reports: readonly ReportDocument[]): ReportSummary {
  const outcomes = zeroOutcomes();
  let requests = 0;
  let sent = 0;
  let scenarios = 0;
  let passed = 0;
  let failed = 0;
  let retries = 0;
  for (const r of reports) {
    for (const o of OUTCOMES) outcomes[o] += r.summary.outcomes[o] ?? 0;
    requests += r.summary.requests;
    sent += r.summary.sent ?? r.summary.requests;
    scenarios += r.summary.scenarios;
    passed += r.summary.passed;
    failed += r.summary.failed;
    retries += r.summary.retries ?? 0;
  }
  return { requests, sent, outcomes, scenarios, passed, failed, passRate: scenarios === 0 ? 1 : passed / scenarios, retries };
}

function mergeTallies(reports: readonly ReportDocument[]): ScenarioTally[] | undefined {
  if (!reports.some((r) => r.tallies)) return undefined;
  const byKey = new Map<string, ScenarioTally>();
  for (const t of reports.flatMap((r) => r.tallies ?? [])) {
    const key = JSON.stringify([t.suite, t.name, t.mode]);
    const m = byKey.get(key);
    if (!m) {
      byKey.set(key, { ...t, outcomes: { ...zeroOutcomes(), ...t.outcomes }, examples: [...t.examples] });
      continue;
    }
    m.requests += t.requests;
    m.passed += t.passed;
    m.failed += t.failed;
    for (const o of OUTCOMES) m.outcomes[o] += t.outcomes[o] ?? 0;
    m.examples.push(...t.examples.slice(0, Math.max(0, 3 - m.examples.length)));
  }
  return [...byKey.values()];
}

/** Interval i of every timeline is added to interval i of the merge (shards started together: `--start-at`). */
export function mergeTimelines(timelines: readonly Timeline[]): Timeline | undefined {
  if (timelines.length === 0) return undefined;
  const intervalMs = timelines[0]!.intervalMs;
  const points: TimelinePoint[] = [];
  const n = Math.max(...timelines.map((t) => t.points.length));
  for (let i = 0; i < n; i++) {
    const parts = timelines.map((t) => t.points[i]).filter((p): p is TimelinePoint => p !== undefined);
    const first = parts[0]!;
    const point: TimelinePoint = { t: Math.max(...parts.map((p) => p.t)), durationS: Math.max(...parts.map((p) => p.durationS)), started: 0, ended: 0, inFlight: 0, maxInFlight: 0, outcomes: {} };
    for (const p of parts) {
      point.started += p.started;
      point.ended += p.ended;
      point.inFlight += p.inFlight;
      point.maxInFlight += p.maxInFlight;
      for (const [o, c] of Object.entries(p.outcomes)) point.outcomes[o as keyof typeof point.outcomes] = (point.outcomes[o as keyof typeof point.outcomes] ?? 0) + (c ?? 0);
    }
    if (parts.some((p) => p.targetRate !== undefined)) point.targetRate = parts.reduce((s, p) => s + (p.targetRate ?? 0), 0);
    for (const m of LATENCY_METRICS) {
      const withM = parts.filter((p) => p[m] !== undefined);
      if (withM.length === 0) continue;
      const h = LatencyRecorder.decode(withM[0]![m]!.histogram);
      for (const p of withM.slice(1)) h.add(LatencyRecorder.decode(p[m]!.histogram));
      const s = summarizeHistogram(h);
      point[m] = { count: s.count, p50: s.p50, p99: s.p99, max: s.max, histogram: hdr.encodeIntoCompressedBase64(h) };
    }
    void first;
    points.push(point);
  }
  return { intervalMs, points };
}

/**
 * Merges `reports` (at least one; UsageError DROIDCHECK_ERR_USAGE otherwise). startedAt is the
 * earliest, finishedAt the latest, durationMs the wall span between them (ms). Settings are the
 * first report's plus `mergedReports: N` (and `shard`: every input's `settings.shard`). Exit
 * code: 130 when any input was interrupted, else from the merged failures and thresholds.
 * Throws ThresholdError for a bad threshold.
 */
export function mergeReports(reports: readonly ReportDocument[], opts: MergeReportsOptions = {}): ReportDocument {
  const first = reports[0];
  if (!first) throw new UsageError('mergeReports needs at least one report');
  const kinds = new Set(reports.map((r) => r.kind ?? 'run'));
  if (kinds.size > 1) throw new UsageError(`merge: the reports are of different kinds (${[...kinds].join(', ')}); merge reports of one command`);
  const recorder = new LatencyRecorder();
  const receiver = Object.fromEntries(RECEIVER_KEYS.map((k) => [k, 0])) as unknown as ReceiverStats & { foreign: number };
  for (const r of reports) {
    recorder.merge(LatencyRecorder.fromEncoded(r.histograms));
    for (const k of RECEIVER_KEYS) receiver[k] += (r.receiver as unknown as Record<string, number>)[k] ?? 0;
  }
  const summary = mergeSummaries(reports);
  // Remote targets (a `network` section): the acknowledgement is judged on ackServer, as each input was.
  const ackBasis = first.network ? 'ackServer' : 'ack';
  const latency = latencyEntries(recorder, ackBasis);
  const histograms = recorder.encodeAll();
  const defaults = new Set([...DEFAULT_THRESHOLDS, ...REMOTE_DEFAULT_THRESHOLDS, ...LOAD_DEFAULT_THRESHOLDS]);
  // The shards' arrivals together: the dropped share is judged on the whole load.
  const arrivals = reports.every((r) => r.load) ? { sent: reports.reduce((n, r) => n + r.load!.sent, 0), dropped: reports.reduce((n, r) => n + r.load!.dropped, 0) } : undefined;
  const expressions = [...new Set([...reports.flatMap((r) => r.thresholds.map((t) => t.expression)), ...(opts.thresholds ?? [])])].filter((e) => !defaults.has(e));
  const kind = first.kind ?? 'run';
  const defaultsOn = kind !== 'capacity' && first.settings.defaultThresholds !== false;
  const thresholds = evaluateThresholds(expressions, { summary, latency, receiver, histograms, ...(arrivals && { load: arrivals }) }, { defaults: defaultsOn, ackBasis });
  const starts = reports.map((r) => Date.parse(r.startedAt)).filter(Number.isFinite);
  const ends = reports.map((r) => Date.parse(r.finishedAt)).filter(Number.isFinite);
  const startedAt = starts.length > 0 ? new Date(Math.min(...starts)).toISOString() : first.startedAt;
  const finishedAt = ends.length > 0 ? new Date(Math.max(...ends)).toISOString() : first.finishedAt;
  const durationMs = starts.length > 0 && ends.length > 0 ? Math.max(0, Math.max(...ends) - Math.min(...starts)) : first.durationMs;
  const passRates = mergePassRates(reports.map((r) => r.passRates));
  const parity = mergeParity(reports.map((r) => r.parity));
  const accuracy = mergeAccuracy(reports.map((r) => r.accuracy));
  const tallies = mergeTallies(reports);
  const timeline = mergeTimelines(reports.flatMap((r) => (r.timeline ? [r.timeline] : [])));
  const load = mergeLoadSections(reports.map((r) => r.load), summary.outcomes.answered);
  const stream = mergeStreamSections(reports);
  const shards = reports.map((r) => r.settings.shard).filter((s) => s !== undefined);
  const accounting = reports.every((r) => r.accounting)
    ? reports.reduce(
        (a, r) => ({
          requests: a.requests + r.accounting!.requests,
          sent: a.sent + r.accounting!.sent,
          notSent: a.notSent + r.accounting!.notSent,
          outcomes: a.outcomes + r.accounting!.outcomes,
          webhooks: { received: a.webhooks.received + r.accounting!.webhooks.received, classified: a.webhooks.classified + r.accounting!.webhooks.classified },
        }),
        { requests: 0, sent: 0, notSent: 0, outcomes: 0, webhooks: { received: 0, classified: 0 } },
      )
    : undefined;
  const notes = reports.flatMap((r) => r.notes ?? []).filter((n, i, all) => all.findIndex((m) => m.endpoint === n.endpoint && m.kind === n.kind) === i);
  return {
    version: 1,
    tool: 'droidcheck',
    kind,
    startedAt,
    finishedAt,
    durationMs,
    settings: { ...first.settings, mergedReports: reports.length, ...(shards.length > 0 && { shard: shards }) },
    summary,
    ...(accounting && { accounting }),
    ...(first.network && { network: first.network }),
    latency,
    histograms,
    receiver,
    thresholds,
    scenarios: reports.flatMap((r) => r.scenarios),
    ...(tallies && { tallies }),
    ...(notes.length > 0 && { notes }),
    ...(passRates && { passRates }),
    ...(parity && { parity }),
    ...(accuracy && { accuracy }),
    ...(load && { load }),
    ...(timeline && { timeline }),
    ...(stream && { stream }),
    exitCode: exitCodeFor({
      interrupted: reports.some((r) => r.exitCode === 130),
      failed: summary.failed,
      thresholds,
      ...(passRates && { passRatesPassed: passRates.passed }),
    }),
  };
}
