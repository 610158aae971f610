/**
 * The library behind `droidcheck compare` and `droidcheck merge`: report.json files in,
 * a comparison or a merged report (written by the file reporters) out. Prints nothing.
 */
import type { Writable } from 'node:stream';
import { EXIT, UsageError } from '../errors.js';
import { compareReports } from './sections/comparison.js';
import type { CompareOptions, ReportComparison } from './sections/comparison-schema.js';
import { MAX_ANSWER_DIFFS } from './sections/answer-changes-view.js';
import { comparisonView } from './sections/comparison-view.js';
import { wrapLine } from '../text-table.js';
import { comparisonHtml, comparisonMarkdown } from './comparison-files.js';
import { type Unlike, unlikeRuns, unlikeText } from './alike.js';
import { consoleLines, plainPaint } from './view.js';
import { mergeReports } from './merge.js';
import { readReportFile } from './read-report.js';
import type { ReportDocument } from './sections/index.js';
import { createReporter } from './reporter.js';
import type { Reporter } from './reporter-types.js';

/**
 * A comparison as terminal text (the section's view, as the console draws it: rows with too few
 * samples counted, not listed, unless `everyRow`): the verdict, the flips and the changed
 * answers, the tables, the rules; each line wrapped at 100 columns.
 */
export function renderComparison(cmp: ReportComparison, opts: { everyRow?: boolean } = {}): string {
  const lines = consoleLines(comparisonView(cmp, MAX_ANSWER_DIFFS, !opts.everyRow), plainPaint).slice(1);
  return `${lines.flatMap((l) => wrapLine(l, 100)).join('\n')}\n`;
}

export interface CompareFilesResult {
  comparison: ReportComparison;
  /** How the two runs differ beyond the figures (kind, target, duration, rate, mode mix, version). */
  unlike: Unlike[];
  /** The differences first (`not alike: ...`), then renderComparison's text. */
  text: string;
  /** The same as Markdown (`compare --markdown`): the changed answers' word diffs inline. */
  markdown: string;
  /** The same as one HTML page (`compare --html`): the changed answers side by side. */
  html: string;
  /** 1 when regressed, else 98 when the latency rows were not judged (a run's figures not trusted), else 0. */
  exitCode: 0 | 1 | 98;
}

export interface CompareFilesOptions extends CompareOptions {
  /** Compare runs of another target or job anyway (`--force`). */
  force?: boolean;
}

/**
 * Compares the report at `currentPath` with the one at `basePath` (tolerances: sections/comparison.ts),
 * saying first how the runs differ (`not alike: target: ...` for two services). Throws UsageError
 * (DROIDCHECK_ERR_USAGE, exit 2) naming a file that is unreadable or not a report, and, without
 * `force`, when the runs are of another job (their figures are not a before and after).
 */
export async function compareReportFiles(
  baseIn: string | ReportDocument,
  currentIn: string | ReportDocument,
  opts: CompareFilesOptions = {},
): Promise<CompareFilesResult> {
  const read = (r: string | ReportDocument): Promise<ReportDocument> =>
    typeof r === 'string' ? readReportFile(r) : Promise.resolve(r);
  const [base, current] = await Promise.all([read(baseIn), read(currentIn)]);
  const basePath = typeof baseIn === 'string' ? baseIn : 'the baseline';
  const currentPath = typeof currentIn === 'string' ? currentIn : 'the current report';
  // A red team's figures are findings, not latencies: compare its two runs by their findings (same --seed).
  const redteam = [
    [basePath, base],
    [currentPath, current],
  ].find(([, r]) => (r as ReportDocument).redteam !== undefined);
  if (redteam)
    throw new UsageError(
      `compare: ${String(redteam[0])} is a redteam report, and compare reads run, load and capacity reports only; run droidcheck redteam again with the same --seed and read its findings`,
    );
  const unlike = unlikeRuns(base, current);
  const refused = unlike.filter((u) => u.refuse);
  if (refused.length > 0 && !opts.force) {
    throw new UsageError(
      `compare: ${basePath} and ${currentPath} are runs of another ${refused.map((u) => `${u.what} (${u.base} vs ${u.current})`).join(' and ')}; pass --force to compare them anyway`,
    );
  }
  const { force: _force, ...rules } = opts;
  const comparison = compareReports(base, current, rules);
  const text = `${unlike.map((u) => `${unlikeText(u)}\n`).join('')}${renderComparison(comparison)}`;
  const exitCode = comparison.regressed
    ? EXIT.EXPECTATION_FAILED
    : comparison.latencyNotJudged
      ? EXIT.FIGURES_NOT_TRUSTED
      : EXIT.OK;
  const title = `droidcheck compare: ${basePath} -> ${currentPath}`;
  return {
    comparison,
    unlike,
    text,
    markdown: comparisonMarkdown(comparison, unlike, title),
    html: comparisonHtml(comparison, unlike, title),
    exitCode,
  };
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
  if (paths.length === 0)
    throw new UsageError('merge: give the report.json files of the shards, e.g. droidcheck merge shard-*/report.json');
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
  await endReporters(reporters, report);
  return { report, files: reporters.flatMap((r) => r.files ?? []), exitCode: report.exitCode };
}

/**
 * Calls every reporter's `onRunEnd` in turn. A file-system error while a report file is written
 * (a directory where report.json should go, a full disk, a folder that went read-only during the
 * run) is the user's to fix, not a droidcheck bug: it becomes a UsageError (DROIDCHECK_ERR_USAGE,
 * exit 2) naming the file and the OS code. Other errors pass unchanged.
 */
export async function endReporters(reporters: readonly Reporter[], report: ReportDocument): Promise<void> {
  for (const r of reporters) {
    try {
      await r.onRunEnd?.(report);
    } catch (err) {
      const { code, path, message } = err as NodeJS.ErrnoException;
      if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) throw err;
      const what = typeof path === 'string' ? path : message;
      throw new UsageError(
        `cannot write the report ${what} (${code}): ${FS_HINTS[code] ?? message}; choose another --report-dir or --output-file`,
      );
    }
  }
}

/** What a file-system error code means for a report file. */
const FS_HINTS: Record<string, string> = {
  EISDIR: 'a directory is in the way',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file is in the way',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOENT: 'a folder on the way is gone',
};
