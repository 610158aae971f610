/**
 * `mergeReports(paths, options)`: the library call behind `droidcheck merge`. The report.json
 * files of shards become one report: histograms added exactly (a percentile of the whole, not an
 * average of percentiles), outcomes summed, thresholds judged again on the merged figures; the
 * merged report is written by the file reporters and its exit code is the whole run's.
 */
import { mergeReportFiles, type MergeFilesOptions, type MergeFilesResult } from '../../report/index.js';

/** Where and how the merged report is written: `outDir`, more `thresholds`, `reporters`, `outputFile`, `stdout`, `color`, `env`. */
export interface MergeReportsOptions extends MergeFilesOptions {}
/** The merged ReportDocument, the files written, and the exit code (0, 1, 98, 99, 130). */
export interface MergeReportsResult extends MergeFilesResult {}

/**
 * Reads, merges and writes. Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) for no path or a
 * file that is unreadable or not a report; ThresholdError (DROIDCHECK_ERR_THRESHOLD, exit 2) for
 * a bad threshold.
 */
export async function mergeReports(
  paths: readonly string[],
  options: MergeReportsOptions,
): Promise<MergeReportsResult> {
  return await mergeReportFiles(paths, options);
}
