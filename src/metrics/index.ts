/**
 * metrics/: HDR latency histograms (recorded in us, read in ms) and k6-style thresholds.
 * Imports nothing of ours but errors.ts.
 */
export * from './latency-recorder.js';
export * from './thresholds.js';
export { didYouMean, editDistance } from './did-you-mean.js';
export * from './latency-shift.js';
export * from './sample-size.js';
export * from './stats.js';
