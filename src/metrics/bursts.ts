/**
 * The figures of a job's bursts (docs/bursts.md): how many were judged, how many had each
 * finding, and the shares the report and the thresholds read (`burst.out_of_order.rate`, ...).
 * Counted by the runner (runner/burst-tally.ts), added up the same way wherever parts meet: the
 * capacity search's steps (runner/combine.ts), a load's intervals, shards (`droidcheck merge`).
 */
import { findingShare, type FindingShare } from './pass-share.js';

/** Findings report.json keeps (the counts count every one). */
export const MAX_BURST_FINDINGS = 100;

/** Bursts judged, and bursts with each finding (a burst counts once per check, however many messages it involved). */
export interface BurstCounts {
  total: number;
  /** A message got neither an answer nor an error payload (a defect whatever the service's strategy). */
  unanswered: number;
  /** A message got an error payload, or HTTP 409 or 429 (a strategy a service may choose). */
  declined: number;
  /** An earlier message's answer arrived after a later message's. */
  outOfOrder: number;
  /** The last answer delivered is not the answer to the last message. */
  staleLast: number;
  /** An answer's cart lacks a line an answer delivered before it had. */
  cartRegressed: number;
}

/** The finding counts, in the checks' order (runner/types.ts BURST_CHECKS). */
const BURST_COUNT_FIELDS = ['unanswered', 'declined', 'outOfOrder', 'staleLast', 'cartRegressed'] as const;
export type BurstCountField = (typeof BURST_COUNT_FIELDS)[number];

export const zeroBurstCounts = (): BurstCounts => ({
  total: 0,
  unanswered: 0,
  declined: 0,
  outOfOrder: 0,
  staleLast: 0,
  cartRegressed: 0,
});

/** Counts and the first findings of some bursts. */
export interface BurstFigures<F> extends BurstCounts {
  findings: F[];
}

/** Several parts' figures as one: counts added, the first MAX_BURST_FINDINGS findings kept in part order; undefined when no part has any. */
export function mergeBurstFigures<F>(parts: readonly (BurstFigures<F> | undefined)[]): BurstFigures<F> | undefined {
  const present = parts.filter((p): p is BurstFigures<F> => p !== undefined);
  if (present.length === 0) return undefined;
  const counts = zeroBurstCounts();
  for (const p of present) {
    counts.total += p.total;
    for (const f of BURST_COUNT_FIELDS) counts[f] += p[f];
  }
  return { ...counts, findings: present.flatMap((p) => p.findings).slice(0, MAX_BURST_FINDINGS) };
}

/**
 * The shares of bursts answered out of order, with a stale last answer and with a cart that
 * regressed, among `total` (a load interval's, a capacity step's): beside the share of answers
 * right, what customers who do not wait see.
 */
export interface BurstShares {
  total: number;
  outOfOrder: FindingShare;
  staleLast: FindingShare;
  cartRegressed: FindingShare;
}

/** The shares of `counts`; undefined when no burst was judged. */
export function burstShares(
  counts: Pick<BurstCounts, 'total' | 'outOfOrder' | 'staleLast' | 'cartRegressed'>,
): BurstShares | undefined {
  if (counts.total === 0) return undefined;
  return {
    total: counts.total,
    outOfOrder: findingShare(counts.outOfOrder, counts.total),
    staleLast: findingShare(counts.staleLast, counts.total),
    cartRegressed: findingShare(counts.cartRegressed, counts.total),
  };
}
