/**
 * `compareReports(base, current, options)`: the library call behind `droidcheck compare` (and a
 * user's own script): a report against a baseline on noise-aware rules (docs/statistics.md). A
 * row regresses only with enough samples for its statistic, beyond the tolerance AND
 * significant, so a CI gate does not fail on noise. Prints nothing.
 */
import { UsageError } from '../../errors.js';
import {
  compareReportFiles,
  type CompareFilesOptions,
  type CompareFilesResult,
  type CompareOptions,
  type ReportDocument,
} from '../../report/index.js';

/**
 * Tolerances of the comparison; every field optional (defaults 10 %, 1 ms, 1 point, alpha 0.01);
 * `force` compares runs of another job (kind) instead of refusing them (two targets are compared,
 * `not alike: target` said first).
 */
export interface CompareReportsOptions extends CompareFilesOptions {}

/**
 * Every compared row with the rule that decided it (`comparison`), how the two runs differ
 * (`unlike`: kind, target, duration, rate, mode mix, version, said before the verdict), the
 * comparison as `droidcheck compare` prints it (`text`), as Markdown (`--markdown`: the changed
 * answers' word diffs inline) and as one self-contained HTML page (`--html`: the changed answers
 * side by side); `exitCode` 1 when CURRENT regressed against BASE, else 98 when the latency rows
 * were not judged (either run's latency figures not trusted: its generator was bound), else 0
 * (docs/exit-codes.md).
 */
export interface CompareReportsResult extends CompareFilesResult {}

function checkTolerances(opts: CompareOptions): void {
  const named: [keyof CompareOptions, string][] = [
    ['tolerancePct', '--tolerance'],
    ['minDeltaMs', '--min-delta'],
    ['rateTolerancePts', '--rate-tolerance'],
  ];
  for (const [key, flag] of named) {
    const v = opts[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new UsageError(`${flag}: ${v} must be a number >= 0`);
  }
  if (opts.alpha !== undefined && !(opts.alpha > 0 && opts.alpha < 1))
    throw new UsageError(`alpha: ${opts.alpha} must be between 0 and 1`);
}

/**
 * Compares `current` with `base`, each a report.json path or an already read ReportDocument.
 * Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) naming a file that is unreadable or not a
 * report, a negative tolerance, or (without `force`) runs of another job (kind).
 */
export async function compareReports(
  base: string | ReportDocument,
  current: string | ReportDocument,
  options: CompareReportsOptions = {},
): Promise<CompareReportsResult> {
  checkTolerances(options);
  return compareReportFiles(base, current, options);
}
