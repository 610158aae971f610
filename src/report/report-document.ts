/**
 * The report of one run as plain data (docs/interfaces.md, report/): computed once by
 * `buildReport`, then rendered by every reporter (console, JSON, JUnit, Markdown).
 * Latencies in ms (3 decimals); histograms in HDR compressed base64 of us values.
 */
import type { LatencyMetric, LatencySummary, ThresholdResult } from '../metrics/index.js';
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
  /** 0 all passed; 1 a scenario failed; 99 a threshold breached (wins over 1); 130 interrupted. */
  exitCode: number;
}
