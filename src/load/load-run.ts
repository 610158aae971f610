/**
 * `runLoad(config, io)`: a load run as a library call (the CLI's `droidcheck load` wraps it),
 * analogous to `run()` (src/run.ts). Loads the scenarios, builds the weighted mix, opens the
 * target (embedded emulator by default), runs the open or closed model while streaming every
 * record to `<reportDir>/records.ndjson`, then writes `<reportDir>/report.json` (the run's
 * report plus a `load` section) and returns the exit code (DESIGN.md, Conventions).
 */
import type { Writable } from 'node:stream';
import { publicSettings } from '../config.js';
import { parseThreshold } from '../metrics/index.js';
import { renderConsoleSummary, writeJsonReport } from '../report/index.js';
import { loadSuites } from '../scenario/index.js';
import { openTarget } from '../target.js';
import { publicLoadSettings, type ResolvedLoadConfig } from './load-config.js';
import { runLoadEngine } from './load-engine.js';
import { buildLoadReport, renderLoadSummary, type LoadReportDocument } from './load-report.js';
import { createMix } from './mix.js';
import { NdjsonWriter } from './ndjson-writer.js';

export interface LoadIO {
  stdout: Writable | NodeJS.WritableStream;
  stderr: Writable | NodeJS.WritableStream;
  /** Aborted: no new arrivals (first SIGINT). */
  stopSignal?: AbortSignal;
  /** Aborted: cancel in-flight requests. */
  abortSignal?: AbortSignal;
  color?: boolean;
}

export interface LoadSummary {
  report: LoadReportDocument;
  exitCode: number;
  /** report.json, records.ndjson. */
  files: string[];
}

/**
 * Throws ScenarioError / UsageError / ThresholdError (exit 2) before anything is sent; after
 * that, every problem of the target is an outcome in the report.
 */
export async function runLoad(config: ResolvedLoadConfig, io: LoadIO): Promise<LoadSummary> {
  const suites = await loadSuites(config.paths);
  for (const t of config.thresholds) parseThreshold(t);
  const s = config.load;
  const mix = createMix(suites, { mode: config.mode, weights: s.weights, seed: s.seed });
  if (mix.skipped.length > 0) io.stderr.write(`droidcheck load: skipped multi-step scenarios: ${mix.skipped.join(', ')}\n`);
  const writer = await NdjsonWriter.open(config.reportDir);
  const target = await openTarget(config);
  try {
    io.stderr.write(`droidcheck load: target ${target.baseUrl}, receiver ${target.webhookUrl}\n`);
    const t0 = performance.now();
    const startedAt = new Date();
    const { session, model } = await runLoadEngine({
      client: target.client,
      receiver: target.receiver,
      mix,
      model: s.model,
      timeoutMs: config.timeoutMs,
      warmupMs: s.warmupMs,
      maxInFlight: s.maxInFlight,
      maxRequests: s.maxRequests,
      ackOnly: s.ackOnly,
      drainTimeoutMs: s.drainTimeoutMs,
      writer,
      stopSignal: io.stopSignal,
      abortSignal: io.abortSignal,
      progress: { intervalMs: s.progressMs, write: (line) => io.stderr.write(`${line}\n`) },
    });
    await target.close();
    await writer.close();
    const report = buildLoadReport({
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: performance.now() - t0,
      settings: { ...publicSettings(config), load: publicLoadSettings(s) },
      session,
      model,
      receiver: target.receiver.stats(),
      thresholds: config.thresholds,
    });
    const files = [await writeJsonReport(config.reportDir, report), writer.path];
    io.stdout.write(renderConsoleSummary(report, { color: io.color ?? false }));
    io.stdout.write(`${renderLoadSummary(report)}\nreport: ${files.join(', ')}\n`);
    return { report, exitCode: report.exitCode, files };
  } finally {
    await target.close().catch(() => undefined);
    await writer.close().catch(() => undefined);
  }
}
