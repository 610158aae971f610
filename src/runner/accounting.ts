/**
 * The accounting invariant (issue 7, Nothing lost; DESIGN.md, Measurements), checked at the end
 * of every run. A mismatch is a bug of droidcheck, never of the target: it throws InternalError
 * (DROIDCHECK_ERR_INTERNAL, exit 70) loudly instead of writing a report that hides a loss.
 *
 * - requests: every planned request ends in exactly one outcome of OUTCOMES, and the outcome
 *   counts add up to the requests sent;
 * - webhooks: received = matched + duplicates + late + orphans + badSecret + malformed
 *   (+ deliveries still parked, which is 0 once the receiver is closed).
 */
import { InternalError } from '../errors.js';
import type { ReceiverStats } from '../receiver/index.js';
import { OUTCOMES, type Outcome, type RequestRecord } from './types.js';

/** Outcome counts of `records`; throws InternalError for a hole or an unknown outcome. */
export function countOutcomes(records: readonly (RequestRecord | undefined)[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === undefined) throw new InternalError(`accounting: request #${i} ended without an outcome`);
    if (!(OUTCOMES as readonly string[]).includes(r.outcome)) {
      throw new InternalError(`accounting: request #${i} ended with unknown outcome "${String(r.outcome)}"`);
    }
    counts[r.outcome]++;
  }
  return counts;
}

/** Throws InternalError unless the outcomes of `records` add up to `sent` requests. */
export function assertRequestsAddUp(records: readonly (RequestRecord | undefined)[], sent: number): Record<Outcome, number> {
  const counts = countOutcomes(records);
  const total = OUTCOMES.reduce((sum, o) => sum + counts[o], 0);
  if (total !== sent || records.length !== sent) {
    throw new InternalError(`accounting: ${sent} requests sent but ${total} outcomes (${JSON.stringify(counts)})`);
  }
  return counts;
}

/** The receiver side of the invariant; `parked` = deliveries not yet claimed (0 after close). */
export function assertReceiverAddsUp(stats: ReceiverStats, parked = 0): void {
  const parts = stats.matched + stats.duplicates + stats.late + stats.orphans + stats.badSecret + stats.malformed + parked;
  if (parts !== stats.received) {
    throw new InternalError(
      `accounting: webhooks received ${stats.received} != matched ${stats.matched} + duplicates ${stats.duplicates} + late ${stats.late}` +
        ` + orphans ${stats.orphans} + bad-secret ${stats.badSecret} + malformed ${stats.malformed} + parked ${parked}`,
    );
  }
}

/** Both halves, for a finished run: `records` of the run, the receiver's stats after close. */
export function assertRunAccounting(run: { records: readonly (RequestRecord | undefined)[]; receiver: ReceiverStats }, parked = 0): void {
  assertRequestsAddUp(run.records, run.records.length);
  assertReceiverAddsUp(run.receiver, parked);
}
