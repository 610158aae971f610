/**
 * createReceiver: the Fastify webhook receiver for get-droid-answer-async answers
 * (spec: Events; Authentication 7). Built by a factory that does not listen.
 *
 * POST <path>?secret=... with an answer or error payload:
 * - secret configured and `secret` missing or different (constant time) => 401, counted badSecret;
 * - body over bodyLimitBytes => 413; empty, not JSON, not an object, or no string requestId => 400;
 *   all counted malformed;
 * - otherwise 200 `{"ok":true}` at once; the body is checked with webhookSchemaFor + checkContract
 *   (violations travel with the match, they do not reject it) and correlated synchronously:
 *   matched / parked / duplicate / late (see correlator.ts).
 * The secret never appears in a reply, an error or a log line.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { checkContract, isErrorPayload, webhookSchemaFor } from '../contract/index.js';
import type { AnswerPayload, ErrorPayload } from '../contract/index.js';
import { systemClock } from '../clock.js';
import { Correlator } from './correlator.js';
import { createSecretCheck, redactSecretParam } from './secret.js';
import type { DeliveredMatch, Receiver, ReceiverOptions, ReceiverStats } from './types.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const OK_BODY = '{"ok":true}';
const UNAUTHORIZED_BODY = '{"error":"Unauthorized","message":"invalid or missing webhook secret"}';

function badRequest(reply: FastifyReply, message: string): void {
  reply.code(400).header('content-type', JSON_TYPE).send(JSON.stringify({ error: 'Bad Request', message }));
}

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/** Builds the receiver (not listening). Options and defaults: see ReceiverOptions. */
export function createReceiver(options: ReceiverOptions = {}): Receiver {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const path = options.path ?? '/webhook';
  const clock = options.clock ?? systemClock;
  const bodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  const secretOk = options.secret ? createSecretCheck(options.secret) : undefined;
  const counts = { received: 0, badSecret: 0, malformed: 0 };
  const correlator = new Correlator({
    clock,
    orphanGraceMs: options.orphanGraceMs ?? 30_000,
    maxParked: options.maxParked ?? 100_000,
    rememberMs: options.rememberMs ?? 600_000,
    maxRemembered: options.maxRemembered ?? 500_000,
  });

  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const routed = new WeakSet<object>();
  const app = Fastify({
    bodyLimit,
    requestTimeout: requestTimeoutMs,
    // Node checks request timeouts every connectionsCheckingInterval (default 30 s), and only
    // when headersTimeout is not above requestTimeout.
    http: { connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs), headersTimeout: requestTimeoutMs },
    // Requests Node refuses before Fastify sees them (431 huge headers, 408 slow client, 400 bad
    // HTTP) are counted malformed too, then answered like Fastify's default handler does. A
    // request Fastify already routed (body stalled) is counted by setErrorHandler instead.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (!routed.has(socket)) {
        counts.received++;
        counts.malformed++;
      }
      const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const text = `{"error":"${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}"}`;
      if (socket.writable) socket.write(`HTTP/1.1 ${status} Error\r\nContent-Length: ${text.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${text}`);
      socket.destroy();
    },
    logger: options.logger
      ? { serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: redactSecretParam(req.url) }) } }
      : false,
  });
  app.addHook('onRequest', (req, _reply, done) => {
    routed.add(req.raw.socket);
    done();
  });
  app.addHook('onResponse', (req, _reply, done) => {
    routed.delete(req.raw.socket);
    done();
  });
  // Bodies reach the handler as raw strings, so a non-JSON body is counted here, not in Fastify.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  // Errors before the handler on the webhook route (413 body too large, bad content-length...).
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (req.method === 'POST' && req.routeOptions.url === path) {
      counts.received++;
      counts.malformed++;
    }
    reply.code(status).header('content-type', JSON_TYPE).send(
      JSON.stringify({ error: status === 413 ? 'Payload Too Large' : 'Bad Request', message: redactSecretParam(err.message ?? 'error') }),
    );
  });

  const checkSecret = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (secretOk === undefined || secretOk((req.query as Record<string, unknown>).secret)) {
      done();
      return;
    }
    counts.received++;
    counts.badSecret++;
    reply.code(401).header('content-type', JSON_TYPE).send(UNAUTHORIZED_BODY);
  };

  const handle = (req: FastifyRequest, reply: FastifyReply): void => {
    const receivedAt = clock.now();
    const raw = req.body;
    let body: unknown;
    try {
      body = typeof raw === 'string' && raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const requestId = body !== null && typeof body === 'object' ? (body as { requestId?: unknown }).requestId : undefined;
    if (typeof requestId !== 'string' || requestId.length === 0 || Array.isArray(body)) {
      counts.received++;
      counts.malformed++;
      badRequest(reply, body === undefined ? 'body is empty or not JSON' : 'body is not an object with a string requestId');
      return;
    }
    const contract = checkContract(webhookSchemaFor(body), body);
    const match: DeliveredMatch = isErrorPayload(body)
      ? { kind: 'failed', payload: body as ErrorPayload, receivedAt, contract }
      : { kind: 'answered', payload: body as AnswerPayload, receivedAt, contract };
    counts.received++;
    correlator.deliver(requestId, match, receivedAt);
    reply.code(200).header('content-type', JSON_TYPE).send(OK_BODY);
  };

  app.route({ method: 'POST', url: path, bodyLimit, onRequest: checkSecret, handler: handle });

  let closing: Promise<void> | undefined;
  return {
    app,
    async listen() {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      return `http://${urlHost(address)}:${address.port}${path}`;
    },
    waitFor: (requestId, deadline, signal) => correlator.waitFor(requestId, deadline, signal),
    stats(): ReceiverStats {
      return { ...counts, ...correlator.counts };
    },
    pendingCount: () => correlator.pending,
    parkedCount: () => correlator.parked,
    close() {
      closing ??= (async () => {
        try {
          await app.close(); // in-flight deliveries finish first
        } finally {
          correlator.close();
        }
      })();
      return closing;
    },
  };
}
