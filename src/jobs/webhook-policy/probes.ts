/**
 * The probes of `droidcheck webhook-policy` and what their attempts say (pure: no I/O, so the
 * derivations are tested on hand-made attempts too). Each probe is one async answer whose
 * deliveries the receiver mishandles on purpose through a response plan
 * (receiver/response-plan.ts):
 * - fail: 500 to every attempt: how many attempts, the delay after each 500, when it gives up;
 * - recover: 503 then 200: whether a 503 is retried;
 * - stall: the first attempt accepted and never answered, then 200: the per-attempt timeout;
 * - slow: 200 after 6 s (just over the documented "answer within 5 s"): whether the service,
 *   having given up on the slow attempt, delivers the same answer again (a duplicate).
 * How each figure is derived: docs/webhook-policy.md.
 */
import type { ProbeName } from '../../config/index.js';
import type { WebhookPolicyProbe, WebhookPolicyReport } from '../../report/index.js';
import { delay, STALL, status, USUAL, type Attempt, type PlanStep } from '../../receiver/index.js';
import { formatMs } from '../../units.js';

/** The slow probe's answer delay: just over the documented 5 s. */
const SLOW_ANSWER_MS = 6_000;

export const PROBE_PLANS: Readonly<Record<ProbeName, { steps: readonly PlanStep[]; after: PlanStep }>> = {
  fail: { steps: [], after: status(500) },
  recover: { steps: [status(503)], after: USUAL },
  stall: { steps: [STALL], after: USUAL },
  slow: { steps: [delay(SLOW_ANSWER_MS)], after: USUAL },
};

export interface ProbeState {
  probe: ProbeName;
  requestId: string | null;
  error?: string;
  /** clock ms of the request's start. */
  sentAt: number;
  attempts: readonly Attempt[];
}

const stepText = (s: PlanStep): string =>
  s.kind === 'status' ? `status ${s.status}` : s.kind === 'delay' ? `200 after ${s.ms} ms` : s.kind;
const round = (x: number): number => Math.round(x * 10) / 10;

/** Gaps between consecutive arrivals, ms. */
function gaps(attempts: readonly Attempt[]): number[] {
  return attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
}

/** The last arrival or answer of a probe (clock ms); its ack when nothing arrived. */
function lastEvent(p: ProbeState): number {
  return Math.max(p.sentAt, ...p.attempts.map((a) => Math.max(a.at, a.answeredAt ?? 0)));
}

/** True when a usual answer (200 in time) reached the service: nothing more will come. */
function delivered(p: ProbeState): boolean {
  return p.attempts.some((a) => a.step.kind === 'usual' && a.status !== undefined && a.status >= 200 && a.status < 300);
}

/** The quiet period that means "gave up": twice the longest gap seen plus 1 s, at least `minMs`. */
export function quietPeriod(probes: readonly ProbeState[], minMs: number): number {
  const longest = Math.max(0, ...probes.flatMap((p) => gaps(p.attempts)));
  return Math.max(minMs, Math.round(2 * longest + 1_000));
}

/** Settled: refused, delivered, or quiet for `quietMs` after its last event. */
export function settled(p: ProbeState, now: number, quietMs: number): boolean {
  return p.requestId === null || delivered(p) || now - lastEvent(p) >= quietMs;
}

function probeEntry(p: ProbeState, isSettled: boolean): WebhookPolicyProbe {
  return {
    probe: p.probe,
    requestId: p.requestId,
    ...(p.error !== undefined && { error: p.error }),
    settled: isSettled,
    attempts: p.attempts.map((a) => ({
      n: a.n,
      afterMs: round(Math.max(0, a.at - p.sentAt)),
      step: stepText(a.step),
      status: a.status ?? null,
      answeredAfterMs: a.answeredAt === undefined || a.status === undefined ? null : round(a.answeredAt - a.at),
    })),
  };
}

/** From each answered attempt to the next arrival, ms. */
function delaysAfterAnswers(attempts: readonly Attempt[]): number[] {
  return attempts.slice(1).map((a, i) => round(a.at - (attempts[i]!.answeredAt ?? attempts[i]!.at)));
}

