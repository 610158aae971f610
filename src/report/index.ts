/**
 * report/: the ReportDocument (compute) and its renderings (console, JSON, ...).
 */
export * from './report-document.js';
export * from './build-report.js';
export * from './console.js';
export * from './json.js';
export * from './reporter.js';
export * from './ndjson.js';
export * from './report-schema.js';
export * from './junit.js';
export * from './markdown.js';
export * from './merge.js';
export * from './compare.js';
export * from './html.js';
export * from './read-report.js';
export * from './merge-sections.js';
export * from './report-files.js';
export * from './progress.js';
export * from './html-charts.js';
