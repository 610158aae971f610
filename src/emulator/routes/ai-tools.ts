/**
 * spec 5 POST customer/:customerId/ask, 6 POST send, 10 POST get-image-alt.
 *
 * send (request and response shapes are the emulator's choice; docs/service-reference.md):
 * `{customerId, humanMessage}` stores the customer's message (an image for a supported image
 * URL, with generated alt text), forwards it, and answers `{success: true, mid}` at once. When
 * the bot is on for the customer, its reply is generated from the conversation, stored and
 * forwarded after the answer delay (the service answers in 10-180 s: the reply is never in the
 * send response); a bot switched off meanwhile sends nothing. Intents in the reply fire their
 * intent webhooks.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { ChatHistoryItem } from '../../contract/index.js';
import { ASK_PROMPT_MAX } from '../../contract/index.js';
import { answerPrompt, ASK_CONTEXT_MESSAGES } from '../ai/ask.js';
import { imageAltText, isSupportedImageUrl } from '../ai/image-alt.js';
import type { EmulatorContext } from '../context.js';
import { sendError } from '../http-errors.js';
import { fireIntentWebhooks } from '../intent-webhooks.js';
import { storeMessage } from '../messages.js';
import { knownCustomer } from './customers.js';

/** Stores and forwards the bot's reply to `text` after the answer delay, unless the bot was switched off meanwhile. */
function scheduleReply(ctx: EmulatorContext, customerId: number, text: string, history: ChatHistoryItem[]): void {
  ctx.timers.after(ctx.faults.answerDelayMs(ctx.options.answerDelayMs), () => {
    if (!ctx.store.customer(customerId)?.botEnabled) return;
    const answer = ctx.answers.get(text, history);
    const reply = storeMessage(ctx, customerId, { type: 'ai', contentType: 'text', content: answer.body.answer });
    if (!reply) return;
    ctx.stats.botReplies += 1;
    fireIntentWebhooks(ctx, answer, customerId, reply.mid);
  });
}

export function aiToolRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  let tracking = 0;

  app.post<{ Params: { customerId: string } }>(
    '/customer/:customerId/ask',
    { config: { endpoint: 'ask' } },
    async (request, reply) => {
      const id = knownCustomer(ctx, request.params.customerId, reply);
      if (id === undefined) return reply;
      const prompt = (request.body as { prompt?: unknown } | null)?.prompt;
      if (typeof prompt !== 'string' || prompt.trim() === '') {
        ctx.stats.rejected += 1;
        return sendError(reply, 400, 'prompt is required');
      }
      if (prompt.length > ASK_PROMPT_MAX) {
        ctx.stats.rejected += 1;
        return sendError(reply, 400, `prompt must be at most ${ASK_PROMPT_MAX} characters (got ${prompt.length})`);
      }
      return { answer: answerPrompt(prompt, ctx.store.conversations(id), ctx.catalogue) };
    },
  );

  app.post('/send', { config: { endpoint: 'send' } }, async (request, reply) => {
    const body = (request.body ?? {}) as { customerId?: unknown; humanMessage?: unknown };
    const id = knownCustomer(ctx, body.customerId, reply);
    if (id === undefined) return reply;
    if (typeof body.humanMessage !== 'string' || body.humanMessage.trim() === '') {
      ctx.stats.rejected += 1;
      return sendError(reply, 400, 'humanMessage must be a non-empty string');
    }
    const text = body.humanMessage;
    const isImage = isSupportedImageUrl(text.trim());
    const alt = isImage ? imageAltText(text.trim(), ctx.catalogue) : '';
    // History for the bot: the newest messages before this one, oldest first; the shop's side
    // (bot and human agents) as `ai`, system and log messages left out.
    const history: ChatHistoryItem[] = ctx.store
      .conversations(id)
      .slice(0, ASK_CONTEXT_MESSAGES)
      .filter((m) => m.type === 'human' || m.type === 'ai' || m.type === 'admin')
      .map((m) => ({
        type: m.type === 'human' ? ('human' as const) : ('ai' as const),
        content: m.contentType === 'image' ? m.alt : m.content,
      }))
      .reverse();
    const stored = storeMessage(ctx, id, {
      type: 'human',
      contentType: isImage ? 'image' : 'text',
      content: isImage ? text.trim() : text,
      alt,
    })!;
    if (ctx.store.customer(id)?.botEnabled) scheduleReply(ctx, id, isImage ? alt : text, history);
    return { success: true, mid: stored.mid };
  });

  app.post('/get-image-alt', { config: { endpoint: 'get-image-alt' } }, async (request, reply) => {
    const t0 = performance.now();
    const imageUrl = (request.body as { imageUrl?: unknown } | null)?.imageUrl;
    if (typeof imageUrl !== 'string' || !isSupportedImageUrl(imageUrl)) {
      ctx.stats.rejected += 1;
      return sendError(reply, 400, 'imageUrl must be an http(s) URL ending in .jpg, .jpeg, .png, .gif or .webp');
    }
    tracking += 1;
    return {
      altText: imageAltText(imageUrl, ctx.catalogue),
      executionTime: Math.round(performance.now() - t0),
      trackingId: `alt-${ctx.droidId}-${tracking.toString().padStart(6, '0')}`,
    };
  });
}
