/**
 * Stored messages and their forwarding (docs thirdparty/receiving-webhook.mdx): "when a message
 * is sent or received" the service POSTs a `MessageForwarding` body to the configured URL with
 * `?verify_token=` appended. The emulator forwards every message it stores: the human message of
 * `send`, the bot's reply (stored after the answer delay), and injected admin/system/log messages.
 */
import type { MessageContent, MessageForwarding } from '../contract/index.js';
import type { EmulatorContext } from './context.js';
import { dispatchWithFaults } from './outbound.js';
import type { NewMessage, StoredMessage } from './state/store.js';
import { messageWebhookTarget } from './webhook-dispatcher.js';

export interface Stored extends StoredMessage {
  /** The message id as forwarded (`ddtp-...`). */
  mid: string;
}

/** The forwarded content: a `button` message's choices are one per line of the stored content. */
function forwardedContent(m: NewMessage): MessageContent {
  const value = m.contentType === 'button' ? m.content.split('\n') : m.content;
  return m.alt ? { type: m.contentType, value, alt: m.alt } : { type: m.contentType, value };
}

/** The documented MessageForwarding body of a stored message. */
function forwardingBody(ctx: EmulatorContext, stored: StoredMessage, mid: string, m: NewMessage): MessageForwarding {
  return {
    mid,
    chatId: stored.chatId,
    customerId: stored.customerId,
    droidId: ctx.droidId,
    channelId: stored.channelId,
    type: m.type,
    content: forwardedContent(m),
    note: '',
    createdAt: stored.at.toISOString(),
  };
}

/** Stores a message for a known customer and forwards it when a message webhook is set; undefined for an unknown customer. */
export function storeMessage(ctx: EmulatorContext, customerId: number, m: NewMessage): Stored | undefined {
  const stored = ctx.store.append(customerId, m);
  if (!stored) return undefined;
  ctx.stats.messagesStored += 1;
  const mid = ctx.nextMessageId();
  const target = ctx.messageWebhook;
  if (target) {
    ctx.stats.messagesForwarded += 1;
    const payload = forwardingBody(ctx, stored, mid, m);
    dispatchWithFaults(
      ctx,
      { kind: 'message', id: mid, payload, target },
      ctx.faults.webhookFaults('message'),
      (j, token) => ({
        ...j,
        target: messageWebhookTarget(target.url, token),
      }),
    );
  }
  return { ...stored, mid };
}
