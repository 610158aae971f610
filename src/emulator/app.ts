/**
 * Builds the emulator's Fastify app (does not listen). Scopes:
 * - `/api/droids/:droidId/endpoint/*`: bearer + droid check (onRequest), optional per-token
 *   rate limit (429 + Retry-After), fault hook (preHandler), the ten endpoints;
 * - `/__emulator/*`: bearer check, faults and stats;
 * - debug page and echo receiver (no bearer).
 * Every error leaves as `{error, message}` (spec: Errors).
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { bearerToken, createAuthCheck } from './auth.js';
import type { EmulatorContext } from './context.js';
import type { EmulatorControl } from './control.js';
import { createFaultHook } from './faults/hook.js';
import { errorBody, sendError } from './http-errors.js';
import { adminRoutes } from './routes/admin.js';
import { aiToolRoutes } from './routes/ai-tools.js';
import { answerRoutes } from './routes/answer.js';
import { customerRoutes } from './routes/customers.js';
import { debugRoutes } from './routes/debug.js';
import type { EmulatorStats } from './stats.js';

export function buildApp(
  ctx: EmulatorContext,
  token: () => string,
  stats: () => EmulatorStats,
  control: EmulatorControl,
): FastifyInstance {
  const app = Fastify({
    logger: ctx.options.logger,
    // close() must not wait for held (hang fault) or long-polling sync connections.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) request.log.error(err);
    if (status === 429) ctx.stats.rejected += 1;
    void reply.code(status).send(errorBody(status, status >= 500 ? 'Internal Server Error' : err.message));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found`),
  );

  const auth = createAuthCheck(token, ctx.droidId, ctx.stats);

  void app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        if (auth(request, reply)) return reply;
      });
      if (ctx.options.rateLimit) {
        await api.register(rateLimit, {
          global: true,
          max: ctx.options.rateLimit.max,
          timeWindow: ctx.options.rateLimit.timeWindowMs,
          keyGenerator: (request) => bearerToken(request.headers.authorization) ?? request.ip,
          errorResponseBuilder: (_request, c) => ({
            statusCode: 429,
            error: 'Too Many Requests',
            message: `Rate limit exceeded: ${c.max} requests per ${c.after}. Retry later.`,
          }),
        });
      }
      api.addHook('preHandler', createFaultHook(ctx));
      answerRoutes(api, ctx);
      customerRoutes(api, ctx);
      aiToolRoutes(api, ctx);
    },
    { prefix: '/api/droids/:droidId/endpoint' },
  );

  void app.register(
    async (admin) => {
      admin.addHook('onRequest', async (request, reply) => {
        if (auth(request, reply)) return reply;
      });
      adminRoutes(admin, ctx, stats, control);
    },
    { prefix: '/__emulator' },
  );

  debugRoutes(app, ctx);
  return app;
}
