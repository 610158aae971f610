/**
 * `mergeReports(reports)`: one ReportDocument from several (shards, workers, repeated runs):
 * each section (sections/*.ts) merges its fields in the registry's order (histograms added, so
 * percentiles are those of all values; counts summed; thresholds judged again on the merged
 * figures); then the exit code is decided from them, as for one report.
 */
import { UsageError } from '../errors.js';
import { exitCodeOf } from './build-report.js';
import type { MergeReportsOptions } from './section.js';
import { REPORT_VERSION, SECTIONS, TOOL_VERSION, type ReportDocument } from './sections/index.js';

export type { MergeReportsOptions } from './section.js';

/**
 * Merges `reports` (at least one, of one kind; UsageError DROIDCHECK_ERR_USAGE otherwise).
 * startedAt is the earliest, finishedAt the latest, durationMs the wall span between them (ms).
 * Settings are the first report's plus `mergedReports: N` (and `shard`: every input's
 * `settings.shard`). Exit code: 130 when any input was interrupted, else from the merged
 * figures. Throws ThresholdError for a bad threshold.
 */
export function mergeReports(reports: readonly ReportDocument[], opts: MergeReportsOptions = {}): ReportDocument {
  const first = reports[0];
  if (!first) throw new UsageError('mergeReports needs at least one report');
  const kinds = new Set(reports.map((r) => r.kind));
  if (kinds.size > 1)
    throw new UsageError(
      `merge: the reports are of different kinds (${[...kinds].join(', ')}); merge reports of one command`,
    );
  const starts = reports.map((r) => Date.parse(r.startedAt)).filter(Number.isFinite);
  const ends = reports.map((r) => Date.parse(r.finishedAt)).filter(Number.isFinite);
  const shards = reports.map((r) => r.settings.shard).filter((s) => s !== undefined);
  const merged: Record<string, unknown> = {
    version: REPORT_VERSION,
    tool: 'droidcheck',
    // The figures are the inputs': the version that measured them (this one when they differ).
    toolVersion: new Set(reports.map((r) => r.toolVersion)).size === 1 ? first.toolVersion : TOOL_VERSION,
    kind: first.kind,
    startedAt: starts.length > 0 ? new Date(Math.min(...starts)).toISOString() : first.startedAt,
    finishedAt: ends.length > 0 ? new Date(Math.max(...ends)).toISOString() : first.finishedAt,
    durationMs:
      starts.length > 0 && ends.length > 0 ? Math.max(0, Math.max(...ends) - Math.min(...starts)) : first.durationMs,
    settings: { ...first.settings, mergedReports: reports.length, ...(shards.length > 0 && { shard: shards }) },
  };
  for (const section of SECTIONS) {
    for (const [key, value] of Object.entries(section.merge(reports, merged, opts)))
      if (value !== undefined) merged[key] = value;
  }
  const report = merged as Omit<ReportDocument, 'exitCode'>;
  return {
    ...report,
    exitCode: exitCodeOf(
      report,
      reports.some((r) => r.exitCode === 130),
    ),
  };
}
