/**
 * `run(config, io)`: the main job as a library call (the CLI's `droidcheck run` wraps it).
 * Loads the scenarios, opens the target (emulator by default), runs every scenario x mode,
 * writes the reports and returns the exit code (DESIGN.md, Conventions).
 */
import type { Writable } from 'node:stream';
import { publicSettings, type ResolvedRunConfig } from './config.js';
import { UsageError } from './errors.js';
import { parseThreshold } from './metrics/index.js';
import { buildReport, createReporter, loadBaseline, type Reporter, type ReportDocument } from './report/index.js';
import { planRequests, runSuites, warmUpConnections } from './runner/index.js';
import { shardSuites } from './runner/shard.js';
import { filterScenarios, loadSuites } from './scenario/index.js';
import { openTarget } from './target.js';
import { retryPolicyFor } from './client/retry.js';
import { createRedactor, redactValue } from './redact.js';
import { assertRunAccounting } from './runner/accounting.js';

export interface RunIO {
  stdout: Writable;
  stderr: Writable;
  /** Aborted: send no new requests (first SIGINT). */
  stopSignal?: AbortSignal;
  /** Aborted: cancel in-flight requests (grace period over, or second SIGINT). */
  abortSignal?: AbortSignal;
  color?: boolean;
}

export interface RunSummary {
  report: ReportDocument;
  exitCode: number;
  /** Files written (report.json, junit.xml, ...). */
  files: string[];
}

function createReporters(config: ResolvedRunConfig, io: RunIO): Reporter[] {
  const names = [...config.reporters];
  // A live progress bar by default on a terminal (plain lines in CI are the progress reporter's own choice).
  if (config.defaultReporters && (io.stderr as { isTTY?: boolean }).isTTY && !process.env.CI) names.push('progress');
  return names.map((name) =>
    createReporter(name, {
      outDir: config.reportDir,
      stdout: io.stdout,
      stderr: io.stderr,
      env: process.env,
      color: io.color ?? false,
      ...(config.outputFile && { outputFile: config.outputFile }),
    }),
  );
}

function line(out: Writable, text: string): void {
  out.write(`${text}\n`);
}

/**
 * Throws ScenarioError / UsageError (also: --tag/--grep match nothing) / ThresholdError (exit 2)
 * before anything is sent;
 * after that, every problem of the target is an outcome in the report.
 */
export async function run(config: ResolvedRunConfig, io: RunIO): Promise<RunSummary> {
  const loaded = await loadSuites(config.paths);
  const filtering = config.tags.length > 0 || config.grep !== undefined;
  const filtered = filtering ? filterScenarios(loaded, { tags: config.tags, ...(config.grep !== undefined && { grep: config.grep }) }) : loaded;
  if (filtering && filtered.length === 0) throw new UsageError('no scenario matches --tag/--grep');
  const suites = shardSuites(filtered, config.shard);
  const baseline = config.baseline !== undefined ? await loadBaseline(config.baseline) : undefined;
  for (const t of config.thresholds) parseThreshold(t);
  const reporters = createReporters(config, io);
  const settings = publicSettings(config);
  const target = await openTarget(config);
  // The one redactor of the run (src/redact.ts): reporters only ever see redacted data.
  const redact = createRedactor([config.webhookSecret, config.target.kind === 'remote' ? config.target.token : undefined, target.emulator?.token]);
  try {
    if (config.target.kind === 'remote') {
      line(io.stderr, `droidcheck: target ${target.baseUrl} (droid ${config.target.droidId})`);
      line(io.stderr, `droidcheck: configure the service's answer webhook URL as ${target.webhookUrl}`);
      if (config.webhookSecret === null) {
        line(io.stderr, 'droidcheck: no DROID_WEBHOOK_SECRET set: deliveries are accepted without a secret');
      }
    } else {
      line(io.stderr, `droidcheck: embedded emulator at ${target.baseUrl} (${target.emulator?.thread ?? "inline"} thread), receiver at ${target.webhookUrl}`);
    }
    if (config.warmUp) await warmUpConnections(target.client, config.concurrency, io.stopSignal);
    const startedAt = new Date().toISOString();
    const planned = planRequests(suites, config.mode).length;
    for (const r of reporters) await r.onRunStart?.({ startedAt, settings, planned });
    const result = await runSuites({
      suites,
      client: target.client,
      receiver: target.receiver,
      mode: config.mode,
      concurrency: config.concurrency,
      timeoutMs: config.timeoutMs,
      settings,
      retry: retryPolicyFor(config.retries),
      onResult: async (record) => {
        const safe = redactValue(record, redact);
        for (const r of reporters) await r.onResult?.(safe);
      },
      ...(io.stopSignal ? { stopSignal: io.stopSignal } : {}),
      ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    });
    // Close first so late deliveries and orphans are counted before the report is computed.
    await target.close();
    result.receiver = target.receiver.stats();
    assertRunAccounting(result, target.receiver.parkedCount()); // issue 7: a mismatch is a loud InternalError
    const report = redactValue(buildReport(result, { thresholds: config.thresholds, suites, ...(baseline && { baseline }) }), redact);
    for (const r of reporters) await r.onRunEnd?.(report);
    const files = reporters.flatMap((r) => r.files ?? []);
    if (files.length > 0) line(io.stdout, `reports: ${files.join(', ')}`);
    return { report, exitCode: report.exitCode, files };
  } finally {
    await target.close().catch(() => undefined);
  }
}
