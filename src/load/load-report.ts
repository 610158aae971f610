/**
 * The report of a load run: the same `ReportDocument` as `run` (report/, computed from the
 * streamed tallies instead of kept records: `scenarios: []`) plus a `load` section with the
 * load settings, dropped arrivals, achieved rates, the send-delay histogram and the
 * generator-bound verdict (issue 5). Compute here; `renderLoadSummary` renders.
 */
import { evaluateThresholds, LATENCY_METRICS, type LatencyMetric } from '../metrics/index.js';
import type { ReceiverStats } from '../receiver/index.js';
import {
  assertOutcomesAddUp,
  exitCodeFor,
  latencyEntries,
  redactSettings,
  summaryOf,
  type ReportDocument,
} from '../report/index.js';
import type { ScenarioTally } from './load-stats.js';
import { generatorVerdict, type GeneratorVerdict, type SendDelaySummary } from './send-delay.js';
import type { LoadSession, ModelResult } from './session.js';

export interface LoadSection {
  model: 'open' | 'closed';
  /** Measured requests sent (= summary.requests). */
  sent: number;
  warmupSent: number;
  /** Arrivals dropped at the in-flight cap (k6 dropped_iterations). */
  dropped: number;
  /** Measured sending time, ms (after the warm-up). */
  measuredMs: number;
  /** Sent / measured time, req/s. */
  achievedRate: number;
  /** Answered / measured time, req/s. */
  answeredRate: number;
  sendDelay: SendDelaySummary & { histogram: string };
  generator: GeneratorVerdict;
  scenarios: ScenarioTally[];
  /** Lines in records.ndjson (warm-up included) and its path, when written. */
  records: number;
  recordsFile?: string;
}

export type LoadReportDocument = ReportDocument & { load: LoadSection };

export interface LoadReportInput {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Run and load settings; secrets are redacted anyway. */
  settings: Record<string, unknown>;
  session: LoadSession;
  model: ModelResult;
  receiver: ReceiverStats;
  thresholds?: readonly string[];
  interrupted?: boolean;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Builds the load report. Throws InternalError (DROIDCHECK_ERR_INTERNAL) when the outcome
 * counts do not add up to the measured requests, ThresholdError for a bad threshold.
 */
export function buildLoadReport(input: LoadReportInput): LoadReportDocument {
  const { session, model } = input;
  const stats = session.stats;
  const summary = summaryOf(stats.sent, { ...stats.outcomes }, stats.sent, stats.passed);
  assertOutcomesAddUp(summary);
  const latency = latencyEntries(session.ctx.latency);
  const histograms = Object.fromEntries(LATENCY_METRICS.map((m) => [m, session.ctx.latency.encode(m)])) as Record<LatencyMetric, string>;
  const receiver = { ...input.receiver };
  const thresholds = evaluateThresholds(input.thresholds ?? [], { summary, latency, receiver, histograms }, { defaults: true });
  const interrupted = input.interrupted ?? model.interrupted;
  const sendDelay = session.sendDelay.summary();
  const seconds = model.measuredMs / 1000;
  return {
    version: 1,
    tool: 'droidcheck',
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    durationMs: input.durationMs,
    settings: redactSettings(input.settings),
    summary,
    latency,
    histograms,
    receiver,
    thresholds,
    scenarios: [],
    exitCode: exitCodeFor({ interrupted, failed: summary.failed, thresholds }),
    load: {
      model: model.model,
      sent: stats.sent,
      warmupSent: stats.warmupSent,
      dropped: stats.dropped,
      measuredMs: round3(model.measuredMs),
      achievedRate: seconds > 0 ? round3(stats.sent / seconds) : 0,
      answeredRate: seconds > 0 ? round3(stats.outcomes.answered / seconds) : 0,
      sendDelay: { ...sendDelay, histogram: session.sendDelay.encode() },
      generator: generatorVerdict(sendDelay),
      scenarios: stats.scenarios(),
      records: session.writer?.lines ?? 0,
      ...(session.writer ? { recordsFile: session.writer.path } : {}),
    },
  };
}

/** Extra console lines of a load report (plain text, no trailing newline). */
export function renderLoadSummary(report: LoadReportDocument): string {
  const l = report.load;
  const d = l.sendDelay;
  const lines = [
    `Load (${l.model} model)  sent ${l.sent} · warm-up ${l.warmupSent} · dropped ${l.dropped} · achieved ${l.achievedRate} req/s · answered ${l.answeredRate} req/s over ${(l.measuredMs / 1000).toFixed(1)} s`,
    `Send delay (ms)  p50 ${d.p50} · p90 ${d.p90} · p99 ${d.p99} · p99.9 ${d.p999} · max ${d.max} (${d.count})`,
    `${l.generator.generatorBound ? 'WARNING ' : ''}${l.generator.message}`,
  ];
  for (const s of l.scenarios) {
    lines.push(`  ${s.suite} › ${s.name} [${s.mode}]  ${s.requests} requests · ${s.passed} passed · ${s.failed} failed`);
    for (const e of s.examples) lines.push(`      e.g. #${e.seq} ${e.outcome}${e.error ? ` ${e.error.code}: ${e.error.message}` : ''}${e.failures[0] ? ` ${e.failures[0].path}: ${e.failures[0].message}` : ''}`);
  }
  if (l.recordsFile) lines.push(`records: ${l.recordsFile} (${l.records} lines)`);
  return lines.join('\n');
}
