/**
 * `buildReport(run)`: computes the ReportDocument of a run (compute first, render second).
 * Outcomes are counted for every outcome name, thresholds judged (the spec's limits by
 * default, see metrics/thresholds.ts) and the exit code decided (DESIGN.md, Conventions).
 */
import { EXIT, InternalError } from '../errors.js';
import {
  LATENCY_METRICS,
  LIMITS_MS,
  evaluateThresholds,
  type LatencyMetric,
  type LatencyRecorder,
  type ThresholdResult,
} from '../metrics/index.js';
import type { Suite } from '../scenario/index.js';
import { computeAccuracy } from './accuracy.js';
import { compareReports, type CompareOptions } from './compare.js';
import { computeParity } from './parity.js';
import { computePassRates } from './pass-rates.js';
import type { LatencyEntry, ReportDocument, ReportSummary, ScenarioEntry } from './report-document.js';
import { OUTCOMES, type Outcome, type RequestRecord, type RunResult } from './run-types.js';

export interface BuildReportOptions {
  /** User thresholds, e.g. `["ack.p99 < 100ms"]`; the spec's limits are always added. */
  thresholds?: readonly string[];
  /**
   * The suites that were planned: their `passRate`/`minPasses` requirements and expectations.
   * Without them every run must pass and `accuracy` is left out.
   */
  suites?: readonly Suite[];
  /** A baseline report (`--baseline`): the result is compared with it (`comparison`). */
  baseline?: ReportDocument;
  /** Tolerances of the comparison (compare.ts). */
  compare?: CompareOptions;
}

const SECRET_KEY = /token|secret|password|authorization|api[-_]?key/i;

/** Copies `settings`, replacing the value of any key that names a secret with `[redacted]`. */
export function redactSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (SECRET_KEY.test(key)) out[key] = '[redacted]';
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = redactSettings(value as Record<string, unknown>);
    else out[key] = value;
  }
  return out;
}

