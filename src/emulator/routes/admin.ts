/**
 * Emulator control (not part of the service): GET/PUT /__emulator/faults (JSON or YAML body),
 * PUT /__emulator/webhook `{url, secret?}` (the account's webhook setting, spec: Events,
 * Configuration; `url: null` removes it), GET /__emulator/stats. Bearer token required.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { FaultProfileError } from '../faults/profile.js';
import { sendError } from '../http-errors.js';
import { webhookTarget } from '../webhook-dispatcher.js';
import type { EmulatorStats } from '../stats.js';

export function adminRoutes(app: FastifyInstance, ctx: EmulatorContext, stats: () => EmulatorStats): void {
  app.addContentTypeParser(['text/yaml', 'application/yaml', 'application/x-yaml', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => {
    done(null, body);
  });

  app.get('/faults', async () => ctx.faults.profile);

  app.put('/faults', async (request, reply) => {
    try {
      return ctx.faults.set((request.body ?? {}) as Parameters<typeof ctx.faults.set>[0]);
    } catch (err) {
      if (err instanceof FaultProfileError) return sendError(reply, 400, err.message);
      throw err;
    }
  });

  app.put('/webhook', async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; secret?: unknown };
    if (body.url !== null && typeof body.url !== 'string') return sendError(reply, 400, 'url must be a string or null');
    if (body.secret !== undefined && body.secret !== null && typeof body.secret !== 'string') {
      return sendError(reply, 400, 'secret must be a string');
    }
    if (typeof body.url === 'string') {
      try {
        new URL(body.url);
      } catch {
        return sendError(reply, 400, `url is not a URL: ${body.url}`);
      }
    }
    ctx.webhook = typeof body.url === 'string' ? webhookTarget(body.url, (body.secret as string | null | undefined) ?? null) : null;
    return { webhookConfigured: ctx.webhook !== null };
  });

  app.get('/stats', async () => stats());
}
