/**
 * Settings of the emulated account that change at run time, shared by the `Emulator` methods and
 * the `/__emulator/*` routes: the message-forwarding webhook, the intent-webhook override, and
 * messages injected as if a human agent (`admin`), the system or a log wrote them.
 */
import { z } from 'zod';
import { MESSAGE_SENDER_TYPES, messageContentSchema } from '../contract/index.js';
import type { IntentDefinition } from './ai/intent-config.js';
import type { EmulatorContext } from './context.js';
import { applyIntentOverride, intentHooks } from './intent-webhooks.js';
import { storeMessage } from './messages.js';
import type { IntentWebhookOverride } from './options.js';
import { messageWebhookTarget } from './webhook-dispatcher.js';

/** A message to store for a customer (`POST /__emulator/messages`, `emulator.addMessage`). */
const injectedMessageSchema = z.strictObject({
  customerId: z.union([
    z.number().int(),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ]),
  type: z.enum(MESSAGE_SENDER_TYPES),
  content: messageContentSchema.refine((c) => (c.type === 'button') === Array.isArray(c.value), {
    message: 'a button message has a list of choices as value; other types a string',
    path: ['value'],
  }),
});
export type InjectedMessage = z.input<typeof injectedMessageSchema>;

export interface EmulatorControl {
  /** Sets (url) or removes (null) the message webhook; `verifyToken` undefined keeps the previous one. */
  setMessageWebhook(url: string | null, verifyToken?: string | null): void;
  /** Intent webhooks for every (or the named) intent, over the profile's; null restores the profile's. */
  setIntentWebhook(override: IntentWebhookOverride | null): void;
  /** Stores and forwards a message; returns its mid, or the reason it was refused. */
  addMessage(input: unknown): { mid: string } | string;
}

export function createControl(
  ctx: EmulatorContext,
  profileIntents: readonly IntentDefinition[],
  initialVerifyToken: string | null,
): EmulatorControl {
  let verifyToken = initialVerifyToken;
  return {
    setMessageWebhook(url, token) {
      if (token !== undefined) verifyToken = token;
      ctx.messageWebhook = url ? messageWebhookTarget(url, verifyToken) : null;
    },
    setIntentWebhook(override) {
      ctx.intents = applyIntentOverride(profileIntents, override);
      ctx.intentHooks = intentHooks(ctx.intents);
    },
    addMessage(input) {
      const parsed = injectedMessageSchema.safeParse(input);
      if (!parsed.success)
        return parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
      const { customerId, type, content } = parsed.data;
      const text = Array.isArray(content.value) ? content.value.join('\n') : content.value;
      const stored = storeMessage(ctx, customerId, {
        type,
        contentType: content.type,
        content: text,
        ...(content.alt !== undefined ? { alt: content.alt } : {}),
      });
      return stored ? { mid: stored.mid } : `no customer ${customerId}`;
    },
  };
}
