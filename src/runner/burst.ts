/**
 * A `burst` step (docs/bursts.md): the customer's messages sent `gapMs` apart, none waiting for
 * an answer, each an answer turn in the planned mode (answer-turn.ts: async, the submit and its
 * webhook; sync, a connection held open per message, so several are held at once).
 *
 * - What each message sends: the history before the burst (the scenario's chatHistory and the
 *   earlier turns), then the burst's earlier messages and only the answers that had arrived
 *   when it was sent, in the order they happened (a message at its send time, an answer at its
 *   arrival), as a real integration's log would hold them. An error payload adds nothing to it.
 * - Timing: message k's intended start is the step's start + k * gap, waited for on the run's
 *   injected clock (`clock.sleep`, the clock its latencies are measured on), and its latencies
 *   run from there, as every request's under the open model; each message is an answer turn of
 *   the conversation (the report's `byTurn`).
 * - Judging: each message's own `expect` and latency limit on its answer (a declined message
 *   with expectations fails them), the shop policy on every answer, the step's `expect` and
 *   `capture` on the final state (`final`: the answer delivered last, or the answer to the last
 *   message; a failure names both and shows the final cart). The built-in checks
 *   (burst-checks.ts) become the record's `bursts` entry: facts, not failures, except a message
 *   left unanswered and a burst of which no message was answered, defects under every strategy
 *   a service may choose (the step then ends with that outcome and the scenario stops).
 * - After the step, the history holds every message and answer of the burst in that order.
 * Under `--ack-only` nothing is awaited and nothing checked, as for a `say`.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { readAnswer } from '../policy/index.js';
import { renderExpectations, renderText, type BurstStep, type ExpectationFailure } from '../scenario/index.js';
import { conversationTurn, latencyFailure, turnSink, type AnswerTurn } from './answer-turn.js';
import { checkBurst, messageLabel, type CheckedMessage } from './burst-checks.js';
import type { ExecuteContext } from './context.js';
import { codeContext, judgeAnswer, keepGrades } from './judge.js';
import type { BurstMessageStatus, BurstRecord, PlannedRequest, RequestRecord, StepResult } from './types.js';

type Vars = Record<string, unknown>;

/** A burst step's end: its result, and whether the scenario goes on. */
interface BurstEnd {
  result: StepResult;
  proceed: boolean;
}

/**
 * Judges the final state's body with the step's `expect` and `capture` into `result` (steps.ts
 * judgeStep), prefixing its failures with `label`; resolves false when a capture found nothing.
 * `answered` is the record of the message's answer turn (the grades hang under its span).
 */
export type JudgeFinal = (
  result: StepResult,
  body: unknown,
  turn: { humanMessage: string; chatHistory: ChatHistoryItem[] },
  label: string,
  answered: RequestRecord,
) => Promise<boolean>;

/** One message as it went: what it sent, the record of its turn, when it was sent and its answer arrived (clock ms). */
interface Sent {
  turn: AnswerTurn;
  one: RequestRecord;
  step: StepResult;
  sentAt: number;
  arrivedAt: number | undefined;
  /** Answers of the burst its history held. */
  answersSeen: number;
}

/** HTTP statuses of a submit that refuse a message the way a strategy may (409 Conflict: busy; 429: rate limit). */
const REFUSALS = new Set([409, 429]);

function statusOf(one: RequestRecord): BurstMessageStatus {
  switch (one.outcome) {
    case 'answered':
      return 'answered';
    case 'failed':
      return 'declined';
    case 'rejected':
      return one.httpStatus !== undefined && REFUSALS.has(one.httpStatus) ? 'declined' : 'unanswered';
    case 'interrupted':
    case 'not-sent':
      return 'interrupted';
    default:
      return 'unanswered';
  }
}

/** When the answer (or error payload) arrived, clock ms: the webhook's or the response's time; a refusal when it settled. */
function arrivalOf(one: RequestRecord, start: number, settledAt: number): number | undefined {
  const ms = one.answerMs ?? one.syncMs;
  if (one.outcome === 'answered' || one.outcome === 'failed') return ms !== undefined ? start + ms : settledAt;
  return one.outcome === 'rejected' ? settledAt : undefined;
}

