/**
 * Hands one outbound webhook delivery to the dispatcher, applying the webhook faults rolled for
 * it (faults/profile.ts): drop, wrong or missing secret (the answer's `?secret=`, the message's
 * `?verify_token=`, the intent body's `secret`), duplicate copies, late delivery. The error-payload
 * fault is the answer job's (answer-job.ts).
 */
import type { EmulatorContext } from './context.js';
import type { WebhookFaultRule } from './faults/profile.js';
import type { DeliveryJob } from './webhook-dispatcher.js';

/** Rewrites a job so it carries a wrong secret (`wrong`) or none (null). */
export type SecretRewrite = (job: DeliveryJob, secret: string | null) => DeliveryJob;

export function dispatchWithFaults(
  ctx: EmulatorContext,
  job: DeliveryJob,
  faults: readonly WebhookFaultRule[],
  rewrite: SecretRewrite,
): void {
  if (faults.length === 0) {
    ctx.dispatcher.deliver(job);
    return;
  }
  if (faults.some((f) => f.action === 'drop')) {
    ctx.stats.dropped += 1;
    return;
  }
  let out = job;
  if (faults.some((f) => f.action === 'wrong-secret')) {
    ctx.stats.badSecret += 1;
    out = rewrite(job, `wrong-${Math.floor(ctx.random() * 1e9).toString(36)}`);
  } else if (faults.some((f) => f.action === 'missing-secret')) {
    ctx.stats.badSecret += 1;
    out = rewrite(job, null);
  }
  const copies = faults.find((f) => f.action === 'duplicate')?.copies ?? 1;
  ctx.stats.duplicated += copies - 1;
  const send = (): void => {
    for (let i = 0; i < copies; i++) ctx.dispatcher.deliver(out);
  };
  const late = faults.find((f) => f.action === 'late');
  if (late) {
    ctx.stats.late += 1;
    ctx.timers.after(late.delayMs, send);
  } else send();
}
