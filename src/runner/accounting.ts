/**
 * The accounting invariant (DESIGN.md, Measurements), checked at the end of every job (run,
 * load, capacity). A mismatch is a bug of droidcheck, never of the target: it throws
 * InternalError (DROIDCHECK_ERR_INTERNAL, exit 70) loudly instead of writing a report that hides
 * a loss.
 *
 * - requests: every planned request ends in exactly one outcome; the outcomes add up to the
 *   requests (planned, for a plan; sent, for a mix);
 * - webhooks: received = matched + duplicates + late + orphans + foreign + badSecret + malformed
 *   (+ deliveries still parked, which is 0 once the receiver is closed).
 */
import { InternalError } from '../errors.js';
import { OUTCOMES, type Outcome } from '../outcomes.js';
import type { ReceiverStats } from '../receiver/index.js';

/** The figures the report states (report.json `accounting`). */
export interface Accounting {
  /** Requests planned (plan) or sent (mix): what the outcomes must add up to. */
  requests: number;
  sent: number;
  notSent: number;
  /** Sum of the outcome counts. */
  outcomes: number;
  /** Webhooks received, and the sum of their classifications. */
  webhooks: { received: number; classified: number };
}

/** Throws InternalError unless `outcomes` add up to `requests`. */
export function assertRequestsAddUp(outcomes: Readonly<Record<Outcome, number>>, requests: number): number {
  const total = OUTCOMES.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
  if (total !== requests) throw new InternalError(`accounting: ${requests} requests but ${total} outcomes (${JSON.stringify(outcomes)})`);
  return total;
}

/** The classified deliveries of `stats` (+ `parked`). */
export function classifiedWebhooks(stats: ReceiverStats, parked = 0): number {
  const foreign = (stats as { foreign?: number }).foreign ?? 0;
  return stats.matched + stats.duplicates + stats.late + stats.orphans + foreign + stats.badSecret + stats.malformed + parked;
}

/** Throws InternalError unless received = the sum of the classifications (+ parked). */
export function assertReceiverAddsUp(stats: ReceiverStats, parked = 0): number {
  const parts = classifiedWebhooks(stats, parked);
  if (parts !== stats.received) {
    throw new InternalError(
      `accounting: webhooks received ${stats.received} != matched ${stats.matched} + duplicates ${stats.duplicates} + late ${stats.late}` +
        ` + orphans ${stats.orphans} + foreign ${(stats as { foreign?: number }).foreign ?? 0} + bad-secret ${stats.badSecret} + malformed ${stats.malformed} + parked ${parked}`,
    );
  }
  return parts;
}

/** Both halves, for a finished job; returns the figures for the report. */
export function checkAccounting(input: { outcomes: Readonly<Record<Outcome, number>>; requests: number; notSent: number; receiver: ReceiverStats; parked?: number }): Accounting {
  const outcomes = assertRequestsAddUp(input.outcomes, input.requests);
  const classified = assertReceiverAddsUp(input.receiver, input.parked ?? 0);
  return { requests: input.requests, sent: input.requests - input.notSent, notSent: input.notSent, outcomes, webhooks: { received: input.receiver.received, classified } };
}
