/**
 * metrics/: HDR latency histograms (recorded in us, read in ms), k6-style thresholds judged with
 * statistics that fit the sample, and the small exact tests `compare` decides on.
 * Imports nothing of ours but the leaf modules (errors, outcomes, suggest, units).
 */
export * from './latency-recorder.js';
export * from './latency-cells.js';
export * from './latency-shift.js';
export * from './sample-size.js';
export * from './stats.js';
export * from './threshold-parse.js';
export * from './threshold-text.js';
export * from './thresholds.js';
