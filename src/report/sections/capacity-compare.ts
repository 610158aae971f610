/**
 * What `compare` (and `--baseline`) says of two capacity reports: whether the knee moved. The
 * knee is the last rate where every criterion held, answers right included (`capacity.maxRate`);
 * the latency-only capacity is compared beside it, so a droid that got faster but answers worse
 * shows as a latency knee moving up while the answers' knee moves down. A search measures rates
 * on a grid, so a move is told in the rates measured; it is said, never a regression by itself
 * (a move of one step may be noise: run the search again before acting on it).
 */
import { z } from 'zod';
import { formatRate } from '../../units.js';
import type { Text } from '../view.js';
import type { CapacitySection } from './capacity.js';
import { obj } from './common.js';

const move = z.enum(['up', 'down', 'same']);
const kneeSide = obj({
  maxRate: z.number().nullable().describe('the last rate where every criterion held, req/s; null when none'),
  latencyMaxRate: z.number().nullable().describe('the latency-only capacity, req/s; null when none'),
  endedBy: z.array(z.string()).describe('the criteria that failed at the lowest failing rate'),
});
export const kneeComparisonSchema = obj({
  base: kneeSide,
  current: kneeSide,
  moved: move.describe('where the knee (every criterion, answers right included) went: up, down or the same rate'),
  latencyMoved: move.describe('where the latency-only capacity went'),
});
export type KneeComparison = z.output<typeof kneeComparisonSchema>;

const sideOf = (c: CapacitySection): KneeComparison['base'] => ({
  maxRate: c.maxRate,
  // A report of a droidcheck that judged latency only: its capacity is the latency-only one.
  latencyMaxRate: c.latencyOnly ? c.latencyOnly.maxRate : c.maxRate,
  endedBy: c.endedBy?.criteria ?? [],
});

/** null (no rate) is below every rate. */
const moveOf = (from: number | null, to: number | null): z.output<typeof move> => {
  const a = from ?? -1;
  const b = to ?? -1;
  return b > a ? 'up' : b < a ? 'down' : 'same';
};

/** The knees of two capacity reports; undefined unless both are capacity searches. */
export function compareKnees(
  base: { capacity?: CapacitySection | undefined },
  current: { capacity?: CapacitySection | undefined },
): KneeComparison | undefined {
  if (!base.capacity || !current.capacity) return undefined;
  const b = sideOf(base.capacity);
  const c = sideOf(current.capacity);
  return {
    base: b,
    current: c,
    moved: moveOf(b.maxRate, c.maxRate),
    latencyMoved: moveOf(b.latencyMaxRate, c.latencyMaxRate),
  };
}

const rate = (r: number | null): string => (r === null ? 'no rate' : formatRate(r));
const ended = (e: readonly string[]): string => (e.length > 0 ? ` (ended by ${e.join(', ')})` : '');

/** One note per knee: `the knee moved down: 40 req/s -> 20 req/s (ended by answers)`. */
export function kneeNotes(k: KneeComparison | undefined): Text[] {
  if (!k) return [];
  const said = (what: string, m: z.output<typeof move>, from: number | null, to: number | null, tail = ''): string =>
    m === 'same'
      ? `${what} did not move: ${rate(to)}${tail}`
      : `${what} moved ${m}: ${rate(from)} -> ${rate(to)}${tail}`;
  return [
    said(
      'the knee (answers right and latency held)',
      k.moved,
      k.base.maxRate,
      k.current.maxRate,
      ended(k.current.endedBy),
    ),
    said('the latency-only capacity', k.latencyMoved, k.base.latencyMaxRate, k.current.latencyMaxRate),
  ];
}
