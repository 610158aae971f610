/**
 * report/: the ReportDocument of every job (compute) and its renderings (console, JSON, JUnit,
 * HTML, Markdown, NDJSON, progress); compare and merge.
 */
export * from './report-document.js';
export { buildReport, summaryOfTally, latencyEntries, scenarioEntry, exitCodeFor, type ReportInput, type ExitCodeInput, type BuildReportOptions } from './build-report.js';
export { renderConsoleSummary, formatValue, type ConsoleSummaryOptions } from './console.js';
export { writeJsonReport, JSON_REPORT_FILE } from './json.js';
export { createReporter, reporters, parseOutputFiles, outputPath, type Reporter, type ReporterFactory, type ReporterOptions, type RunStartInfo } from './reporter.js';
export { NdjsonWriter, recordLine, NDJSON_RESULTS_FILE, type AnswerPolicy, type NdjsonOptions } from './ndjson.js';
export { reportDocumentSchema, parseReportDocument, reportJsonSchema } from './report-schema.js';
export { renderJUnit, writeJUnitReport, JUNIT_REPORT_FILE } from './junit.js';
export { renderMarkdownSummary, writeMarkdownSummary, MARKDOWN_REPORT_FILE } from './markdown.js';
export { mergeReports, mergeTimelines, type MergeReportsOptions } from './merge.js';
export { compareReports, renderComparison, type CompareOptions, type ReportComparison } from './compare.js';
export { renderHtmlReport, writeHtmlReport, HTML_REPORT_FILE, escapeHtml } from './html.js';
export { readReportFile, loadBaseline } from './read-report.js';
export { compareReportFiles, endReporters, mergeReportFiles, MERGE_REPORTERS, type CompareFilesResult, type MergeFilesOptions, type MergeFilesResult } from './report-files.js';
export { createProgressReporter, createProgressReporterWith, progressLine, etaText, wantsLiveProgress, writeAboveProgress } from './progress.js';
export { computePassRates, type PassRates } from './pass-rates.js';
export { computeParity, type ParityReport } from './parity.js';
export { computeAccuracy, type AccuracyReport } from './accuracy.js';
