/**
 * The background half of get-droid-answer-async: after the answer delay, build the payload
 * (or the error payload) and hand it to the dispatcher, applying any webhook faults
 * (drop, duplicate, late, error payload, wrong or missing secret).
 */
import { performance } from 'node:perf_hooks';
import type { ChatHistoryItem } from '../contract/index.js';
import type { EmulatorContext } from './context.js';
import { buildAnswerPayload, buildErrorPayload, type PayloadMeta } from './payload.js';
import type { WebhookFaultRule } from './faults/profile.js';
import { webhookTarget, type WebhookTarget } from './webhook-dispatcher.js';

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
  const faults = job.faults;
  const meta = (): PayloadMeta => ({
    requestId: job.requestId,
    droidId: ctx.droidId,
    customerId: job.customerId,
    executionTime: Math.round(performance.now() - job.acceptedAt),
    timestamp: ctx.options.clock.wallNow().toISOString(),
  });
  if (faults.length === 0) {
    const payload = buildAnswerPayload(ctx.answers.get(job.humanMessage, job.chatHistory), meta());
    ctx.dispatcher.deliver({ requestId: job.requestId, payload, target: job.target });
    return;
  }
  if (faults.some((f) => f.action === 'drop')) {
    ctx.stats.dropped += 1;
    return;
  }
  let payload: unknown;
  const errorFault = faults.find((f) => f.action === 'error-payload');
  if (errorFault) {
    ctx.stats.errorPayloads += 1;
    payload = buildErrorPayload(errorFault.error, meta());
  } else {
    payload = buildAnswerPayload(ctx.answers.get(job.humanMessage, job.chatHistory), meta());
  }
  let target = job.target;
  if (faults.some((f) => f.action === 'wrong-secret')) {
    ctx.stats.badSecret += 1;
    target = webhookTarget(job.target.url, `wrong-${Math.floor(ctx.random() * 1e9).toString(36)}`);
  } else if (faults.some((f) => f.action === 'missing-secret')) {
    ctx.stats.badSecret += 1;
    target = webhookTarget(job.target.url, null);
  }
  const copies = faults.find((f) => f.action === 'duplicate')?.copies ?? 1;
  ctx.stats.duplicated += copies - 1;
  const send = () => {
    for (let i = 0; i < copies; i++) ctx.dispatcher.deliver({ requestId: job.requestId, payload, target });
  };
  const late = faults.find((f) => f.action === 'late');
  if (late) {
    ctx.stats.late += 1;
    ctx.timers.after(late.delayMs, send);
  } else send();
}
