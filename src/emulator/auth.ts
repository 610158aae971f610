/**
 * Bearer authentication and droid access (spec: Authentication). Runs as an onRequest hook,
 * before the body is read: missing/invalid token => 401 {Unauthorized, Invalid API key};
 * a droidId other than this droid's => 403 Forbidden.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG_INVALID_API_KEY, sendError } from './http-errors.js';

/** Returns a reply when the request is refused, undefined when it may go on. */
export type AuthCheck = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** A constant-time comparison of the presented token with the expected one. */
function tokenMatcher(expected: () => string): (presented: string | undefined) => boolean {
  return (presented) => {
    if (presented === undefined) return false;
    const want = Buffer.from(expected());
    const got = Buffer.from(presented);
    return got.length === want.length && timingSafeEqual(got, want);
  };
}

/**
 * @param token the current token (a function: the token may be regenerated).
 * @param droidId this emulator's droid; `:droidId` must equal it.
 */
export function createAuthCheck(token: () => string, droidId: number, counters: { rejected: number }): AuthCheck {
  const matches = tokenMatcher(token);
  const droid = String(droidId);
  return (request, reply) => {
    if (!matches(bearerToken(request.headers.authorization))) {
      counters.rejected += 1;
      return sendError(reply, 401, MSG_INVALID_API_KEY);
    }
    const params = request.params as { droidId?: string } | undefined;
    if (params?.droidId !== undefined && params.droidId !== droid) {
      counters.rejected += 1;
      return sendError(reply, 403, `The API key has no access to droid ${params.droidId}`);
    }
    return undefined;
  };
}
