/**
 * The receiver's HTTP routes. Bodies reach them as raw strings (receiver.ts removes Fastify's
 * parsers), so a non-JSON body is counted here.
 *
 * POST <answer path>?secret=   answer or error payload (spec: Events; Authentication 7)
 *   - secret configured and `secret` missing or different (constant time) => 401, badSecret;
 *   - empty, not JSON, not an object, or no string requestId => 400, malformed;
 *   - else 200 `{"ok":true}`: correlated here (matched/parked/duplicate/late), or published.
 * POST <messages path>?verify_token=   MessageForwarding (docs: receiving-webhook.mdx)
 *   - token configured and `verify_token` missing or different (constant time) => 403, badSecret;
 *   - not a JSON object => 400, malformed; else 200 `{"ok":true}`, kept by customerId or published
 *     (schema violations travel with the message).
 * POST <intents path>   IntentWebhookRequest (docs: intent-webhook.mdx)
 *   - not a JSON object => 400, malformed;
 *   - secret configured and the body's `secret` missing or different => 403 `{"error":"Forbidden"}`;
 *   - else 200 `[]`: the docs say the service sends a response's array of strings to the customer
 *     ("Allow bot to send messages from provider URL"), so an empty array sends nothing.
 * GET <health path>: 200 `{"ok":true}`; publish mode: 200 when Redis answers PING, else 503.
 *
 * Publish mode: every delivery of the first kind and every refused one is XADDed first, and the
 * answer (200, 401, 403) is sent only once Redis stored it; when Redis fails: 503, unavailable.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { InboundRouteStats } from './inbound-types.js';
import { redactIntentSecret } from './inbound.js';
import { parseObject } from './json-body.js';
import type { StreamPublisher } from './stream-publisher.js';
import type { Route, Verdict } from './stream-entry.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
const OK_BODY = '{"ok":true}';
const INTENT_OK_BODY = '[]';
const UNAUTHORIZED_BODY = '{"error":"Unauthorized","message":"invalid or missing webhook secret"}';
const BAD_TOKEN_BODY = '{"error":"Forbidden","message":"invalid or missing verify_token"}';
const FORBIDDEN_BODY = '{"error":"Forbidden"}';
const UNAVAILABLE_BODY = '{"error":"Service Unavailable","message":"the delivery could not be stored; retry"}';

/** Answer-route counters kept by the HTTP layer (the correlator keeps the rest). */
export interface AnswerRouteCounts {
  received: number;
  badSecret: number;
  malformed: number;
  published: number;
  unavailable: number;
}

/** Where accepted deliveries go when the receiver does not publish. */
export interface LocalSink {
  answer(requestId: string, body: Record<string, unknown>, receivedAt: number): void;
  message(body: Record<string, unknown>, receivedAt: number): void;
  intent(body: Record<string, unknown>, receivedAt: number): void;
}

export interface RoutesOptions {
  clock: Clock;
  paths: { answer: string; messages: string; intents: string; health: string };
  checks: { secret?: (v: unknown) => boolean; verifyToken?: (v: unknown) => boolean; intentSecret?: (v: unknown) => boolean };
  counts: { answer: AnswerRouteCounts; messages: InboundRouteStats; intents: InboundRouteStats };
  local: LocalSink;
  publisher: StreamPublisher | undefined;
  bodyLimit: number;
}

function send(reply: FastifyReply, status: number, body: string): void {
  reply.code(status).header('content-type', JSON_TYPE).send(body);
}

function badRequest(reply: FastifyReply, message: string): void {
  send(reply, 400, JSON.stringify({ error: 'Bad Request', message }));
}

