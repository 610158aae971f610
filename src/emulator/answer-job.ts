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
import { buildAnswerPayload, buildErrorPayload, type PayloadMeta } from './payload.js';
import type { WebhookFaultRule } from './faults/profile.js';
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
}

/** Schedules the answer `delayMs` after now. */
export function scheduleAnswer(ctx: EmulatorContext, job: AsyncJob, delayMs: number): void {
  ctx.timers.after(delayMs, () => runJob(ctx, job));
}

function runJob(ctx: EmulatorContext, job: AsyncJob): void {
  const meta: PayloadMeta = {
    requestId: job.requestId,
    droidId: ctx.droidId,
    customerId: job.customerId,
    executionTime: Math.round(performance.now() - job.acceptedAt),
    timestamp: ctx.options.clock.wallNow().toISOString(),
  };
  const errorFault = job.faults.find((f) => f.action === 'error-payload');
  let payload: unknown;
  if (errorFault) {
    ctx.stats.errorPayloads += 1;
    payload = buildErrorPayload(errorFault.error, meta);
  } else {
    const answer = ctx.answers.get(job.humanMessage, job.chatHistory);
    fireIntentWebhooks(ctx, answer, job.customerId, job.requestId);
    payload = buildAnswerPayload(answer.body, meta);
  }
  dispatchWithFaults(ctx, { kind: 'answer', id: job.requestId, payload, target: job.target }, job.faults, (j, secret) => ({
    ...j,
    target: webhookTarget(targetUrls(j.target), secret),
  }));
}
