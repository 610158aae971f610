/**
 * Applies request faults (after auth, before the handler): 5xx, 429 with Retry-After,
 * connection reset, hang (socket held until close), or an extra delay.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { sendError } from '../http-errors.js';
import type { EndpointName } from './profile.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's endpoint this route implements (fault rules match on it). */
    endpoint?: EndpointName;
  }
}

export function createFaultHook(ctx: EmulatorContext) {
  return async function faultHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (ctx.faults.profile.requests.length === 0) return;
    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint) return;
    const rule = ctx.faults.requestFault(endpoint);
    if (!rule) return;
    ctx.stats.injectedFaults += 1;
    switch (rule.action) {
      case 'error':
        await sendError(reply, rule.status, `Injected fault: HTTP ${rule.status}`);
        return;
      case 'rate-limit':
        reply.header('retry-after', String(rule.retryAfterS));
        await sendError(reply, 429, `Rate limit exceeded, retry in ${rule.retryAfterS} seconds`);
        return;
      case 'reset':
        reply.hijack();
        request.raw.socket.resetAndDestroy();
        return;
      case 'hang': {
        reply.hijack();
        const socket = request.raw.socket;
        ctx.hung.add(socket);
        socket.once('close', () => ctx.hung.delete(socket));
        return;
      }
      case 'delay':
        if (rule.delay) await ctx.timers.sleep(ctx.faults.draw(rule.delay));
        return;
    }
  };
}