/** A zero count for every outcome name. */
export function emptyOutcomes(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

/**
 * Counts outcomes and passes. Throws InternalError (DROIDCHECK_ERR_INTERNAL) when a record
 * has an unknown outcome or the outcome counts do not add up to the requests.
 */
export function summarizeRecords(records: readonly RequestRecord[]): ReportSummary {
  const outcomes = emptyOutcomes();
  let passed = 0;
  let retries = 0;
  for (const r of records) {
    if (!(r.outcome in outcomes)) {
      throw new InternalError(`record #${r.seq} (${r.suite} / ${r.scenario} [${r.mode}]) has an unknown outcome "${String(r.outcome)}"`);
    }
    outcomes[r.outcome] += 1;
    if (r.passed) passed += 1;
    retries += r.retries ?? 0;
  }
  const summary = summaryOf(records.length, outcomes, records.length, passed, retries);
  assertOutcomesAddUp(summary);
  return summary;
}

/** The summary from its counts; `retries` (submit retries, `--retries`) is 0 unless given. */
export function summaryOf(requests: number, outcomes: Record<Outcome, number>, scenarios: number, passed: number, retries = 0): ReportSummary {
  return { requests, outcomes, scenarios, passed, failed: scenarios - passed, passRate: scenarios === 0 ? 1 : passed / scenarios, retries };
}

/** The invariant of DESIGN.md, Measurements: every request ends in exactly one outcome. */
export function assertOutcomesAddUp(summary: ReportSummary): void {
  const total = Object.values(summary.outcomes).reduce((a, b) => a + b, 0);
  if (total !== summary.requests) {
    throw new InternalError(`outcomes add up to ${total}, but ${summary.requests} requests were sent`);
  }
}

/** Summary (ms) of each metric with the spec's limit; withinLimit when empty or max < limit. */
export function latencyEntries(recorder: LatencyRecorder): Record<LatencyMetric, LatencyEntry> {
  const entry = (m: LatencyMetric): LatencyEntry => {
    const s = recorder.summary(m);
    return { ...s, limitMs: LIMITS_MS[m], withinLimit: s.count === 0 || s.max < LIMITS_MS[m] };
  };
  return { ack: entry('ack'), answer: entry('answer'), sync: entry('sync') };
}

export function scenarioEntry(r: RequestRecord): ScenarioEntry {
  const latencyMs = r.mode === 'sync' ? r.syncMs : r.answerMs;
  return {
    suite: r.suite,
    name: r.scenario,
    file: r.file,
    mode: r.mode,
    outcome: r.outcome,
    passed: r.passed,
    ...(r.requestId !== undefined ? { requestId: r.requestId } : {}),
    ...(latencyMs !== undefined ? { latencyMs: Math.round(latencyMs * 1000) / 1000 } : {}),
    ...(r.retries !== undefined && r.retries > 0 ? { retries: r.retries } : {}),
    failures: r.failures,
    contractViolations: r.contractViolations,
    ...(r.error ? { error: r.error } : {}),
  };
}

export interface ExitCodeInput {
  interrupted: boolean;
  /** Failed scenario entries; decides exit 1 when `passRatesPassed` is not given. */
  failed: number;
  thresholds: readonly ThresholdResult[];
  /** Every scenario and suite met its pass-rate requirement (pass-rates.ts); wins over `failed`. */
  passRatesPassed?: boolean;
  /** The comparison with a baseline regressed. */
  regressed?: boolean;
}

/**
 * 130 interrupted; else 99 a threshold breached; else 1 a pass-rate requirement missed (or,
 * without pass rates, a scenario failed) or a baseline regression; else 0 (DESIGN.md, Conventions).
 */
export function exitCodeFor(input: ExitCodeInput): number {
  if (input.interrupted) return EXIT.INTERRUPTED;
  if (input.thresholds.some((t) => !t.passed)) return EXIT.THRESHOLD_BREACHED;
  const failed = input.passRatesPassed === undefined ? input.failed > 0 : !input.passRatesPassed;
  if (failed || input.regressed) return EXIT.EXPECTATION_FAILED;
  return EXIT.OK;
}

/**
 * Computes the {@link ReportDocument} of `run`. Thresholds: the spec's limits (judged when
 * their metric has values) plus `opts.thresholds`. Pass rates (with `opts.suites`' requirements),
 * parity, accuracy (only with `opts.suites`) and the comparison with `opts.baseline` are added. Throws ThresholdError (DROIDCHECK_ERR_THRESHOLD)
 * for a bad threshold and InternalError (DROIDCHECK_ERR_INTERNAL) when outcomes do not add up.
 */
export function buildReport(run: RunResult, opts: BuildReportOptions = {}): ReportDocument {
  const summary = summarizeRecords(run.records);
  const latency = latencyEntries(run.latency);
  const histograms = Object.fromEntries(LATENCY_METRICS.map((m) => [m, run.latency.encode(m)])) as Record<LatencyMetric, string>;
  const receiver = { ...run.receiver };
  const thresholds = evaluateThresholds(opts.thresholds ?? [], { summary, latency, receiver, histograms }, { defaults: true });
  const passRates = computePassRates(run.records, opts.suites ?? []);
  const report: ReportDocument = {
    version: 1,
    tool: 'droidcheck',
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: run.durationMs,
    settings: redactSettings(run.settings),
    summary,
    latency,
    histograms,
    receiver,
    thresholds,
    scenarios: run.records.map(scenarioEntry),
    passRates,
    parity: computeParity(run.records),
    ...(opts.suites ? { accuracy: computeAccuracy(run.records, opts.suites) } : {}),
    exitCode: 0,
  };
  if (opts.baseline) report.comparison = compareReports(opts.baseline, report, opts.compare);
  report.exitCode = exitCodeFor({
    interrupted: run.interrupted,
    failed: summary.failed,
    thresholds,
    passRatesPassed: passRates.passed,
    regressed: report.comparison?.regressed ?? false,
  });
  return report;
}
