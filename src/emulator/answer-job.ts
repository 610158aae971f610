/**
 * The background half of get-droid-answer-async: after the answer delay, build the payload
 * (or the error payload), send the intent webhooks of the intents it detected, and hand the
 * payload to the dispatcher with any webhook faults (drop, duplicate, late, error payload,
 * wrong or missing secret).
 */
import { performance } from 'node:perf_hooks';
import type { ChatHistoryItem } from '../contract/index.js';
import type { EmulatorContext } from './context.js';
import { fireIntentWebhooks } from './intent-webhooks.js';
import { dispatchWithFaults } from './outbound.js';
import { degradedAnswer } from './ai/degrade.js';
import type { AnalysedAnswer, AnswerBody } from './ai/index.js';
import { buildAnswerPayload, buildErrorPayload, type PayloadMeta } from './payload.js';
import type { PendingAnswer } from './faults/burst.js';
import type { WebhookFaultRule } from './faults/profile.js';
import type { AnswerTrace } from './tracing.js';
import { planDelivery } from './faults/webhook-plan.js';
import { targetUrls, webhookTarget, type WebhookTarget } from './webhook-dispatcher.js';

export interface AsyncJob {
  requestId: string;
  customerId: number;
  humanMessage: string;
  chatHistory: ChatHistoryItem[];
  /** performance.now() at acceptance. */
  acceptedAt: number;
  target: WebhookTarget;
  /** Webhook faults rolled at acceptance (so the draw order follows the request order). */
  faults: WebhookFaultRule[];
  /** Past the planted knee at acceptance (ai/degrade.ts): answered with the apology. */
  degrade: boolean;
  /** The request's trace (tracing.ts), when the emulator traces. */
  trace?: AnswerTrace | undefined;
  /** Registered while the answer is made, when the fault profile has `burst-first-late` (faults/burst.ts). */
  pending?: PendingAnswer;
}

/** The answer to a message: the rule engine's, or the saturated droid's apology when `degrade` (counted). */
export function answerOf(
  ctx: EmulatorContext,
  humanMessage: string,
  chatHistory: ChatHistoryItem[],
  degrade: boolean,
): AnalysedAnswer {
  const answer = ctx.answers.get(humanMessage, chatHistory);
  if (!degrade) return answer;
  ctx.stats.degradedAnswers += 1;
  return degradedAnswer(answer, ctx.catalogue);
}

/** The JSON of an answer body's fields (responses ... intents, in the spec's order), once per cached body. */
const middles = new WeakMap<AnswerBody, string>();

/**
 * `JSON.stringify(buildAnswerPayload(body, meta))`, with the body's part serialised once per
 * (cached, immutable) AnswerBody: a load test sends the same few answers thousands of times.
 * The field order is buildAnswerPayload's (the spec's table).
 */
export function answerPayloadJson(body: AnswerBody, meta: PayloadMeta): string {
  let middle = middles.get(body);
  if (middle === undefined) {
    const {
      requestId: _r,
      droidId: _d,
      customerId: _c,
      executionTime: _e,
      timestamp: _t,
      ...fields
    } = buildAnswerPayload(body, meta);
    middle = JSON.stringify(fields).slice(1, -1);
    middles.set(body, middle);
  }
  const head = `{"requestId":${JSON.stringify(meta.requestId)},"droidId":${JSON.stringify(meta.droidId)},"customerId":${JSON.stringify(meta.customerId)}`;
  return `${head}${middle === '' ? '' : `,${middle}`},"executionTime":${JSON.stringify(meta.executionTime)},"timestamp":${JSON.stringify(meta.timestamp)}}`;
}

/** Schedules the answer `delayMs` after now (and as much longer as a later message of its burst held it). */
export function scheduleAnswer(ctx: EmulatorContext, job: AsyncJob, delayMs: number): void {
  ctx.timers.after(delayMs, () => {
    const held = job.pending ? ctx.pending.done(job.pending) : 0;
    if (held > 0) ctx.timers.after(held, () => runJob(ctx, job));
    else runJob(ctx, job);
  });
}

function metaOf(ctx: EmulatorContext, job: AsyncJob): PayloadMeta {
  return {
    requestId: job.requestId,
    droidId: ctx.droidId,
    customerId: job.customerId,
    executionTime: Math.round(performance.now() - job.acceptedAt),
    timestamp: ctx.options.clock.wallNow().toISOString(),
  };
}

function runJob(ctx: EmulatorContext, job: AsyncJob): void {
  ctx.saturation.end();
  const plan = planDelivery(job.faults);
  // A dropped webhook is never sent: its answer is still made (intent webhooks fire), its payload is not built.
  const dropped = plan.drop;
  let payload: unknown;
  let body: string | undefined;
  if (plan.errorPayload !== undefined) {
    ctx.stats.errorPayloads += 1;
    if (!dropped) payload = buildErrorPayload(plan.errorPayload, metaOf(ctx, job));
  } else {
    const answer = answerOf(ctx, job.humanMessage, job.chatHistory, job.degrade);
    fireIntentWebhooks(ctx, answer, job.customerId, job.requestId);
    if (!dropped) {
      const meta = metaOf(ctx, job);
      payload = buildAnswerPayload(answer.body, meta);
      body = answerPayloadJson(answer.body, meta);
    }
  }
  job.trace?.answered(job.requestId, plan.errorPayload !== undefined);
  dispatchWithFaults(
    ctx,
    { kind: 'answer', id: job.requestId, payload, ...(body !== undefined && { body }), target: job.target },
    job.faults,
    (j, secret) => ({
      ...j,
      target: webhookTarget(targetUrls(j.target), secret),
    }),
    job.trace,
  );
}
