/**
 * `compareReports(base, current, options)`: the library call behind `droidcheck compare` (and a
 * user's own script): a report against a baseline on noise-aware rules (docs/statistics.md). A
 * row regresses only with enough samples for its statistic, beyond the tolerance AND
 * significant, so a CI gate does not fail on noise. Prints nothing.
 */
import { UsageError } from '../errors.js';
import { compareReports as compareDocuments, readReportFile, renderComparison, type CompareOptions, type ReportComparison, type ReportDocument } from '../report/index.js';

/** Tolerances of the comparison; every field optional (defaults 10 %, 1 ms, 1 point, alpha 0.01). */
export interface CompareReportsOptions extends CompareOptions {}

export interface CompareReportsResult {
  /** Every compared row with the rule that decided it, and `regressed`. */
  comparison: ReportComparison;
  /** The comparison as text, as `droidcheck compare` prints it. */
  text: string;
  /** 1 when CURRENT regressed against BASE, else 0 (docs/exit-codes.md). */
  exitCode: 0 | 1;
}

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
  if (opts.alpha !== undefined && !(opts.alpha > 0 && opts.alpha < 1)) throw new UsageError(`alpha: ${opts.alpha} must be between 0 and 1`);
}

/**
 * Compares `current` with `base`, each a report.json path or an already read ReportDocument.
 * Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2) naming a file that is unreadable or not a
 * report, or a negative tolerance.
 */
export async function compareReports(base: string | ReportDocument, current: string | ReportDocument, options: CompareReportsOptions = {}): Promise<CompareReportsResult> {
  checkTolerances(options);
  const read = (r: string | ReportDocument): Promise<ReportDocument> => (typeof r === 'string' ? readReportFile(r) : Promise.resolve(r));
  const [b, c] = await Promise.all([read(base), read(current)]);
  const comparison = compareDocuments(b, c, options);
  return { comparison, text: renderComparison(comparison), exitCode: comparison.regressed ? 1 : 0 };
}