/** The figures of report.json's webhookPolicy, without findings. */
export function derivePolicy(
  probes: readonly ProbeState[],
  quietMs: number,
  settledAll: (p: ProbeState) => boolean,
): Omit<WebhookPolicyReport, 'findings' | 'configured'> {
  const by = (name: ProbeName) => probes.find((p) => p.probe === name && p.requestId !== null);
  const fail = by('fail');
  const recover = by('recover');
  const stall = by('stall');
  const slow = by('slow');
  const retryDelaysMs = fail ? delaysAfterAnswers(fail.attempts) : [];
  const retriesOn: WebhookPolicyReport['retriesOn'] = [];
  if (fail && fail.attempts.length > 1) retriesOn.push('500');
  if (recover && recover.attempts.length > 1) retriesOn.push('503');
  if (stall && stall.attempts.length > 1) retriesOn.push('timeout');
  // The delay after a first failure: the mean of the fail and recover probes' (a jittered
  // delay is one draw; two draws are nearer its base).
  const firsts = [retryDelaysMs[0], recover ? delaysAfterAnswers(recover.attempts)[0] : undefined].filter(
    (x): x is number => x !== undefined,
  );
  const firstDelay = firsts.length > 0 ? firsts.reduce((a, x) => a + x, 0) / firsts.length : undefined;
  let attemptTimeoutMs: number | null = null;
  if (stall && stall.attempts.length > 1)
    attemptTimeoutMs = round(Math.max(0, stall.attempts[1]!.at - stall.attempts[0]!.at - (firstDelay ?? 0)));
  const slowAnswered = slow !== undefined && slow.attempts.length > 0 && slow.attempts[0]!.answeredAt !== undefined;
  return {
    attempts: fail ? fail.attempts.length : null,
    retryDelaysMs,
    attemptTimeoutMs,
    givesUpAfterMs: fail && fail.attempts.length > 0 ? round(fail.attempts.at(-1)!.at - fail.attempts[0]!.at) : null,
    retriesOn,
    duplicateAfterSlow200: slow === undefined ? null : slow.attempts.length > 1 ? true : slowAnswered ? false : null,
    quietMs,
    complete: probes.every(settledAll),
    probes: probes.map((p) => probeEntry(p, settledAll(p))),
  };
}

/** One sentence per finding, and the comparison with the documented hints. */
export function findings(p: Omit<WebhookPolicyReport, 'findings'>): string[] {
  const out: string[] = [];
  const q = formatMs(p.quietMs);
  if (p.attempts !== null) {
    out.push(
      p.attempts <= 1
        ? `An answer whose first attempt got 500 was not delivered again within ${q} of quiet: no retry on 500 was seen.`
        : `An answer whose every attempt got 500 was delivered ${p.attempts} times in all, over ${formatMs(p.givesUpAfterMs ?? 0)} from the first attempt to the last, then no more within ${q}.`,
    );
    if (p.retryDelaysMs.length > 0) {
      const d = p.retryDelaysMs;
      const ratios = d.slice(1).map((x, i) => x / Math.max(1, d[i]!));
      const growth =
        ratios.length === 0
          ? ''
          : ratios.every((r) => r > 1.5)
            ? ' (growing: a backoff)'
            : ratios.every((r) => r > 0.8 && r < 1.25)
              ? ' (about constant)'
              : '';
      out.push(`From each 500 to the next attempt: ${d.map((x) => formatMs(x)).join(', ')}${growth}.`);
    }
  }
  const recover = p.probes.find((x) => x.probe === 'recover' && x.requestId !== null);
  if (recover)
    out.push(
      p.retriesOn.includes('503')
        ? `A 503 was retried: the next attempt came ${formatMs(recover.attempts[1]!.afterMs - recover.attempts[0]!.afterMs)} after the first.`
        : `A 503 was not retried within ${q}.`,
    );
  const stall = p.probes.find((x) => x.probe === 'stall' && x.requestId !== null);
  if (stall) {
    if (p.attemptTimeoutMs !== null) {
      const vs = p.attemptTimeoutMs > 5_500 ? 'longer than' : p.attemptTimeoutMs < 4_500 ? 'shorter than' : 'about';
      out.push(
        `An attempt left unanswered was abandoned after about ${formatMs(p.attemptTimeoutMs)} and retried: ${vs} the documented "answer within 5 s".`,
      );
    } else
      out.push(
        `An attempt left unanswered was not followed by another within ${q}: no retry after a timeout was seen, so the attempt timeout is not known.`,
      );
  }
  if (p.duplicateAfterSlow200 !== null) {
    out.push(
      p.duplicateAfterSlow200
        ? `A 200 given after ${SLOW_ANSWER_MS / 1000} s was followed by another delivery of the same answer: a receiver slower than the attempt timeout sees duplicates (dedupe by requestId).`
        : `A 200 given after ${SLOW_ANSWER_MS / 1000} s ended the delivery: no duplicate within ${q}.`,
    );
  }
  out.push(
    'The service\'s documentation says only that failed deliveries are "retried per a retry policy" (count, spacing and final state not shown); these are the measured figures.',
  );
  if (!p.complete)
    out.push(
      'Cut short before every probe settled (--timeout or an interrupt): later attempts may have come; the figures are lower bounds.',
    );
  if (p.configured) {
    const c = p.configured;
    out.push(
      `The embedded emulator is configured with ${c.attempts} attempts, a backoff of ${formatMs(c.backoffMs)} × 2^(n-1) with ±${Math.round(c.jitter * 100)}% jitter and a ${formatMs(c.timeoutMs)} attempt timeout: the measured figures should agree${c.jitter > 0 ? ' within that jitter (--webhook-jitter 0 for the exact schedule)' : ''}.`,
    );
  }
  return out;
}
