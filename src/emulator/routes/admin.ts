/**
 * Emulator control (not part of the service). Bearer token required.
 * - GET/PUT /__emulator/faults (JSON or YAML body);
 * - PUT /__emulator/webhook `{url, secret?}`: the answer webhook setting (spec: Events,
 *   Configuration; `url: null` removes it);
 * - PUT /__emulator/message-webhook `{url, verifyToken?}`: the message-forwarding setting (docs
 *   receiving-webhook.mdx; `url: null` removes it);
 * - PUT /__emulator/intent-webhook `{url, secret?, intents?}` or `null`: intent webhooks for every
 *   (or the named) intents, over the profile's;
 * - POST /__emulator/messages `{customerId, type, content: {type, value, alt?}}`: stores (and
 *   forwards) a message as if a human agent (`admin`), the system or a log wrote it;
 * - GET /__emulator/stats.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { FaultProfileError } from '../faults/profile.js';
import { sendError } from '../http-errors.js';
import { webhookTarget } from '../webhook-dispatcher.js';
import type { EmulatorStats } from '../stats.js';
import type { EmulatorControl } from '../control.js';

function isUrl(v: string): boolean {
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

/** PUT /__emulator/intent-webhook: `{url, secret?, intents?}` over the profile's, `null` restores them. */
function intentWebhookRoute(app: FastifyInstance, ctx: EmulatorContext, control: EmulatorControl): void {
  app.put('/intent-webhook', async (request, reply) => {
    const body = request.body as { url?: unknown; secret?: unknown; intents?: unknown } | null;
    if (body === null || body.url === null) {
      control.setIntentWebhook(null);
      return { intentWebhooks: [...ctx.intentHooks.keys()] };
    }
    if (typeof body.url !== 'string' || !isUrl(body.url)) return sendError(reply, 400, 'url must be a URL or null');
    if (body.secret !== undefined && typeof body.secret !== 'string')
      return sendError(reply, 400, 'secret must be a string');
    if (
      body.intents !== undefined &&
      (!Array.isArray(body.intents) || !body.intents.every((i) => typeof i === 'string'))
    ) {
      return sendError(reply, 400, 'intents must be a list of intent names');
    }
    const unknown = ((body.intents ?? []) as string[]).filter((n) => !ctx.intents.some((d) => d.name === n));
    if (unknown.length > 0)
      return sendError(
        reply,
        400,
        `unknown intent(s) ${unknown.join(', ')}; the profile has ${ctx.intents.map((d) => d.name).join(', ')}`,
      );
    control.setIntentWebhook({
      url: body.url,
      ...(body.secret !== undefined ? { secret: body.secret as string } : {}),
      ...(body.intents ? { intents: body.intents as string[] } : {}),
    });
    return { intentWebhooks: [...ctx.intentHooks.keys()] };
  });
}

export function adminRoutes(
  app: FastifyInstance,
  ctx: EmulatorContext,
  stats: () => EmulatorStats,
  control: EmulatorControl,
): void {
  app.addContentTypeParser(
    ['text/yaml', 'application/yaml', 'application/x-yaml', 'text/plain'],
    { parseAs: 'string' },
    (_req, body, done) => {
      done(null, body);
    },
  );

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
    ctx.webhook =
      typeof body.url === 'string' ? webhookTarget(body.url, (body.secret as string | null | undefined) ?? null) : null;
    return { webhookConfigured: ctx.webhook !== null };
  });

  app.put('/message-webhook', async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; verifyToken?: unknown };
    if (body.url !== null && (typeof body.url !== 'string' || !isUrl(body.url)))
      return sendError(reply, 400, 'url must be a URL or null');
    if (body.verifyToken !== undefined && body.verifyToken !== null && typeof body.verifyToken !== 'string') {
      return sendError(reply, 400, 'verifyToken must be a string');
    }
    control.setMessageWebhook(body.url, (body.verifyToken as string | null | undefined) ?? null);
    return { messageWebhookConfigured: ctx.messageWebhook !== null };
  });

  intentWebhookRoute(app, ctx, control);

  app.post('/messages', async (request, reply) => {
    const result = control.addMessage(request.body);
    if (typeof result === 'string') return sendError(reply, 400, result);
    return { success: true, mid: result.mid };
  });

  app.get('/stats', async () => stats());
}
