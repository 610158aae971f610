/**
 * spec 8. POST get-droid-answer (sync) and 9. POST get-droid-answer-async.
 *
 * Order of checks (async): auth (401) and droid (403) in the onRequest hook, then
 * humanMessage (400 Invalid humanMessage format), chatHistory (400), webhook configured
 * (400), test customer (400 Droid Missing Test Customer Id). Sync: the same minus the last two.
 * answerDelayMs counts from acceptance, so the ack delay and the answer delay overlap.
 * Both count as answers in progress from acceptance to the answer (the planted knee, ai/degrade.ts).
 * The sync endpoint accepts humanMessage as a string (docs endpoint.mdx §8) or as `{content, type?}`
 * (the async page's form). Intents detected in either answer fire their intent webhooks.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { AsyncAck } from '../../contract/index.js';
import type { AnalysedAnswer } from '../ai/index.js';
import { answerOf, scheduleAnswer } from '../answer-job.js';
import type { EmulatorContext } from '../context.js';
import { fireIntentWebhooks } from '../intent-webhooks.js';
import {
  MSG_INVALID_HUMAN_MESSAGE,
  MSG_MISSING_TEST_CUSTOMER,
  MSG_WEBHOOK_NOT_CONFIGURED,
  sendError,
} from '../http-errors.js';
import { buildAnswerPayload, checkAnswerRequest } from '../payload.js';
import { headerValue, type AnswerTrace } from '../tracing.js';

/** The acknowledgement's message, word for word (async docs page, "Immediate Response"). */
export const ACK_MESSAGE = 'Answer request queued. Response will be sent to your configured webhook.';
const SHUTTING_DOWN = 'The emulator is shutting down';
const JSON_TYPE = 'application/json; charset=utf-8';
/** The acknowledgement's JSON around its requestId: JSON.stringify({success: true, requestId, message: ACK_MESSAGE}). */
const [ACK_HEAD, ACK_TAIL] = JSON.stringify({
  success: true,
  requestId: '\u0000',
  message: ACK_MESSAGE,
} satisfies AsyncAck).split('"\\u0000"') as [string, string];

/** The trace of an answer request when the emulator traces (tracing.ts); undefined otherwise. */
function traceOf(
  ctx: EmulatorContext,
  endpoint: 'get-droid-answer' | 'get-droid-answer-async',
  headers: Record<string, string | string[] | undefined>,
): AnswerTrace | undefined {
  const tracer = ctx.options.tracer;
  if (!tracer) return undefined;
  return tracer.answer(endpoint, {
    traceparent: headerValue(headers.traceparent),
    tracestate: headerValue(headers.tracestate),
  });
}

export function answerRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/get-droid-answer', { config: { endpoint: 'get-droid-answer' } }, async (request, reply) => {
    const t0 = performance.now();
    const check = checkAnswerRequest(request.body, true);
    const trace = traceOf(ctx, 'get-droid-answer', request.headers);
    if (!check.ok) {
      ctx.stats.rejected += 1;
      trace?.responded(400);
      return sendError(reply, 400, check.message);
    }
    const degrade = ctx.saturation.begin();
    const pending = ctx.faults.tracksBursts ? ctx.pending.add(check.chatHistory, check.humanMessage) : undefined;
    let answer: AnalysedAnswer;
    try {
      const delay = ctx.faults.answerDelayMs(ctx.options.answerDelayMs);
      if (!(await ctx.timers.sleep(delay))) return sendError(reply, 503, SHUTTING_DOWN);
      // Held longer by a later message of its burst (burst-first-late: faults/burst.ts).
      const held = pending ? ctx.pending.done(pending) : 0;
      if (held > 0 && !(await ctx.timers.sleep(held))) return sendError(reply, 503, SHUTTING_DOWN);
      answer = answerOf(ctx, check.humanMessage, check.chatHistory, degrade);
    } finally {
      if (pending) ctx.pending.done(pending);
      ctx.saturation.end();
    }
    const requestId = ctx.nextRequestId();
    const customerId = ctx.testCustomerId ?? 0;
    ctx.stats.syncAnswered += 1;
    trace?.answered(requestId, false);
    trace?.responded(200, requestId);
    fireIntentWebhooks(ctx, answer, customerId, requestId);
    return buildAnswerPayload(answer.body, {
      requestId,
      droidId: ctx.droidId,
      customerId,
      executionTime: Math.round(performance.now() - t0),
      timestamp: ctx.options.clock.wallNow().toISOString(),
    });
  });

  app.post('/get-droid-answer-async', { config: { endpoint: 'get-droid-answer-async' } }, async (request, reply) => {
    const acceptedAt = performance.now();
    const check = checkAnswerRequest(request.body, false);
    const webhook = ctx.webhook;
    const customerId = ctx.testCustomerId;
    const refusal = !check.ok
      ? check.message
      : !webhook
        ? MSG_WEBHOOK_NOT_CONFIGURED
        : customerId === null
          ? MSG_MISSING_TEST_CUSTOMER
          : undefined;
    const trace = traceOf(ctx, 'get-droid-answer-async', request.headers);
    if (refusal !== undefined || !check.ok || !webhook || customerId === null) {
      ctx.stats.rejected += 1;
      trace?.responded(400);
      return sendError(reply, 400, refusal ?? MSG_INVALID_HUMAN_MESSAGE);
    }
    const requestId = ctx.nextRequestId();
    ctx.stats.accepted += 1;
    const degrade = ctx.saturation.begin();
    scheduleAnswer(
      ctx,
      {
        requestId,
        customerId,
        humanMessage: check.humanMessage,
        chatHistory: check.chatHistory,
        acceptedAt,
        target: webhook,
        faults: ctx.faults.webhookFaults('answer'),
        degrade,
        trace,
        ...(ctx.faults.tracksBursts && { pending: ctx.pending.add(check.chatHistory, check.humanMessage) }),
      },
      ctx.faults.answerDelayMs(ctx.options.answerDelayMs),
    );
    const ackDelay = ctx.faults.ackDelayMs(ctx.options.ackDelayMs);
    if (ackDelay > 0 && !(await ctx.timers.sleep(ackDelay))) return sendError(reply, 503, SHUTTING_DOWN);
    trace?.responded(200, requestId);
    // AsyncAck ({success, requestId, message}), serialised here rather than by Fastify per request.
    return reply.type(JSON_TYPE).send(`${ACK_HEAD}${JSON.stringify(requestId)}${ACK_TAIL}`);
  });
}
