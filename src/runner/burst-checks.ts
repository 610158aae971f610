/**
 * The built-in checks of a burst (docs/bursts.md), pure over how its messages went: which
 * answer arrived last, and the findings, each a fact of the order of arrival, never a verdict
 * (only `unanswered` is a defect whatever the service's strategy; runner/burst.ts fails the step
 * for it):
 *
 * - `unanswered`: a message got neither an answer nor an error payload (nor a refusal) by the
 *   deadline; every accepted request ends in one of them (spec: States and transitions);
 * - `declined`: a message got an error payload (spec: Events, "Answer failed") or HTTP 409/429:
 *   the service refused it, a strategy it may choose (reject, interrupt, rollback);
 * - `out-of-order`: an earlier message's answer arrived after a later message's answer;
 * - `stale-last`: the answer that arrived last is not the answer to the last message, so the
 *   last thing the customer saw answers a message they had moved past;
 * - `cart-regressed`: an answer's cart lacks a line that an answer that arrived before it had
 *   (a line is its name, else its code; the spec shows no field of a line, policy/answer.ts
 *   reads the usual ones).
 * Order and staleness count answer payloads only: an error payload answers nothing the customer
 * reads. De-duplication by requestId (spec: Events, rule 3) happens before: a repeated delivery
 * of one requestId is the receiver's `duplicate`, not a second answer.
 */
import { formatMs } from '../units.js';
import type { BurstFinding, BurstMessageRecord } from './types.js';

/** A message as the checks read it: its record and its answer's cart lines (name, else code; compared ignoring case; absent: no cart). */
export type CheckedMessage = BurstMessageRecord & { cartKeys?: readonly string[] };

/** `message 2 (tpa-abc, at 820 ms)`. */
export function messageLabel(m: BurstMessageRecord): string {
  const id = m.requestId !== undefined ? `${m.requestId}, ` : '';
  const at = m.arrivedAtMs !== undefined ? `at ${formatMs(m.arrivedAtMs)}` : 'no answer';
  return `message ${m.index + 1} (${id}${at})`;
}

/** The answered message whose answer arrived last (0-based); undefined when none was answered. */
function lastArrived(answered: readonly CheckedMessage[]): number | undefined {
  let last: CheckedMessage | undefined;
  for (const m of answered) if (last === undefined || m.arrivedAtMs! >= last.arrivedAtMs!) last = m;
  return last?.index;
}

function outOfOrder(answered: readonly CheckedMessage[]): BurstFinding | undefined {
  const late: number[] = [];
  const involved = new Set<number>();
  let first: [CheckedMessage, CheckedMessage] | undefined;
  for (const a of answered) {
    const overtakers = answered.filter((b) => b.index > a.index && b.arrivedAtMs! < a.arrivedAtMs!);
    if (overtakers.length === 0) continue;
    late.push(a.index);
    for (const x of [a, ...overtakers]) involved.add(x.index);
    first ??= [a, overtakers[0]!];
  }
  if (!first) return undefined;
  const [a, b] = first;
  const more = late.length > 1 ? ` (${late.length} answers arrived after a later message's)` : '';
  return {
    check: 'out-of-order',
    messages: [...involved].sort((x, y) => x - y),
    message: `the answer to ${messageLabel(a)} arrived after the answer to ${messageLabel(b)}${more}`,
  };
}

function staleLast(messages: readonly CheckedMessage[], lastDelivered: number): BurstFinding | undefined {
  const lastMessage = messages[messages.length - 1]!;
  if (lastDelivered === lastMessage.index) return undefined;
  const theirs =
    lastMessage.status === 'answered'
      ? 'whose answer arrived before it'
      : lastMessage.status === 'declined'
        ? 'which the service declined'
        : 'which got no answer';
  return {
    check: 'stale-last',
    messages: [lastDelivered, lastMessage.index],
    message: `the last answer delivered is the answer to ${messageLabel(messages[lastDelivered]!)}, not to the last message, ${messageLabel(lastMessage)}, ${theirs}`,
  };
}

const fold = (name: string): string => name.trim().toLowerCase();

function cartRegressed(answered: readonly CheckedMessage[]): BurstFinding | undefined {
  const byArrival = answered.filter((m) => m.cartKeys !== undefined).sort((a, b) => a.arrivedAtMs! - b.arrivedAtMs!);
  for (let j = 1; j < byArrival.length; j++) {
    const later = byArrival[j]!;
    const have = new Set(later.cartKeys!.map(fold));
    for (let i = 0; i < j; i++) {
      const earlier = byArrival[i]!;
      const lost = earlier.cartKeys!.filter((k) => !have.has(fold(k)));
      if (lost.length === 0) continue;
      return {
        check: 'cart-regressed',
        messages: [earlier.index, later.index].sort((x, y) => x - y),
        message: `the cart of the answer to ${messageLabel(later)} lacks ${lost.join(', ')}, which the answer to ${messageLabel(earlier)}, delivered before it, had`,
      };
    }
  }
  return undefined;
}

/** Which answer arrived last, and the findings of the checks (see the module docs), in BURST_CHECKS order. */
export function checkBurst(messages: readonly CheckedMessage[]): {
  lastDelivered: number | undefined;
  findings: BurstFinding[];
} {
  const findings: BurstFinding[] = [];
  const unanswered = messages.filter((m) => m.status === 'unanswered');
  if (unanswered.length > 0)
    findings.push({
      check: 'unanswered',
      messages: unanswered.map((m) => m.index),
      message: `${unanswered.map((m) => `message ${m.index + 1}${m.requestId ? ` (${m.requestId})` : ''}`).join(', ')} got neither an answer nor an error payload (${unanswered[0]!.outcome})`,
    });
  const declined = messages.filter((m) => m.status === 'declined');
  if (declined.length > 0)
    findings.push({
      check: 'declined',
      messages: declined.map((m) => m.index),
      message: `the service declined ${declined.map((m) => `${messageLabel(m)}: ${m.outcome === 'failed' ? 'an error payload' : `HTTP ${m.httpStatus}`}`).join('; ')}`,
    });
  const answered = messages.filter((m) => m.status === 'answered' && m.arrivedAtMs !== undefined);
  const lastDelivered = lastArrived(answered);
  const checks = [
    outOfOrder(answered),
    lastDelivered === undefined ? undefined : staleLast(messages, lastDelivered),
    cartRegressed(answered),
  ];
  for (const f of checks) if (f) findings.push(f);
  return { lastDelivered, findings };
}
