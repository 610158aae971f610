/**
 * Hands one outbound webhook delivery to the dispatcher, applying the webhook faults rolled for
 * it (faults/profile.ts, folded into one plan by faults/webhook-plan.ts): drop, wrong or missing secret (the answer's `?secret=`, the message's
 * `?verify_token=`, the intent body's `secret`), duplicate copies, late delivery. The error-payload
 * fault is the answer job's (answer-job.ts).
 */
import type { EmulatorContext } from './context.js';
import type { WebhookFaultRule } from './faults/profile.js';
import { planDelivery } from './faults/webhook-plan.js';
import type { AnswerTrace } from './tracing.js';
import type { DeliveryJob } from './webhook-dispatcher.js';

/** Rewrites a job so it carries a wrong secret (`wrong`) or none (null). */
export type SecretRewrite = (job: DeliveryJob, secret: string | null) => DeliveryJob;

export function dispatchWithFaults(
  ctx: EmulatorContext,
  job: DeliveryJob,
  faults: readonly WebhookFaultRule[],
  rewrite: SecretRewrite,
  trace?: AnswerTrace,
): void {
  if (faults.length === 0) {
    ctx.dispatcher.deliver(trace ? { ...job, trace: trace.delivery(1) } : job);
    return;
  }
  const plan = planDelivery(faults);
  if (plan.drop) {
    ctx.stats.dropped += 1;
    trace?.dropped('the drop fault');
    return;
  }
  let out = trace ? { ...job, trace: trace.delivery(plan.copies) } : job;
  if (plan.secret !== 'keep') {
    ctx.stats.badSecret += 1;
    out = rewrite(job, plan.secret === 'wrong' ? `wrong-${Math.floor(ctx.random() * 1e9).toString(36)}` : null);
  }
  ctx.stats.duplicated += plan.copies - 1;
  const send = (): void => {
    for (let i = 0; i < plan.copies; i++) ctx.dispatcher.deliver(out);
  };
  if (plan.delayMs !== undefined) {
    ctx.stats.late += 1;
    ctx.timers.after(plan.delayMs, send);
  } else send();
}
