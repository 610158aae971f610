/**
 * createReceiver: the Fastify receiver of the service's three webhooks, built by a factory that
 * does not listen. Routes and answers: http-routes.ts. Two modes:
 *
 * - correlating (default): answer webhooks are correlated by requestId (correlator.ts), forwarded
 *   messages and intent webhooks are kept for waiters (inbound.ts);
 * - publish (`options.publish`): a relay for shards on other machines (docs/scale.md). Every delivery
 *   is XADDed to a Redis Stream before it is acknowledged (stream-publisher.ts, format in
 *   stream-entry.ts), nothing is correlated here (waitFor, waitForMessage and waitForIntent
 *   resolve `{kind:'timeout'}` at once: read the stream with createStreamReceiver), and close()
 *   stops accepting, lets every request in flight finish its XADD and its answer, then quits
 *   Redis: nothing is acknowledged and unpublished. Redis is connected (and the skew measured)
 *   when the app gets ready (listen() or the first inject()); an unreachable Redis throws
 *   ConfigError (DROIDCHECK_ERR_CONFIG).
 * Secrets and tokens never appear in a reply, an error, a log line or a stream entry.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify from 'fastify';
import { systemClock } from '../clock.js';
import { answerMatch } from './answer-match.js';
import { Correlator, TIMEOUT } from './correlator.js';
import { registerRoutes, JSON_TYPE, type AnswerRouteCounts } from './http-routes.js';
import { InboundDeliveries } from './inbound.js';
import { createSecretCheck, redactSecretParam } from './secret.js';
import { createStreamPublisher } from './stream-publisher.js';
import type { Receiver, ReceiverOptions, ReceiverStats, ReceiverUrls } from './types.js';

const TIMEOUT_MESSAGE = Object.freeze({ kind: 'timeout' as const });
const LATEST_REQUEST = Symbol('droidcheck.latestRequest');
type SocketWithRequest = Socket & { [LATEST_REQUEST]?: IncomingMessage };

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/** Builds the receiver (not listening). Options and defaults: see ReceiverOptions. */
export function createReceiver(options: ReceiverOptions = {}): Receiver {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const paths = {
    answer: options.path ?? '/webhook',
    messages: options.messagesPath ?? '/messages',
    intents: options.intentsPath ?? '/intents',
    health: options.healthPath ?? '/healthz',
  };
  const clock = options.clock ?? systemClock;
  const bodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  const orphanGraceMs = options.orphanGraceMs ?? 30_000;
  const counts: AnswerRouteCounts = { received: 0, badSecret: 0, malformed: 0, published: 0, unavailable: 0 };
  const correlator = new Correlator({
    clock,
    orphanGraceMs,
    maxParked: options.maxParked ?? 100_000,
    rememberMs: options.rememberMs ?? 600_000,
    maxRemembered: options.maxRemembered ?? 500_000,
  });
  const inbound = new InboundDeliveries(clock, options);
  const publisher = options.publish ? createStreamPublisher(options.publish, clock) : undefined;
  const housekeep = (now?: number): void => {
    correlator.housekeep(now);
    inbound.fire(now);
  };
  const housekeeping = setInterval(() => housekeep(), Math.min(1000, Math.max(10, Math.floor(orphanGraceMs / 4))));
  housekeeping.unref();

  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    bodyLimit,
    requestTimeout: requestTimeoutMs,
    // Node checks request timeouts every connectionsCheckingInterval (default 30 s), and only
    // when headersTimeout is not above requestTimeout.
    http: { connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs), headersTimeout: requestTimeoutMs },
    // Requests Node refuses before Fastify sees them (431 huge headers, 408 slow client, 400 bad
    // HTTP) are counted malformed (on the answer route's counters), then answered like Fastify's
    // default handler does. A request Fastify already routed (its body stalled: the socket's
    // latest request is not complete) is counted by setErrorHandler instead.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if ((socket as SocketWithRequest)[LATEST_REQUEST]?.complete !== false) {
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
  // Each socket's latest request, for clientErrorHandler: a plain 'request' listener beside
  // Fastify's, cheaper per webhook than an onRequest + onResponse hook pair.
  app.server.on('request', (req: IncomingMessage) => void ((req.socket as SocketWithRequest)[LATEST_REQUEST] = req));
  if (publisher !== undefined) app.addHook('onReady', () => publisher.ready());
  // Bodies reach the handlers as raw strings, so a non-JSON body is counted there, not in Fastify.
  // application/json is registered by name so Fastify caches its lookup; a catch-all ('*') match
  // is looked up again (a ContentType parsed) on every request.
  app.removeAllContentTypeParsers();
  const asText = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void): void => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  const routeCounts = { answer: counts, messages: inbound.messageStats, intents: inbound.intentStats };
  // Errors before a handler on a webhook route (413 body too large, bad content-length...).
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    const url = req.routeOptions.url;
    const c = url === paths.answer ? routeCounts.answer : url === paths.messages ? routeCounts.messages : url === paths.intents ? routeCounts.intents : undefined;
    if (req.method === 'POST' && c !== undefined) {
      c.received++;
      c.malformed++;
    }
    reply.code(status).header('content-type', JSON_TYPE).send(
      JSON.stringify({ error: status === 413 ? 'Payload Too Large' : 'Bad Request', message: redactSecretParam(err.message ?? 'error') }),
    );
  });

  registerRoutes(app, {
    clock,
    paths,
    checks: {
      ...(options.secret ? { secret: createSecretCheck(options.secret) } : {}),
      ...(options.verifyToken ? { verifyToken: createSecretCheck(options.verifyToken) } : {}),
      ...(options.intentSecret ? { intentSecret: createSecretCheck(options.intentSecret) } : {}),
    },
    counts: routeCounts,
    local: {
      answer: (requestId, body, receivedAt) => void correlator.deliver(requestId, answerMatch(body, receivedAt), receivedAt),
      message: (body, receivedAt) => inbound.addMessage(body, receivedAt),
      intent: (body, receivedAt) => inbound.addIntent(body, receivedAt),
    },
    publisher,
    bodyLimit,
  });

  let urls: ReceiverUrls | undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    async listen() {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      const base = `http://${urlHost(address)}:${address.port}`;
      urls = { answer: base + paths.answer, messages: base + paths.messages, intents: base + paths.intents, health: base + paths.health };
      return urls.answer;
    },
    urls: () => urls,
    waitFor: (requestId, deadline, signal) =>
      publisher === undefined ? correlator.waitFor(requestId, deadline, signal) : Promise.resolve(TIMEOUT),
    waitForMessage: (wait, deadline, signal) =>
      publisher === undefined ? inbound.waitForMessage(wait, deadline, signal) : Promise.resolve(TIMEOUT_MESSAGE),
    waitForIntent: (wait, deadline, signal) =>
      publisher === undefined ? inbound.waitForIntent(wait, deadline, signal) : Promise.resolve(TIMEOUT_MESSAGE),
    messagesOf: (customerId) => inbound.messagesOf(customerId),
    stats(): ReceiverStats {
      return { ...counts, ...correlator.counts, foreign: 0 };
    },
    inboundStats: () => inbound.stats(),
    pendingCount: () => correlator.pending,
    parkedCount: () => correlator.parked,
    housekeep,
    clockSkew: () => publisher?.skew(),
    close() {
      closing ??= (async () => {
        clearInterval(housekeeping);
        try {
          await app.close(); // stops accepting; requests in flight finish (and publish) first
        } finally {
          await publisher?.close(); // XADDs still in flight finish before Redis is quit
          correlator.close();
          inbound.close();
        }
      })();
      return closing;
    },
  };
}
