/**
 * zod pieces the sections share (units in the descriptions, as report.schema.json shows them)
 * and the compile-time check that a section's schema describes a type that lives elsewhere
 * (runner/, receiver/, metrics/: they cannot import report/, so their types stay theirs).
 *
 * Objects are strict (`z.strictObject`): `compare`, `merge` and `--baseline` read reports back
 * through these schemas, and a field this droidcheck does not know (a newer writer, a hand
 * edit) is refused with its path rather than silently dropped from what they write. The same
 * strictness puts `additionalProperties: false` in report.schema.json, so the readback tests
 * catch a field written but not described.
 */
import { z } from 'zod';
import { UNSUPPORTED_CELL, minSamplesForStat } from '../../metrics/index.js';
import { OUTCOMES } from '../../outcomes.js';
import { formatMs } from '../../units.js';

/**
 * Whether a report counts requests (outcomes, latency, passed and failed): its summary has some,
 * or its latency has samples. False when its job sent none through the engine (webhook-policy's probes measure the service's retries and are no
 * tallied requests; a load stopped before its first arrival), so those views have nothing to
 * show. Decided from the figures, never from the job's kind.
 */
export const countsRequests = (d: {
  summary: { requests: number };
  latency?: Readonly<Record<string, { count: number }>>;
}): boolean => d.summary.requests > 0 || Object.values(d.latency ?? {}).some((l) => l.count > 0);

export const obj = z.strictObject;
export const ms = z.number().nonnegative().describe('milliseconds');
export const count = z.number().int().nonnegative();
export const share = z.number().min(0).max(1).describe('0..1');
export const modeEnum = z.enum(['sync', 'async']);
export const outcomeEnum = z.enum(OUTCOMES);
export const outcomeCounts = obj(
  Object.fromEntries(OUTCOMES.map((o) => [o, count])) as Record<(typeof OUTCOMES)[number], typeof count>,
);
export const sourceLocationSchema = obj({ file: z.string(), line: z.number().int(), col: z.number().int() });
export const recordErrorSchema = obj({
  code: z.string(),
  message: z.string(),
  excerpt: z.string().optional(),
  cause: z.string().optional(),
});
export const latencySummarySchema = obj({ count, p50: ms, p90: ms, p99: ms, p999: ms, max: ms, min: ms, mean: ms });

/**
 * True only when A and B are the same type: every field on both sides, optional alike (a plain
 * two-way assignability check passes when an optional field exists on one side only).
 */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** `const _x: Assert<Same<A, B>> = true;` fails to compile unless A and B are the same type. */
export type Assert<T extends true> = T;

/** A percentile in ms, or `—` when `count` samples cannot support it (p99: 100, p99.9: 1,000), as the latency table prints it. */
export function statMs(value: number, count: number, stat: 'p50' | 'p90' | 'p99' | 'p999'): string {
  return count < minSamplesForStat(stat) ? UNSUPPORTED_CELL : formatMs(value);
}

/** How often something was found (metrics/pass-share.ts FindingShare). */
const findingShareSchema = obj({
  count: count.describe('cases with the finding'),
  share: share.nullable().describe('count / total, 0..1; null when nothing was looked at'),
  interval: obj({ low: share, high: share }).describe('Wilson 95% interval of the share, 0..1'),
});

/** The shares of bursts with each finding among `total` (runner/burst-tally.ts BurstShares). */
export const burstSharesSchema = obj({
  total: count.describe('bursts judged'),
  outOfOrder: findingShareSchema.describe('bursts with an answer delivered after a later message’s answer'),
  staleLast: findingShareSchema.describe('bursts whose last answer delivered is not the answer to the last message'),
  cartRegressed: findingShareSchema.describe(
    'bursts with an answer whose cart lacks a line an answer delivered before it had',
  ),
});
