/**
 * spec 5 POST customer/:customerId/ask, 6 POST send, 10 POST get-image-alt.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { ChatHistoryItem } from '../../contract/index.js';
import { ASK_PROMPT_MAX } from '../../contract/index.js';
import { answerPrompt, ASK_CONTEXT_MESSAGES } from '../ai/ask.js';
import { imageAltText, isSupportedImageUrl } from '../ai/image-alt.js';
import type { EmulatorContext } from '../context.js';
import { sendError } from '../http-errors.js';
import { knownCustomer } from './customers.js';

export function aiToolRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  let tracking = 0;

  app.post<{ Params: { customerId: string } }>('/customer/:customerId/ask', { config: { endpoint: 'ask' } }, async (request, reply) => {
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
  });

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
    // History for the bot: the newest messages before this one, oldest first.
    const history: ChatHistoryItem[] = ctx.store
      .conversations(id)
      .slice(0, ASK_CONTEXT_MESSAGES)
      .map((m) => ({ type: m.type === 'ai' ? ('ai' as const) : ('human' as const), content: m.contentType === 'image' ? m.alt : m.content }))
      .reverse();
    const message = ctx.store.append(id, { type: 'human', contentType: isImage ? 'image' : 'text', content: isImage ? text.trim() : text, alt })!;
    let reply_ = null;
    if (ctx.store.customer(id)?.botEnabled) {
      const answer = ctx.answers.get(isImage ? alt : text, history).answer;
      reply_ = ctx.store.append(id, { type: 'ai', contentType: 'text', content: answer }) ?? null;
    }
    return { success: true, customerId: id, message, reply: reply_ };
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
