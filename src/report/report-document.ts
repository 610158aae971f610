/**
 * The report of one run as plain data (docs/interfaces.md, report/): computed once by
 * `buildReport`, then rendered by every reporter (console, JSON, JUnit, Markdown).
 * Latencies in ms (3 decimals); histograms in HDR compressed base64 of us values.
 */
import type { LatencyMetric, LatencySummary, ThresholdResult } from '../metrics/index.js';
import type { AccuracyReport } from './accuracy.js';
import type { ReportComparison } from './compare.js';
import type { ParityReport } from './parity.js';
import type { PassRates } from './pass-rates.js';
import type { AnswerMode, ContractViolationRecord, ExpectationFailure, Outcome, ReceiverStats } from './run-types.js';

export const REPORT_VERSION = 1;

/** One latency metric: its summary (ms) with the spec's limit and whether max stayed under it. */
export type LatencyEntry = LatencySummary & { limitMs: number; withinLimit: boolean };

/** One request record (scenario x mode x repeat) as the report shows it. */
export interface ScenarioEntry {
  suite: string;
  name: string;
  file: string;
  mode: AnswerMode;
  outcome: Outcome;
  passed: boolean;
  requestId?: string;
  /** End to end, ms: syncMs (sync) or answerMs (async). */
  latencyMs?: number;
  /** Retries of the submit (`--retries`, 429/5xx); absent when none. */
  retries?: number;
  failures: ExpectationFailure[];
  contractViolations: ContractViolationRecord[];
  error?: { code: string; message: string };
}

export interface ReportSummary {
  /** Requests sent (records). */
  requests: number;
  /** Every outcome name, zeros included; they add up to `requests`. */
  outcomes: Record<Outcome, number>;
  /** Scenario entries (= records). */
  scenarios: number;
  passed: number;
  failed: number;
  /** passed / scenarios, 0..1; 1 when no scenario ran. */
  passRate: number;
  /** Retries of submits (`--retries`, 429/5xx) summed over the records; 0 when none. */
  retries: number;
}

export interface ReportDocument {
  version: 1;
  tool: 'droidcheck';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Settings of the run; keys naming a token, secret, password or authorization are redacted. */
  settings: Record<string, unknown>;
  summary: ReportSummary;
  latency: Record<LatencyMetric, LatencyEntry>;
  histograms: Record<LatencyMetric, string>;
  receiver: ReceiverStats;
  thresholds: ThresholdResult[];
  scenarios: ScenarioEntry[];
  /** Pass rates per scenario x mode and per suite over repeats (pass-rates.ts); absent in load reports. */
  passRates?: PassRates;
  /** Sync vs async answers of scenarios run in both modes (parity.ts). */
  parity?: ParityReport;
  /** Intent precision/recall/f1, confusion table, cart/address hit rates (accuracy.ts); needs the suites. */
  accuracy?: AccuracyReport;
  /** Against a baseline report (`--baseline`, compare.ts). */
  comparison?: ReportComparison;
  /**
   * 130 interrupted; else 99 a threshold breached; else 1 a scenario missed its pass-rate
   * requirement (every run must pass unless `passRate`/`minPasses` says otherwise) or the
   * comparison with a baseline regressed; else 0.
   */
  exitCode: number;
}
