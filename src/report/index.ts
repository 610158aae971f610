/**
 * report/: the ReportDocument of every job, one module per section (sections/*.ts: schema,
 * computation, merge and view), and its renderings (console, JSON, JUnit, HTML, Markdown,
 * NDJSON, progress); compare and merge.
 */
export { REPORT_VERSION, REPORT_KINDS, SECTIONS, reportDocumentSchema, parseReportDocument, reportJsonSchema, type ReportDocument, type ReportHeader, type ReportKind } from './sections/index.js';
export type { ReportSummary } from './sections/summary.js';
export { LIMIT_STATS, latencyEntries, type LatencyEntry, type Histograms } from './sections/latency.js';
export type { NetworkSection } from './sections/network.js';
export type { LoadSection } from './sections/load.js';
export type { CapacityPoint, CapacitySection } from './sections/capacity.js';
export type { StreamSection, StreamShardSkew } from './sections/stream.js';
export type { JudgeSection } from './sections/judge.js';
export type { WebhookPolicyReport, WebhookPolicyProbe } from './sections/webhook-policy.js';
export { scenarioEntry, type ScenarioEntry, type FailedStep } from './sections/scenarios.js';
export { summaryOfTally } from './sections/summary.js';
export { computePassRates, mergePassRates, type PassRates, type ScenarioPassRate } from './sections/pass-rates.js';
export { computeParity, mergeParity, type ParityReport } from './sections/parity.js';
export { computeAccuracy, mergeAccuracy, type AccuracyReport } from './sections/accuracy.js';
export { compareReports, comparisonView, DEFAULT_COMPARE_RULES, type CompareOptions, type ReportComparison, type Unlike } from './sections/comparison.js';
export { defineSection, type Section, type SectionInput } from './section.js';
export type { SectionView, Text, Tone } from './view.js';
export { buildReport, exitCodeFor, type ReportInput, type ExitCodeInput, type BuildReportOptions } from './build-report.js';
export { renderConsoleSummary, formatValue, type ConsoleSummaryOptions } from './console.js';
export { writeJsonReport, JSON_REPORT_FILE } from './json.js';
export { createReporter, reporters, parseOutputFiles, outputPath, type Reporter, type ReporterFactory, type ReporterOptions, type RunStartInfo } from './reporter.js';
export { NdjsonWriter, recordLine, NDJSON_RESULTS_FILE, type AnswerPolicy, type NdjsonOptions } from './ndjson.js';
export { renderJUnit, writeJUnitReport, JUNIT_REPORT_FILE } from './junit.js';
export { renderMarkdownSummary, writeMarkdownSummary, MARKDOWN_REPORT_FILE } from './markdown.js';
export { mergeReports, mergeTimelines, type MergeReportsOptions } from './merge.js';
export { renderComparison } from './report-files.js';
export { renderHtmlReport, writeHtmlReport, HTML_REPORT_FILE, escapeHtml } from './html.js';
export { readReportFile, loadBaseline } from './read-report.js';
export { compareReportFiles, endReporters, mergeReportFiles, MERGE_REPORTERS, type CompareFilesOptions, type CompareFilesResult, type MergeFilesOptions, type MergeFilesResult } from './report-files.js';
export { createProgressReporter, createProgressReporterWith, progressLine, etaText, wantsLiveProgress, writeAboveProgress } from './progress.js';