/** The cart of an answer: display lines (`2 x Cotton T-shirt`) and the keys the checks compare (name, else code). */
function cartOf(payload: unknown): { lines: string[]; keys: string[] } | undefined {
  const cart = readAnswer(payload).cart;
  if (!cart) return undefined;
  const lines: string[] = [];
  const keys: string[] = [];
  for (const l of cart.lines) {
    const name = l.name ?? l.code;
    if (name === undefined) continue;
    lines.push(`${l.count?.value ?? '?'} x ${name}`);
    keys.push(name);
  }
  return { lines, keys };
}

const answerText = (payload: unknown): string => {
  const a = (payload as { answer?: unknown } | null | undefined)?.answer;
  return typeof a === 'string' ? a : '';
};

/**
 * Runs burst `step` from `start` (clock ms) in `planned.mode`: see the module docs. `history` is
 * the conversation so far and gets the burst's messages and answers; `turnNo` is the 1-based
 * turn number of its first message.
 */
export async function runBurst(
  step: BurstStep,
  planned: PlannedRequest,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  vars: Vars,
  history: ChatHistoryItem[],
  turnNo: number,
  judgeFinal: JudgeFinal,
): Promise<BurstEnd> {
  const base = [...history];
  /** The burst's messages (at their send time) and answers (at their arrival), in the order they happened. */
  const log: { at: number; item: ChatHistoryItem }[] = [];
  const sends: Promise<Sent>[] = [];
  const now = () => ctx.clock.now();
  let stopped = false;
  for (const [k, message] of step.messages.entries()) {
    const intended = start + k * step.gapMs;
    // The gap is waited on the run's clock, the one its due times are measured on.
    if (k > 0) await ctx.clock.sleep(intended - now(), ctx.abortSignal);
    if (ctx.abortSignal?.aborted) {
      stopped = true;
      break;
    }
    const text = renderText(message.text, vars);
    const sentAt = now();
    const turn: AnswerTurn = { humanMessage: text, chatHistory: [...base, ...log.map((e) => e.item)], expect: [] };
    const answersSeen = log.filter((e) => e.item.type === 'ai').length;
    log.push({ at: sentAt, item: { type: 'human', content: text } });
    const tctx = { ...ctx, latency: turnSink(ctx.latency, turnNo + k) };
    sends.push(
      conversationTurn(planned.mode, turn, tctx, intended, record, step.index).then(({ one, step: res }) => {
        const arrivedAt = arrivalOf(one, intended, now());
        // Only an answer joins the history the later messages send (an error payload says nothing
        // to the customer; under --ack-only nothing was awaited).
        if (one.outcome === 'answered' && one.answer !== undefined && arrivedAt !== undefined) {
          const at = log.findLastIndex((e) => e.at <= arrivedAt) + 1;
          log.splice(at, 0, { at: arrivedAt, item: { type: 'ai', content: answerText(one.answer) } });
        }
        return { turn, one, step: res, sentAt, arrivedAt, answersSeen };
      }),
    );
  }
  const sent = await Promise.all(sends);
  history.push(...log.map((e) => e.item));
  return judgeBurst(step, planned, ctx, start, record, vars, sent, stopped, judgeFinal);
}