function stringOrNumber(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

export function registerRoutes(app: FastifyInstance, o: RoutesOptions): void {
  const { clock, publisher, counts, local } = o;

  /** Publish mode: XADD, then `ok` (the usual answer) or 503; counts received and unavailable. */
  const relay = (
    reply: FastifyReply,
    stats: { received: number; unavailable: number },
    entry: { route: Route; verdict: Verdict; atUs: number; requestId: string | undefined; customerId: string | undefined; body: string },
    ok: () => void,
  ): void => {
    (publisher as StreamPublisher).publish(entry).then(
      () => {
        stats.received++;
        ok();
      },
      () => {
        stats.received++;
        stats.unavailable++;
        send(reply, 503, UNAVAILABLE_BODY);
      },
    );
  };

  const answer = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const atUs = publisher?.wallUs() ?? 0;
    const c = counts.answer;
    if (o.checks.secret !== undefined && !o.checks.secret((req.query as Record<string, unknown>).secret)) {
      if (publisher === undefined) {
        c.received++;
        c.badSecret++;
        send(reply, 401, UNAUTHORIZED_BODY);
        return;
      }
      const raw = typeof req.body === 'string' ? req.body : '';
      const rid = parseObject(raw)?.requestId;
      const requestId = typeof rid === 'string' && rid.length > 0 ? rid : undefined;
      relay(reply, c, { route: 'answer', verdict: 'bad-secret', atUs, requestId, customerId: undefined, body: raw }, () => {
        c.badSecret++;
        send(reply, 401, UNAUTHORIZED_BODY);
      });
      return;
    }
    const body = parseObject(req.body);
    const requestId = body?.requestId;
    if (body === undefined || typeof requestId !== 'string' || requestId.length === 0) {
      c.received++;
      c.malformed++;
      badRequest(reply, body === undefined ? 'body is empty, not JSON or not an object' : 'body has no string requestId');
      return;
    }
    if (publisher === undefined) {
      c.received++;
      local.answer(requestId, body, receivedAt);
      send(reply, 200, OK_BODY);
      return;
    }
    const entry = { route: 'answer' as const, verdict: 'ok' as const, atUs, requestId, customerId: undefined, body: req.body as string };
    relay(reply, c, entry, () => {
      c.published++;
      send(reply, 200, OK_BODY);
    });
  };

  const message = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const atUs = publisher?.wallUs() ?? 0;
    const s = counts.messages;
    const raw = typeof req.body === 'string' ? req.body : '';
    const tokenOk = o.checks.verifyToken === undefined || o.checks.verifyToken((req.query as Record<string, unknown>).verify_token);
    const body = parseObject(raw);
    if (tokenOk && body === undefined) {
      s.received++;
      s.malformed++;
      badRequest(reply, 'body is empty, not JSON or not an object');
      return;
    }
    const customerId = stringOrNumber(body?.customerId);
    if (publisher !== undefined) {
      const verdict: Verdict = tokenOk ? 'ok' : 'bad-secret';
      relay(reply, s, { route: 'message', verdict, atUs, requestId: undefined, customerId, body: raw }, () => {
        if (tokenOk) s.accepted++;
        else s.badSecret++;
        send(reply, tokenOk ? 200 : 403, tokenOk ? OK_BODY : BAD_TOKEN_BODY);
      });
      return;
    }
    s.received++;
    if (!tokenOk) {
      s.badSecret++;
      send(reply, 403, BAD_TOKEN_BODY);
      return;
    }
    local.message(body as Record<string, unknown>, receivedAt); // counts accepted
    send(reply, 200, OK_BODY);
  };

  const intent = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const atUs = publisher?.wallUs() ?? 0;
    const s = counts.intents;
    const body = parseObject(req.body);
    if (body === undefined) {
      s.received++;
      s.malformed++;
      badRequest(reply, 'body is empty, not JSON or not an object');
      return;
    }
    const secretOk = o.checks.intentSecret === undefined || o.checks.intentSecret(body.secret);
    if (publisher !== undefined) {
      const verdict: Verdict = secretOk ? 'ok' : 'bad-secret';
      const text = JSON.stringify(redactIntentSecret(body));
      const customerId = typeof body.customer_id === 'string' ? body.customer_id : undefined;
      relay(reply, s, { route: 'intent', verdict, atUs, requestId: undefined, customerId, body: text }, () => {
        if (secretOk) s.accepted++;
        else s.badSecret++;
        send(reply, secretOk ? 200 : 403, secretOk ? INTENT_OK_BODY : FORBIDDEN_BODY);
      });
      return;
    }
    s.received++;
    if (!secretOk) {
      s.badSecret++;
      send(reply, 403, FORBIDDEN_BODY);
      return;
    }
    local.intent(body, receivedAt); // counts accepted
    send(reply, 200, INTENT_OK_BODY);
  };

  const bodyLimit = o.bodyLimit;
  app.route({ method: 'POST', url: o.paths.answer, bodyLimit, handler: answer });
  app.route({ method: 'POST', url: o.paths.messages, bodyLimit, handler: message });
  app.route({ method: 'POST', url: o.paths.intents, bodyLimit, handler: intent });
  app.get(o.paths.health, async (_req, reply) => {
    const up = publisher === undefined || (await publisher.ping());
    send(reply, up ? 200 : 503, up ? OK_BODY : '{"ok":false,"redis":"unreachable"}');
    return reply;
  });
}
