/**
 * The receiver's HTTP routes: each checks and classifies a webhook once (delivery.ts), hands it
 * to the DeliverySink, answers as the sink's Reply says, and counts. Bodies reach them as raw
 * strings (webhook-server.ts removes Fastify's parsers), so a non-JSON body is counted here.
 *
 * POST <answer path>?secret=   answer or error payload (the spec's Events and Authentication sections)
 *   - secret configured and `secret` missing or different (constant time) => bad-secret, 401;
 *   - empty, not JSON, not an object, or no string requestId => 400, malformed (not handed on);
 *   - else ok, 200 `{"ok":true}`.
 * POST <messages path>?verify_token=   MessageForwarding (the service's message-forwarding docs)
 *   - token configured and `verify_token` missing or different (constant time) => bad-secret, 403;
 *   - not a JSON object => 400, malformed; else ok, 200 `{"ok":true}` (schema violations travel
 *     with the message).
 * POST <intents path>   IntentWebhookRequest (the service's intent-webhook docs)
 *   - not a JSON object => 400, malformed;
 *   - secret configured and the body's `secret` missing or different => bad-secret, 403
 *     `{"error":"Forbidden"}`;
 *   - else ok, 200 `[]`: the docs say the service sends a response's array of strings to the
 *     customer ("Allow bot to send messages from provider URL"), so an empty array sends nothing.
 * GET <health path>: 200 `{"ok":true}` while the sink is healthy, else 503.
 *
 * Counters per route (RouteCounts): received = accepted + badSecret + malformed + unavailable,
 * each counted when the answer is decided (a sink that answers later is counted then).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { DROP, type Delivery, type DeliverySink, type Reply, type Route } from './delivery.js';
import { parseObject } from './json-body.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
const OK_BODY = '{"ok":true}';

/** Counters of one route; what the sink did with accepted deliveries is the sink's (answerCounts). */
export interface RouteCounts {
  received: number;
  accepted: number;
  badSecret: number;
  malformed: number;
  unavailable: number;
}

export function emptyRouteCounts(): RouteCounts {
  return { received: 0, accepted: 0, badSecret: 0, malformed: 0, unavailable: 0 };
}

export type Checks = {
  secret?: (v: unknown) => boolean;
  verifyToken?: (v: unknown) => boolean;
  intentSecret?: (v: unknown) => boolean;
};

export interface RoutesOptions {
  clock: Clock;
  paths: { answer: string; messages: string; intents: string; health: string };
  checks: Checks;
  counts: Record<Route, RouteCounts>;
  sink: DeliverySink;
  bodyLimit: number;
}

/** The usual answer of a route: 200 and its body for `ok`, the status and body of a refused secret. */
interface Usual {
  okBody: string;
  refusedStatus: number;
  refusedBody: string;
}

const USUAL: Record<Route, Usual> = {
  answer: {
    okBody: OK_BODY,
    refusedStatus: 401,
    refusedBody: '{"error":"Unauthorized","message":"invalid or missing webhook secret"}',
  },
  message: {
    okBody: OK_BODY,
    refusedStatus: 403,
    refusedBody: '{"error":"Forbidden","message":"invalid or missing verify_token"}',
  },
  intent: { okBody: '[]', refusedStatus: 403, refusedBody: '{"error":"Forbidden"}' },
};
const UNAVAILABLE_BODY = '{"error":"Service Unavailable","message":"the delivery could not be stored; retry"}';

function send(reply: FastifyReply, status: number, body: string): void {
  reply.code(status).header('content-type', JSON_TYPE).send(body);
}

function errorBody(status: number): string {
  return status === 503
    ? UNAVAILABLE_BODY
    : `{"error":"HTTP ${status}","message":"answered ${status} on purpose (response plan)"}`;
}

