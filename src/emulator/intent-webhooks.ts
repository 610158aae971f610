/**
 * Intent webhooks (docs thirdparty/intent-webhook.mdx): when the rule engine detects an intent
 * that has a third-party URL (profile `intents[].webhook`, or the `intentWebhook` option), the
 * emulator POSTs an `IntentWebhookRequest` to it: `secret` in the body, `customer_id` a string,
 * `shopping_cart.products[]` as {code, name, price, count, total, available}. One POST per
 * intent; delivered like every outbound webhook (retries, delivery log, `target: intent` faults).
 *
 * `mid` is the message the intent was detected in: the reply's mid for a bot reply to `send`, the
 * requestId for get-droid-answer(-async) (the emulator's choice: the docs do not say).
 */
import type { IntentWebhookRequest } from '../contract/index.js';
import { formatAddress } from './ai/address.js';
import type { AnalysedAnswer } from './ai/index.js';
import type { IntentDefinition, IntentWebhookConfig } from './ai/intent-config.js';
import { LANGUAGE_NAMES } from './ai/language.js';
import type { EmulatorContext } from './context.js';
import type { IntentWebhookOverride } from './options.js';
import { dispatchWithFaults } from './outbound.js';

/** The intents with the override applied: every intent it names (or all) gets its URL and secret. */
export function applyIntentOverride(
  defs: readonly IntentDefinition[],
  override: IntentWebhookOverride | null | undefined,
): IntentDefinition[] {
  if (!override) return [...defs];
  new URL(override.url); // throws TypeError for an invalid URL
  const only = override.intents ? new Set(override.intents) : undefined;
  return defs.map((d) =>
    only && !only.has(d.name) ? d : { ...d, webhook: { url: override.url, secret: override.secret ?? '' } },
  );
}

/** Name => webhook of the intents that have one (empty when none: the answer path then does nothing). */
export function intentHooks(defs: readonly IntentDefinition[]): Map<string, IntentWebhookConfig> {
  const out = new Map<string, IntentWebhookConfig>();
  for (const d of defs) if (d.webhook) out.set(d.name, d.webhook);
  return out;
}

/** The documented request body for one detected intent. */
function buildIntentRequest(
  answer: AnalysedAnswer,
  intent: string,
  customerId: number,
  mid: string,
  secret: string,
): IntentWebhookRequest {
  const { body, facts } = answer;
  const a = body.addressParsing;
  const cart = body.shoppingCart;
  const contact = body.customerInsight.contact_info;
  return {
    mid,
    customer_id: String(customerId),
    intent,
    address_parsing: {
      street_address: a.street_address,
      village_or_project: '',
      subdistrict: a.subdistrict,
      district: a.district,
      city: a.city,
      state: '',
      postal_code: a.postal_code,
      country: a.country,
    },
    payment_method: facts.paymentMethod,
    shopping_cart: {
      products: cart.products.map((p) => ({
        code: p.code,
        name: p.name,
        price: p.price,
        count: p.count,
        total: p.total,
        available: p.available,
      })),
      shippingFee: cart.shippingFee,
      grandTotal: cart.grandTotal,
      unavailableCount: cart.products.filter((p) => !p.available).length,
    },
    contact_info: {
      name: contact.name,
      phone: contact.phone,
      email: contact.email,
      address: formatAddress(a),
      city: a.city,
      zipcode: a.postal_code,
      language: facts.language,
      languageName: LANGUAGE_NAMES[facts.language],
    },
    secret,
    folder: '',
    e: '',
    product_type: '',
  };
}

/** POSTs one IntentWebhookRequest per detected intent that has a webhook. */
export function fireIntentWebhooks(
  ctx: EmulatorContext,
  answer: AnalysedAnswer,
  customerId: number,
  mid: string,
): void {
  const hooks = ctx.intentHooks;
  if (hooks.size === 0) return;
  for (const intent of answer.body.intents) {
    const hook = hooks.get(intent);
    if (!hook) continue;
    ctx.stats.intentWebhooks += 1;
    const payload = buildIntentRequest(answer, intent, customerId, mid, hook.secret);
    const target = { url: hook.url, postUrl: hook.url };
    dispatchWithFaults(
      ctx,
      { kind: 'intent', id: mid, payload, target },
      ctx.faults.webhookFaults('intent'),
      (j, secret) => ({
        ...j,
        payload: { ...payload, secret: secret ?? '' },
      }),
    );
  }
}
