/**
 * What the webhook faults that fired for one delivery do to it, as one plan: every rule is folded
 * in through its action's handler in {@link WEBHOOK_FAULT_HANDLERS}, a table the compiler checks
 * against the schema's variants (profile.ts), so a new action without its handler does not
 * compile. The answer job (answer-job.ts) reads `errorPayload` and `drop`; the dispatch
 * (outbound.ts) reads the rest.
 */
import type { WebhookFaultAction, WebhookFaultRule } from './profile.js';

/** One delivery's fate. `delayMs` undefined: on time. `secret`: kept, replaced by a wrong one, or left out. */
export interface DeliveryPlan {
  drop: boolean;
  secret: 'keep' | 'wrong' | 'missing';
  /** Copies sent in total (1: no duplicate). */
  copies: number;
  /** Extra delay before the delivery, ms. */
  delayMs: number | undefined;
  /** The error text of an error payload sent instead of the answer (answer webhook only). */
  errorPayload: string | undefined;
}

type WebhookFaultHandler<A extends WebhookFaultAction> = (
  plan: DeliveryPlan,
  rule: Extract<WebhookFaultRule, { action: A }>,
) => DeliveryPlan;

/** Every webhook fault action and how it changes a delivery's plan. */
export type WebhookFaultHandlers = { [A in WebhookFaultAction]: WebhookFaultHandler<A> };

export const WEBHOOK_FAULT_HANDLERS: WebhookFaultHandlers = {
  drop: (plan) => ({ ...plan, drop: true }),
  duplicate: (plan, rule) => (plan.copies > 1 ? plan : { ...plan, copies: rule.copies }),
  late: (plan, rule) => ({ ...plan, delayMs: plan.delayMs ?? rule.delayMs }),
  'error-payload': (plan, rule) => ({ ...plan, errorPayload: plan.errorPayload ?? rule.error }),
  // A wrong secret wins over a missing one (either way the receiver must refuse it).
  'wrong-secret': (plan) => ({ ...plan, secret: 'wrong' }),
  'missing-secret': (plan) => (plan.secret === 'wrong' ? plan : { ...plan, secret: 'missing' }),
};

const ON_TIME: DeliveryPlan = { drop: false, secret: 'keep', copies: 1, delayMs: undefined, errorPayload: undefined };

/** The plan of one delivery from the rules that fired for it, in rule order (the first `duplicate`, `late` and `error-payload` win). */
export function planDelivery(faults: readonly WebhookFaultRule[]): DeliveryPlan {
  let plan = ON_TIME;
  for (const rule of faults)
    plan = (WEBHOOK_FAULT_HANDLERS[rule.action] as WebhookFaultHandler<typeof rule.action>)(plan, rule as never);
  return plan;
}
