/**
 * The receiver's accounting invariants (ReceiverStats, InboundRouteStats), as data: the runner's
 * end-of-run check and the tests use them.
 */
import type { InboundRouteStats } from './inbound-types.js';
import type { InboundStats, ReceiverStats } from './types.js';

/** All answer-webhook counters zero (a run without a receiver). */
export function emptyReceiverStats(): ReceiverStats {
  return {
    received: 0,
    matched: 0,
    duplicates: 0,
    late: 0,
    orphans: 0,
    foreign: 0,
    badSecret: 0,
    malformed: 0,
    published: 0,
    unavailable: 0,
  };
}

function routeGap(name: string, s: InboundRouteStats): string | undefined {
  const parts = s.accepted + s.badSecret + s.malformed + s.unavailable;
  return parts === s.received
    ? undefined
    : `${name}: received ${s.received} != accepted ${s.accepted} + bad secret ${s.badSecret} + malformed ${s.malformed} + unavailable ${s.unavailable}`;
}

/**
 * undefined when the counters add up, else a sentence saying which sum fails.
 * Answer webhook: received = matched + duplicates + late + orphans + foreign + badSecret
 * + malformed + published + unavailable + parked (`parked`: parkedCount(), 0 after close).
 * Messages and intents (when `inbound` is given): received = accepted + badSecret + malformed + unavailable.
 */
export function receiverAccountingGap(s: ReceiverStats, parked = 0, inbound?: InboundStats): string | undefined {
  const parts =
    s.matched +
    s.duplicates +
    s.late +
    s.orphans +
    s.foreign +
    s.badSecret +
    s.malformed +
    s.published +
    s.unavailable +
    parked;
  const gaps: string[] = [];
  if (parts !== s.received) {
    gaps.push(
      `answer webhook: received ${s.received} != matched ${s.matched} + duplicates ${s.duplicates} + late ${s.late} + orphans ${s.orphans}` +
        ` + foreign ${s.foreign} + bad secret ${s.badSecret} + malformed ${s.malformed} + published ${s.published}` +
        ` + unavailable ${s.unavailable} + parked ${parked}`,
    );
  }
  if (inbound !== undefined) {
    const m = routeGap('message webhook', inbound.messages);
    const i = routeGap('intent webhook', inbound.intents);
    if (m !== undefined) gaps.push(m);
    if (i !== undefined) gaps.push(i);
  }
  return gaps.length === 0 ? undefined : gaps.join('; ');
}
