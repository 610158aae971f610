/**
 * The accounting invariant (docs/architecture.md, Outcomes), checked at the end of every job (run,
 * load, capacity). A mismatch is a bug of droidcheck, never of the target: it throws
 * InternalError (DROIDCHECK_ERR_INTERNAL, exit 70) loudly instead of writing a report that hides
 * a loss.
 *
 * - requests: every planned request ends in exactly one outcome; the outcomes add up to the
 *   requests (planned, for a plan; sent, for a mix);
 * - webhooks: received = matched + duplicates + late + orphans + foreign + badSecret + malformed
 *   (+ published, unavailable in a publishing receiver; + deliveries still parked, 0 once the
 *   receiver is closed); messages and intents: received = accepted + bad secret + malformed +
 *   unavailable (receiver/accounting.ts).
 */
import { InternalError } from '../errors.js';
import { OUTCOMES, type Outcome } from '../outcomes.js';
import { receiverAccountingGap, type InboundStats, type ReceiverStats } from '../receiver/index.js';

/** The figures the report states (report.json `accounting`). */
export interface Accounting {
  /** Requests planned (plan) or sent (mix): what the outcomes must add up to. */
  requests: number;
  sent: number;
  notSent: number;
  /** Sum of the outcome counts. */
  outcomes: number;
  /** Answer webhooks received, and the sum of their classifications. */
  webhooks: { received: number; classified: number };
}

/** Throws InternalError unless `outcomes` add up to `requests`. */
export function assertRequestsAddUp(outcomes: Readonly<Record<Outcome, number>>, requests: number): number {
  const total = OUTCOMES.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
  if (total !== requests)
    throw new InternalError(`accounting: ${requests} requests but ${total} outcomes (${JSON.stringify(outcomes)})`);
  return total;
}

/** Throws InternalError unless the receiver's counters add up (receiver/accounting.ts); returns the classified answer webhooks. */
export function assertReceiverAddsUp(stats: ReceiverStats, parked = 0, inbound?: InboundStats): number {
  const gap = receiverAccountingGap(stats, parked, inbound);
  if (gap !== undefined) throw new InternalError(`accounting: ${gap}`);
  return stats.received;
}

/** Both halves, for a finished job; returns the figures for the report. */
export function checkAccounting(input: {
  outcomes: Readonly<Record<Outcome, number>>;
  requests: number;
  notSent: number;
  receiver: ReceiverStats;
  parked?: number;
  inbound?: InboundStats;
}): Accounting {
  const outcomes = assertRequestsAddUp(input.outcomes, input.requests);
  const classified = assertReceiverAddsUp(input.receiver, input.parked ?? 0, input.inbound);
  return {
    requests: input.requests,
    sent: input.requests - input.notSent,
    notSent: input.notSent,
    outcomes,
    webhooks: { received: input.receiver.received, classified },
  };
}
