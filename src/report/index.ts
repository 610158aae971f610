/**
 * report/: the ReportDocument of every job, one module per section (sections/*.ts: schema,
 * computation, merge and view), and its renderings (console, JSON, JUnit, HTML, Markdown,
 * NDJSON, progress); compare and merge.
 */
export {
  reportDocumentSchema,
  parseReportDocument,
  reportJsonSchema,
  TOOL_VERSION,
  type ReportDocument,
  type ReportKind,
} from './sections/index.js';
export type { LoadSection } from './sections/load.js';
export type { BudgetSection } from './sections/budget.js';
export type { CapacityPoint, CapacitySection } from './sections/capacity.js';
export type { StreamSection } from './sections/stream.js';
export type { WebhookPolicyReport, WebhookPolicyProbe } from './sections/webhook-policy.js';
export { compareReports } from './sections/comparison.js';
export type { CompareOptions, ReportComparison } from './sections/comparison-schema.js';
export {
  buildReport,
  type ReportInput,
} from './build-report.js';
export { renderConsoleSummary } from './console.js';
export { coverageText } from './sections/coverage.js';
export { writeJsonReport } from './json.js';
export {
  createReporter,
  reporters,
  parseOutputFiles,
  type Reporter,
} from './reporter.js';
export { NdjsonWriter, recordLine } from './ndjson.js';
export { renderJUnit, writeJUnitReport } from './junit.js';
export { renderMarkdownSummary, writeMarkdownSummary } from './markdown.js';
export { mergeReports } from './merge.js';
export { renderComparison } from './report-files.js';
export { renderHtmlReport, writeHtmlReport, escapeHtml } from './html.js';
export { readReportFile, loadBaseline } from './read-report.js';
export {
  compareReportFiles,
  endReporters,
  mergeReportFiles,
  MERGE_REPORTERS,
  type CompareFilesOptions,
  type CompareFilesResult,
  type MergeFilesOptions,
  type MergeFilesResult,
} from './report-files.js';
export {
  createProgressReporterWith,
  progressLine,
  etaText,
  wantsLiveProgress,
  writeAboveProgress,
} from './progress.js';
