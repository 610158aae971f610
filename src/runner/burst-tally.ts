/**
 * The bursts of a job, counted as records end (tally.ts), so a load keeps no record: bursts
 * judged, bursts with each finding (docs/bursts.md), and the first MAX_BURST_FINDINGS findings
 * with their evidence (scenario, mode, requestIds, every message's send and arrival time). A
 * burst the run interrupted was not judged and counts in nothing.
 */
import { MAX_BURST_FINDINGS, zeroBurstCounts, type BurstCounts, type BurstFigures } from '../metrics/index.js';
import type { AnswerMode } from '../scenario/index.js';
import type { BurstCheck, BurstMessageStatus, BurstRecord, RequestRecord } from './types.js';

/** The count field of each check. */
const COUNT_OF: Record<BurstCheck, Exclude<keyof BurstCounts, 'total'>> = {
  unanswered: 'unanswered',
  declined: 'declined',
  'out-of-order': 'outOfOrder',
  'stale-last': 'staleLast',
  'cart-regressed': 'cartRegressed',
};

/** One message of a finding's burst: 1-based number, times in ms from the burst's start (arrival null: nothing came). */
interface BurstArrival {
  message: number;
  requestId?: string;
  sentAtMs: number;
  arrivedAtMs: number | null;
  status: BurstMessageStatus;
}

/** One finding with its evidence, as report.json keeps it. */
export interface BurstFindingEntry {
  check: BurstCheck;
  suite: string;
  scenario: string;
  mode: AnswerMode;
  /** The burst's step, 1-based. */
  step: number;
  /** The requestIds of the messages the finding involves. */
  requestIds: string[];
  /** Every message of the burst, in the order sent. */
  arrivals: BurstArrival[];
  /** The requestId of the answer delivered last, and of the last message (either absent when it had none). */
  lastDelivered?: string;
  lastMessage?: string;
  message: string;
}

export type BurstSnapshot = BurstFigures<BurstFindingEntry>;

/** Adds one judged burst's findings to `counts` (an interrupted one adds nothing). */
export function countBurst(counts: BurstCounts, burst: BurstRecord): void {
  if (burst.interrupted) return;
  counts.total += 1;
  for (const check of new Set(burst.findings.map((f) => f.check))) counts[COUNT_OF[check]] += 1;
}

function entriesOf(record: RequestRecord, burst: BurstRecord): BurstFindingEntry[] {
  const arrivals = burst.messages.map(
    (m): BurstArrival => ({
      message: m.index + 1,
      ...(m.requestId !== undefined && { requestId: m.requestId }),
      sentAtMs: m.sentAtMs,
      arrivedAtMs: m.arrivedAtMs ?? null,
      status: m.status,
    }),
  );
  const last = burst.messages[burst.messages.length - 1];
  const delivered = burst.lastDelivered === undefined ? undefined : burst.messages[burst.lastDelivered];
  return burst.findings.map((f) => ({
    check: f.check,
    suite: record.suite,
    scenario: record.scenario,
    mode: record.mode,
    step: burst.step + 1,
    requestIds: f.messages.flatMap((i) => {
      const id = burst.messages[i]?.requestId;
      return id === undefined ? [] : [id];
    }),
    arrivals,
    ...(delivered?.requestId !== undefined && { lastDelivered: delivered.requestId }),
    ...(last?.requestId !== undefined && { lastMessage: last.requestId }),
    message: f.message,
  }));
}

/** The bursts of the records that ended (see the module docs). */
export class BurstTally {
  readonly counts = zeroBurstCounts();
  readonly #findings: BurstFindingEntry[] = [];

  add(record: RequestRecord): void {
    for (const burst of record.bursts ?? []) {
      countBurst(this.counts, burst);
      if (burst.interrupted) continue;
      for (const e of entriesOf(record, burst)) if (this.#findings.length < MAX_BURST_FINDINGS) this.#findings.push(e);
    }
  }

  /** The counts and findings; undefined when no burst was judged. */
  snapshot(): BurstSnapshot | undefined {
    return this.counts.total === 0 ? undefined : { ...this.counts, findings: [...this.#findings] };
  }
}
