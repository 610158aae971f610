/**
 * spec 1 GET channels, 2 GET messages/:customerId, 3 GET customer/:customerId,
 * 4 GET customer/:customerId/conversations, 7 POST customer/:customerId {botEnabled}.
 * An unknown customerId => 403 (spec: Authentication, rule 5).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { sendError } from '../http-errors.js';

/** The customer id of the path when this droid has that customer; otherwise sends 403 and returns undefined. */
export function knownCustomer(ctx: EmulatorContext, raw: unknown, reply: FastifyReply): number | undefined {
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isSafeInteger(id) && ctx.store.has(id)) return id;
  ctx.stats.rejected += 1;
  void sendError(reply, 403, `The API key has no access to customer ${String(raw)}`);
  return undefined;
}

type CustomerParams = { Params: { customerId: string } };

export function customerRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/channels', { config: { endpoint: 'channels' } }, async () => ({
    channels: ctx.store.channels,
    total: ctx.store.channels.length,
  }));

  app.get<CustomerParams>('/messages/:customerId', { config: { endpoint: 'messages' } }, async (request, reply) => {
    const id = knownCustomer(ctx, request.params.customerId, reply);
    if (id === undefined) return reply;
    const messages = ctx.store.conversations(id);
    return { customerId: id, messages, total: messages.length };
  });

  app.get<CustomerParams>('/customer/:customerId', { config: { endpoint: 'customer' } }, async (request, reply) => {
    const id = knownCustomer(ctx, request.params.customerId, reply);
    if (id === undefined) return reply;
    return ctx.store.customer(id);
  });

  app.get<CustomerParams>(
    '/customer/:customerId/conversations',
    { config: { endpoint: 'conversations' } },
    async (request, reply) => {
      const id = knownCustomer(ctx, request.params.customerId, reply);
      if (id === undefined) return reply;
      const conversations = ctx.store.conversations(id);
      return { conversations, total: conversations.length };
    },
  );

  app.post<CustomerParams>(
    '/customer/:customerId',
    { config: { endpoint: 'customer-update' } },
    async (request, reply) => {
      const id = knownCustomer(ctx, request.params.customerId, reply);
      if (id === undefined) return reply;
      const botEnabled = (request.body as { botEnabled?: unknown } | null)?.botEnabled;
      if (typeof botEnabled !== 'boolean') {
        ctx.stats.rejected += 1;
        return sendError(reply, 400, 'botEnabled must be a boolean');
      }
      ctx.store.setBotEnabled(id, botEnabled);
      return { success: true, customerId: id, botEnabled };
    },
  );
}
