/**
 * Applies request faults (after auth, before the handler): 5xx, 429 with Retry-After,
 * connection reset, hang (socket held until close), or an extra delay. One handler per action in
 * {@link REQUEST_FAULT_HANDLERS}, a table the compiler checks against the schema's variants
 * (profile.ts): a new action without its handler does not compile.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatHistoryItem } from '../../contract/index.js';
import type { EmulatorContext } from '../context.js';
import { sendError } from '../http-errors.js';
import type { EndpointName, RequestFaultAction, RequestFaultRule } from './profile.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's endpoint this route implements (fault rules match on it). */
    endpoint?: EndpointName;
  }
}

/** What a request fault's handler gets: its own rule (narrowed to its action), the exchange, the emulator. */
type RequestFaultHandler<A extends RequestFaultAction> = (
  rule: Extract<RequestFaultRule, { action: A }>,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: EmulatorContext,
) => Promise<void>;

/** Every request fault action and its handler; exported for the test that shows a missing one fails the type check. */
export type RequestFaultHandlers = { [A in RequestFaultAction]: RequestFaultHandler<A> };

export const REQUEST_FAULT_HANDLERS: RequestFaultHandlers = {
  error: async (rule, _request, reply) => {
    await sendError(reply, rule.status, `Injected fault: HTTP ${rule.status}`);
  },
  'rate-limit': async (rule, _request, reply) => {
    reply.header('retry-after', String(rule.retryAfterS));
    await sendError(reply, 429, `Rate limit exceeded, retry in ${rule.retryAfterS} seconds`);
  },
  reset: async (_rule, request, reply) => {
    reply.hijack();
    request.raw.socket.resetAndDestroy();
  },
  hang: async (_rule, request, reply, ctx) => {
    reply.hijack();
    const socket = request.raw.socket;
    ctx.hung.add(socket);
    socket.once('close', () => ctx.hung.delete(socket));
  },
  delay: async (rule, _request, _reply, ctx) => {
    if (rule.delay) await ctx.timers.sleep(ctx.faults.draw(rule.delay));
  },
  'burst-first-late': async (rule, request, _reply, ctx) => {
    const history = (request.body as { chatHistory?: unknown } | null)?.chatHistory;
    if (Array.isArray(history) && ctx.pending.holdFirstOfBurst(history as ChatHistoryItem[], rule.delayMs))
      ctx.stats.injectedFaults += 1;
  },
};

/** Calls the handler of `rule`'s action (the one place the union is dispatched). */
function applyRequestFault<A extends RequestFaultAction>(
  rule: Extract<RequestFaultRule, { action: A }>,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: EmulatorContext,
): Promise<void> {
  return (REQUEST_FAULT_HANDLERS[rule.action] as RequestFaultHandler<A>)(rule, request, reply, ctx);
}

export function createFaultHook(ctx: EmulatorContext) {
  return async function faultHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (ctx.faults.profile.requests.length === 0) return;
    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint) return;
    // A burst rule only holds another answer (and counts itself when it did): the request goes on.
    const burst = ctx.faults.burstFault(endpoint);
    if (burst) await applyRequestFault(burst, request, reply, ctx);
    const rule = ctx.faults.requestFault(endpoint);
    if (!rule) return;
    ctx.stats.injectedFaults += 1;
    await applyRequestFault(rule, request, reply, ctx);
  };
}