/** The record of each message (times from the burst's start) with its cart keys, for the checks. */
function messagesOf(step: BurstStep, sent: readonly Sent[], start: number): CheckedMessage[] {
  return step.messages.map((m, k): CheckedMessage => {
    const s = sent[k];
    if (!s)
      return {
        index: k,
        text: m.text,
        sentAtMs: k * step.gapMs,
        status: 'interrupted',
        outcome: 'not-sent',
        answersSeen: 0,
      };
    const one = s.one;
    const status = statusOf(one);
    const cart = one.outcome === 'answered' ? cartOf(one.answer) : undefined;
    const error =
      one.outcome === 'failed'
        ? String((one.answer as { error?: unknown } | undefined)?.error ?? one.error?.message ?? '')
        : one.error?.message;
    return {
      index: k,
      text: s.turn.humanMessage,
      ...(one.requestId !== undefined && { requestId: one.requestId }),
      sentAtMs: round(s.sentAt - start),
      ...(s.arrivedAt !== undefined && { arrivedAtMs: round(s.arrivedAt - start) }),
      status,
      outcome: one.outcome,
      ...(one.httpStatus !== undefined && status !== 'answered' && { httpStatus: one.httpStatus }),
      ...(error !== undefined && status !== 'answered' && { error }),
      answersSeen: s.answersSeen,
      ...(cart && { cart: cart.lines, cartKeys: cart.keys }),
    };
  });
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

const FINAL_WORDS = { 'last-delivered': 'the answer delivered last', 'last-message': 'the answer to the last message' };

/**
 * What a final-state failure starts with, naming both answers and the final cart: `final state
 * [judged: the answer delivered last, message 1 (tpa-a, at 1.53 s); the answer to the last
 * message: message 2 (tpa-b, at 819 ms); final cart: 2 x Cotton T-shirt]`.
 */
function finalLabel(step: BurstStep, burst: BurstRecord, judged: CheckedMessage | undefined): string {
  const messages = burst.messages;
  const last = messages[messages.length - 1]!;
  const delivered = burst.lastDelivered === undefined ? undefined : messages[burst.lastDelivered]!;
  const describe = (m: BurstRecord['messages'][number] | undefined): string =>
    m === undefined ? 'none' : `${messageLabel(m)}${m.status === 'answered' ? '' : `, ${m.status}`}`;
  const [judgedWord, otherWord, other] =
    step.final === 'last-delivered'
      ? [FINAL_WORDS['last-delivered'], FINAL_WORDS['last-message'], last]
      : [FINAL_WORDS['last-message'], FINAL_WORDS['last-delivered'], delivered];
  const mine = step.final === 'last-delivered' ? delivered : last;
  const parts = [
    `judged: ${judgedWord}, ${describe(mine)}`,
    other === mine ? `also ${otherWord}` : `${otherWord}: ${describe(other)}`,
  ];
  if (judged?.cart) parts.push(`final cart: ${judged.cart.length > 0 ? judged.cart.join(', ') : 'empty'}`);
  return `final state [${parts.join('; ')}]`;
}

/** The step's outcome: a message left unanswered, or none answered, ends it so (see the module docs). */
function stepOutcome(
  messages: readonly CheckedMessage[],
  sent: readonly Sent[],
  stopped: boolean,
): Pick<StepResult, 'outcome' | 'error' | 'httpStatus'> {
  if (stopped || messages.some((m) => m.status === 'interrupted'))
    return {
      outcome: 'interrupted',
      error: { code: 'DROIDCHECK_ERR_ABORTED', message: 'run interrupted during the burst' },
    };
  const unanswered = sent.find((s) => statusOf(s.one) === 'unanswered');
  if (unanswered) {
    const one = unanswered.one;
    return {
      outcome: one.outcome,
      error: one.error ?? { code: 'DROIDCHECK_ERR_STEP', message: `a message of the burst ended ${one.outcome}` },
      ...(one.httpStatus !== undefined && { httpStatus: one.httpStatus }),
    };
  }
  if (messages.every((m) => m.status === 'declined')) {
    const last = sent[sent.length - 1]!.one;
    return {
      outcome: last.outcome,
      error: {
        code: 'DROIDCHECK_ERR_STEP',
        message: `no message of the burst was answered (each got an error payload or a refusal): every strategy answers at least one (docs/bursts.md)`,
      },
      ...(last.httpStatus !== undefined && { httpStatus: last.httpStatus }),
    };
  }
  return { outcome: 'answered' };
}

/** Each message's own expectations, latency limit and policy violations on its answer, as failures `message k: ...`. */
async function judgeMessages(
  step: BurstStep,
  ctx: ExecuteContext,
  record: RequestRecord,
  vars: Vars,
  sent: readonly Sent[],
  result: StepResult,
): Promise<void> {
  for (const [k, s] of sent.entries()) {
    const message = step.messages[k]!;
    const tag = (f: ExpectationFailure): ExpectationFailure => ({ ...f, message: `message ${k + 1}: ${f.message}` });
    const status = statusOf(s.one);
    if (status !== 'answered') {
      if (status === 'declined' && message.expect.length > 0)
        result.failures.push({
          path: '(answer)',
          matcher: 'burst',
          expected: 'an answer',
          actual: s.one.outcome,
          message: `message ${k + 1}: declined (${s.one.outcome === 'failed' ? 'an error payload' : `HTTP ${s.one.httpStatus}`}): its expectations cannot hold`,
          location: message.location,
        });
      continue;
    }
    const ev = await judgeAnswer(
      renderExpectations(message.expect, vars),
      s.one.answer,
      s.turn,
      ctx,
      record,
      () => codeContext(record, vars, step.index),
      s.one,
    );
    const latency = s.one.syncMs ?? s.one.answerMs;
    result.failures.push(
      ...[
        ...ev.failures,
        ...(latency !== undefined ? latencyFailure(message.latencyMs ?? step.latencyMs, latency) : []),
        // The turn had no expectations of its own: its failures are the shop policy's violations.
        ...s.one.failures,
      ].map(tag),
    );
    keepGrades(record, ev, `step ${step.index + 1} (burst) message ${k + 1}: `);
    if (ev.judgeErrors.length > 0) result.judgeErrors = (result.judgeErrors ?? 0) + ev.judgeErrors.length;
  }
}

async function judgeBurst(
  step: BurstStep,
  planned: PlannedRequest,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  vars: Vars,
  sent: readonly Sent[],
  stopped: boolean,
  judgeFinal: JudgeFinal,
): Promise<BurstEnd> {
  const endpoint = planned.mode === 'sync' ? 'get-droid-answer' : 'get-droid-answer-async';
  const messages = messagesOf(step, sent, start);
  const ended = stepOutcome(messages, sent, stopped);
  const result: StepResult = { index: step.index, kind: 'burst', endpoint, passed: false, failures: [], ...ended };
  if (ctx.ackOnly && ended.outcome === 'answered') {
    result.passed = true;
    return { result, proceed: true };
  }
  const { lastDelivered, findings } =
    ended.outcome === 'interrupted' ? { lastDelivered: undefined, findings: [] } : checkBurst(messages);
  const burst: BurstRecord = {
    step: step.index,
    gapMs: step.gapMs,
    final: step.final,
    messages: messages.map(({ cartKeys: _keys, ...m }) => m),
    ...(lastDelivered !== undefined && { lastDelivered }),
    ...(ended.outcome === 'interrupted' && { interrupted: true }),
    findings,
  };
  (record.bursts ??= []).push(burst);
  const judgedIndex = step.final === 'last-message' ? sent.length - 1 : lastDelivered;
  const judged = judgedIndex === undefined ? undefined : sent[judgedIndex];
  // The record's answer fields are the final state's message's (the last sent when there is none).
  const shown = judged ?? sent[sent.length - 1];
  if (shown) {
    record.answer = shown.one.answer;
    for (const k of ['requestId', 'ackMs', 'answerMs', 'syncMs', 'httpStatus'] as const) {
      const v = shown.one[k];
      if (v === undefined) delete record[k];
      else (record as unknown as Record<string, unknown>)[k] = v;
    }
    if (shown.step.requestId !== undefined) result.requestId = shown.step.requestId;
    if (shown.step.latencyMs !== undefined) result.latencyMs = shown.step.latencyMs;
  }
  if (ended.outcome !== 'answered') {
    if (shown?.one.answer !== undefined) result.body = shown.one.answer;
    return { result, proceed: false };
  }
  await judgeMessages(step, ctx, record, vars, sent, result);
  const label = finalLabel(step, burst, judgedIndex === undefined ? undefined : messages[judgedIndex]);
  let proceed = true;
  if (judged && judged.one.answer !== undefined) {
    const latencyMs = result.latencyMs;
    delete result.latencyMs; // judged per message above, not again as the step's
    proceed = await judgeFinal(result, judged.one.answer, judged.turn, label, judged.one);
    if (latencyMs !== undefined) result.latencyMs = latencyMs;
  } else if (step.expect.length > 0 || step.capture.length > 0) {
    result.failures.push({
      path: '(answer)',
      matcher: 'burst',
      expected: FINAL_WORDS[step.final],
      actual: undefined,
      message: `${label}: no answer to judge`,
      location: step.location,
    });
    proceed = step.capture.length === 0;
  }
  result.passed = result.failures.length === 0 && result.judgeErrors === undefined;
  return { result, proceed };
}
