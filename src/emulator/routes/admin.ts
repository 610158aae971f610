/**
 * Emulator control (not part of the service): GET/PUT /__emulator/faults (JSON or YAML body),
 * GET /__emulator/stats. Bearer token required.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { FaultProfileError } from '../faults/profile.js';
import { sendError } from '../http-errors.js';
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

  app.get('/stats', async () => stats());
}
