/**
 * A latency summary's figures as table cells, each with its unit, and percentiles the count
 * cannot support marked (a p99 of 20 samples is the maximum, so it is shown as such; Gatling
 * and wrk2 print the count behind each figure too). Pure: reporters put the cells in their own
 * tables.
 *
 *   metric  count  p50      p90      p99      p99.9  max
 *   ack     16     2.1 ms   3.4 ms   —        —      41.2 ms
 *   answer  0      no samples
 */
import { formatMs } from '../units.js';
import type { LatencySummary } from './latency-recorder.js';
import { STAT_PERCENTILES, minSamplesFor } from './sample-size.js';

/** The percentile columns of a latency table, in order, with their headers. */
const LATENCY_COLUMNS = [
  { stat: 'p50', header: 'p50' },
  { stat: 'p90', header: 'p90' },
  { stat: 'p99', header: 'p99' },
  { stat: 'p999', header: 'p99.9' },
] as const;

/** Header cells: metric, count, p50, p90, p99, p99.9, max. */
export const LATENCY_HEADER: readonly string[] = ['metric', 'count', ...LATENCY_COLUMNS.map((c) => c.header), 'max'];

/** Shown in a cell whose percentile the count cannot support. */
export const UNSUPPORTED_CELL = '—';
/** Shown after the count of an empty metric. */
const NO_SAMPLES = 'no samples';

/** The footnote explaining {@link UNSUPPORTED_CELL}. */
export const LATENCY_FOOTNOTE = `${UNSUPPORTED_CELL} fewer samples than the percentile needs (p50 2, p90 10, p99 100, p99.9 1,000): it is the max`;

export interface LatencyCells {
  /** No samples: `count` is `0` and every figure cell is empty but the first (`no samples`). */
  empty: boolean;
  /** Some percentile is {@link UNSUPPORTED_CELL}. */
  unsupported: boolean;
  /** count, p50, p90, p99, p99.9, max (the metric's name is the caller's). */
  cells: string[];
}

/**
 * Cells of one summary (ms): the count, then each percentile with its unit (`12.3 ms`) or
 * {@link UNSUPPORTED_CELL} when `count < minSamplesFor(p)`, then the max. An empty summary gives
 * `['0', 'no samples', '', '', '', '']`, never zeros.
 */
export function latencyCells(s: LatencySummary): LatencyCells {
  if (s.count === 0) return { empty: true, unsupported: false, cells: ['0', NO_SAMPLES, '', '', '', ''] };
  let unsupported = false;
  const figures = LATENCY_COLUMNS.map(({ stat }) => {
    if (s.count < minSamplesFor(STAT_PERCENTILES[stat] ?? 100)) {
      unsupported = true;
      return UNSUPPORTED_CELL;
    }
    return formatMs(s[stat]);
  });
  return { empty: false, unsupported, cells: [String(s.count), ...figures, formatMs(s.max)] };
}
