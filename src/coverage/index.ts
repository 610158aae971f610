/**
 * What the suites never touched (docs/coverage.md): the shop's products, its intents, the stages
 * of a sale, the policy's rules and the service's endpoints, counted as a job sends and as its
 * answers come (`CoverageRecorder`), merged across shards, compared with a baseline, and turned
 * into a scenario table that covers the products a run missed (`gapTable`).
 */
export { compareCoverage, type CoverageComparison, type CoverageDelta } from './compare.js';
export { GAP_QUANTITY, gapRows, gapTable, type GapRow } from './gap-table.js';
export { mergeCoverage } from './merge.js';
export { CoverageRecorder } from './recorder.js';
export type * from './types.js';
