/**
 * Execution segments: how `load --shard i/n` splits one load over n machines exactly
 * (docs/scale.md), after k6's execution segments (k6 docs, "Execution segments": each instance runs
 * a segment of the whole test, `--execution-segment 1/4:2/4` with `--execution-segment-sequence
 * 0,1/4,2/4,3/4,1`, and the segments' iterations add up to the whole test's).
 *
 * The rule (equal segments, k6's striping for a sequence of equal parts):
 * - open model: the whole arrival schedule is computed by every shard (arrival-schedule.ts); its
 *   arrivals are numbered k = 0, 1, 2, ... in time order, and shard i takes those with
 *   k mod n = i - 1, at their intended times. So the shards' arrivals together are the whole
 *   schedule's, each exactly once (to the arrival), and over every stretch of time (every stage,
 *   every prefix) the shards' counts differ by at most one;
 * - closed model: the virtual users k = 0 .. N-1 of `--concurrency N` are dealt the same way;
 * - a request budget (`--max-requests M`) likewise: shard i may send |{k < M : k mod n = i - 1}|.
 * Pure: no clock, no randomness.
 */
import type { Shard } from './shard.js';

/** Shard `index` (1-based) of `total`: the segment ((index-1)/total, index/total] of the whole. */
export type Segment = Shard;

/** The whole: one segment of one. */
export const WHOLE: Segment = Object.freeze({ index: 1, total: 1 });

/** True when arrival (or virtual user, or request) `k` (0-based) of the whole belongs to `segment`. */
export function takes(segment: Segment, k: number): boolean {
  return k % segment.total === segment.index - 1;
}

/**
 * How many of the whole's first `count` items (arrivals, virtual users, requests) belong to
 * `segment`: |{k < count : k mod n = i - 1}|. Summed over i = 1..n it is `count`.
 */
export function shareOf(count: number, segment: Segment): number {
  const offset = segment.index - 1;
  return count <= offset ? 0 : Math.floor((count - offset - 1) / segment.total) + 1;
}

/** How many items with index in [from, to) belong to `segment`. */
export function shareBetween(from: number, to: number, segment: Segment): number {
  return to <= from ? 0 : shareOf(to, segment) - shareOf(from, segment);
}

/** Index (in the whole) of the segment's `j`-th item (0-based). */
export function wholeIndex(segment: Segment, j: number): number {
  return segment.index - 1 + j * segment.total;
}

/** k6's notation of the segment: `0:1/4` ... `3/4:1`. */
export function segmentNotation(segment: Segment): string {
  const { index: i, total: n } = segment;
  const at = (k: number): string => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
  return `${at(i - 1)}:${at(i)}`;
}
