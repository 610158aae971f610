/**
 * metrics/: HDR latency histograms (recorded in us, read in ms), k6-style thresholds judged with
 * statistics that fit the sample, and the small exact tests `compare` decides on.
 * Imports nothing of ours but the leaf modules (errors, outcomes, suggest, units).
 */
export * from './latency-recorder.js';
export * from './latency-cells.js';
export * from './latency-shift.js';
export * from './sample-size.js';
export * from './pass-share.js';
export * from './bursts.js';
export * from './stats.js';
export * from './threshold-parse.js';
export * from './threshold-text.js';
export * from './thresholds.js';
export * from './thresholds-trust.js';
// Prometheus export (prometheus.ts, metrics-server.ts) loads prom-client (~80 ms): import those
// modules where --metrics-port asks for them (jobs/pipeline/live-metrics.ts); only their types here.
export type {
  CoverageShareFigures,
  LiveMetrics,
  LatencySources,
  WebhookTotals,
} from './prometheus.js';
export type { MetricsServer } from './metrics-server.js';