/** Counts and sends the answer `r` decided for `d`. */
function answerWith(reply: FastifyReply, c: RouteCounts, d: Delivery, r: Reply): void {
  c.received++;
  if (r === undefined) {
    const usual = USUAL[d.route];
    if (d.verdict === 'ok') {
      c.accepted++;
      send(reply, 200, usual.okBody);
    } else {
      c.badSecret++;
      send(reply, usual.refusedStatus, usual.refusedBody);
    }
    return;
  }
  c.unavailable++;
  if (r !== DROP) {
    send(reply, r, errorBody(r));
    return;
  }
  reply.hijack();
  reply.raw.destroy();
}

/** Hands `d` to the sink and answers as it says (now, or once its promise settles). */
function hand(sink: DeliverySink, reply: FastifyReply, c: RouteCounts, d: Delivery): void {
  const r = sink.take(d);
  if (typeof r !== 'object') answerWith(reply, c, d, r);
  else
    r.then(
      (x) => answerWith(reply, c, d, x),
      () => answerWith(reply, c, d, 503),
    );
}

function malformed(reply: FastifyReply, c: RouteCounts, message: string): void {
  c.received++;
  c.malformed++;
  send(reply, 400, JSON.stringify({ error: 'Bad Request', message }));
}

const NOT_AN_OBJECT = 'body is empty, not JSON or not an object';

function delivery(
  route: Route,
  ok: boolean,
  receivedAt: number,
  requestId: string | undefined,
  customerId: string | undefined,
  body: Record<string, unknown> | undefined,
  raw: string,
): Delivery {
  return { route, verdict: ok ? 'ok' : 'bad-secret', receivedAt, requestId, customerId, body, raw };
}

function stringOrNumber(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

export function registerRoutes(app: FastifyInstance, o: RoutesOptions): void {
  const { clock, counts, sink, checks } = o;

  const answer = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const raw = typeof req.body === 'string' ? req.body : '';
    const body = parseObject(raw);
    const rid = body?.requestId;
    const requestId = typeof rid === 'string' && rid.length > 0 ? rid : undefined;
    const ok = checks.secret === undefined || checks.secret((req.query as Record<string, unknown>).secret);
    if (ok && requestId === undefined) {
      malformed(reply, counts.answer, body === undefined ? NOT_AN_OBJECT : 'body has no string requestId');
      return;
    }
    hand(sink, reply, counts.answer, delivery('answer', ok, receivedAt, requestId, undefined, body, raw));
  };

  const message = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const raw = typeof req.body === 'string' ? req.body : '';
    const ok =
      checks.verifyToken === undefined || checks.verifyToken((req.query as Record<string, unknown>).verify_token);
    const body = parseObject(raw);
    if (ok && body === undefined) {
      malformed(reply, counts.message, NOT_AN_OBJECT);
      return;
    }
    hand(
      sink,
      reply,
      counts.message,
      delivery('message', ok, receivedAt, undefined, stringOrNumber(body?.customerId), body, raw),
    );
  };

  const intent = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const raw = typeof req.body === 'string' ? req.body : '';
    const body = parseObject(raw);
    if (body === undefined) {
      malformed(reply, counts.intent, NOT_AN_OBJECT);
      return;
    }
    const ok = checks.intentSecret === undefined || checks.intentSecret(body.secret);
    const customerId = typeof body.customer_id === 'string' ? body.customer_id : undefined;
    hand(sink, reply, counts.intent, delivery('intent', ok, receivedAt, undefined, customerId, body, raw));
  };

  const bodyLimit = o.bodyLimit;
  app.route({ method: 'POST', url: o.paths.answer, bodyLimit, handler: answer });
  app.route({ method: 'POST', url: o.paths.messages, bodyLimit, handler: message });
  app.route({ method: 'POST', url: o.paths.intents, bodyLimit, handler: intent });
  app.get(o.paths.health, async (_req, reply) => {
    const up = await sink.healthy();
    send(reply, up ? 200 : 503, up ? OK_BODY : '{"ok":false,"redis":"unreachable"}');
    return reply;
  });
}
