/**
 * The library behind `droidcheck compare` and `droidcheck merge`: report.json files in,
 * a comparison or a merged report (written by the file reporters) out. Prints nothing.
 */
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { compareReports, comparisonView, type CompareOptions, type ReportComparison } from './sections/comparison.js';
import { consoleLines, plainPaint } from './view.js';
import { mergeReports } from './merge.js';
import { readReportFile } from './read-report.js';
import type { ReportDocument } from './sections/index.js';
import { createReporter } from './reporter.js';

/** A comparison as terminal text: the verdict, the rules, the flips and the tables (the section's view). */
export function renderComparison(cmp: ReportComparison): string {
  return `${consoleLines(comparisonView(cmp), plainPaint).slice(1).join('\n')}\n`;
}

export interface CompareFilesResult {
  comparison: ReportComparison;
  /** renderComparison's text. */
  text: string;
  /** 1 when regressed, else 0. */
  exitCode: number;
}

/**
 * Compares the report at `currentPath` with the one at `basePath` (tolerances: compare.ts).
 * Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) naming a file that is unreadable or not a report.
 */
export async function compareReportFiles(basePath: string, currentPath: string, opts: CompareOptions = {}): Promise<CompareFilesResult> {
  const [base, current] = await Promise.all([readReportFile(basePath), readReportFile(currentPath)]);
  // A red team's figures are findings, not latencies: compare its two runs by their findings (same --seed).
  const redteam = [[basePath, base], [currentPath, current]].find(([, r]) => (r as ReportDocument).kind === 'redteam');
  if (redteam) throw new UsageError(`compare: ${String(redteam[0])} is a redteam report, and compare reads run, load and capacity reports only; run droidcheck redteam again with the same --seed and read its findings`);
  const comparison = compareReports(base, current, opts);
  return { comparison, text: renderComparison(comparison), exitCode: comparison.regressed ? 1 : 0 };
}

export interface MergeFilesOptions {
  /** Directory the merged reports are written to. */
  outDir: string;
  /** More thresholds to judge on the merged figures. */
  thresholds?: readonly string[];
  /** Reporters to write with (default console, json, junit, html, markdown). */
  reporters?: readonly string[];
  /** Per-reporter output paths (reporter name -> file), as in ReporterOptions.outputFile. */
  outputFile?: Readonly<Record<string, string>>;
  stdout?: Writable;
  color?: boolean;
  env?: Record<string, string | undefined>;
}

export interface MergeFilesResult {
  report: ReportDocument;
  files: string[];
  exitCode: number;
}

export const MERGE_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown'] as const;

/**
 * Reads `paths` (shard reports), merges them (merge.ts: histograms added, outcomes summed,
 * thresholds judged again) and writes the merged report with `opts.reporters`.
 * Throws UsageError for no path or a bad file (exit 2), ThresholdError for a bad threshold.
 */
export async function mergeReportFiles(paths: readonly string[], opts: MergeFilesOptions): Promise<MergeFilesResult> {
  if (paths.length === 0) throw new UsageError('merge: give the report.json files of the shards, e.g. droidcheck merge shard-*/report.json');
  const inputs = await Promise.all(paths.map((p) => readReportFile(p)));
  const report = mergeReports(inputs, opts.thresholds ? { thresholds: opts.thresholds } : {});
  const reporters = (opts.reporters ?? MERGE_REPORTERS).map((name) =>
    createReporter(name, {
      outDir: opts.outDir,
      ...(opts.stdout && { stdout: opts.stdout }),
      color: opts.color ?? false,
      ...(opts.env && { env: opts.env }),
      ...(opts.outputFile && { outputFile: opts.outputFile }),
    }),
  );
  for (const r of reporters) await r.onRunEnd?.(report);
  return { report, files: reporters.flatMap((r) => r.files ?? []), exitCode: report.exitCode };
}
