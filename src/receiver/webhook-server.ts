/**
 * The Fastify server of the service's three webhooks, built around a DeliverySink (delivery.ts)
 * by a factory that does not listen. createReceiver (the local sink) and createRelay (the stream
 * publisher) are this server with different sinks; the routes (http-routes.ts) do not know which.
 *
 * close(): the sink first answers what it holds back on purpose (a response plan's stalls), then
 * the server stops accepting and every request in flight gets its answer (a relay's XADDs finish
 * first), then the sink closes. Secrets and tokens never appear in a reply, an error or a log line.
 */
import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { DeliverySink, Route } from './delivery.js';
import { emptyRouteCounts, registerRoutes, JSON_TYPE, type Checks, type RouteCounts } from './http-routes.js';
import { createSecretCheck, redactSecretParam } from './secret.js';
import type { InboundRouteStats } from './inbound-types.js';
import type { InboundStats, ReceiverStats, ReceiverUrls, WebhookServerOptions } from './types.js';

const LATEST_REQUEST = Symbol('droidcheck.latestRequest');
type SocketWithRequest = Socket & { [LATEST_REQUEST]?: IncomingMessage };

export interface WebhookServer {
  readonly app: FastifyInstance;
  /** Answer-webhook counters: the route's, with the sink's classification of the accepted ones. */
  stats(): ReceiverStats;
  /** Message and intent counters: the routes', with the sink's claimed and dropped. */
  inboundStats(): InboundStats;
  listen(): Promise<string>;
  urls(): ReceiverUrls | undefined;
  /** See the module comment. Idempotent. */
  close(): Promise<void>;
}

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

function checksOf(options: WebhookServerOptions): Checks {
  return {
    ...(options.secret ? { secret: createSecretCheck(options.secret) } : {}),
    ...(options.verifyToken ? { verifyToken: createSecretCheck(options.verifyToken) } : {}),
    ...(options.intentSecret ? { intentSecret: createSecretCheck(options.intentSecret) } : {}),
  };
}

/**
 * Requests Node refuses before Fastify sees them (431 huge headers, 408 slow client, 400 bad
 * HTTP) are counted malformed (on the answer route's counters), then answered like Fastify's
 * default handler does. A request Fastify already routed (its body stalled: the socket's latest
 * request is not complete) is counted by the error handler instead.
 */
function clientErrorHandler(answer: RouteCounts) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if ((socket as SocketWithRequest)[LATEST_REQUEST]?.complete !== false) {
      answer.received++;
      answer.malformed++;
    }
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const text = `{"error":"${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}"}`;
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} Error\r\nContent-Length: ${text.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${text}`,
      );
    socket.destroy();
  };
}

function createApp(
  options: WebhookServerOptions,
  counts: Record<Route, RouteCounts>,
  bodyLimit: number,
): FastifyInstance {
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    bodyLimit,
    requestTimeout: requestTimeoutMs,
    // Node checks request timeouts every connectionsCheckingInterval (default 30 s), and only
    // when headersTimeout is not above requestTimeout.
    http: { connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs), headersTimeout: requestTimeoutMs },
    clientErrorHandler: clientErrorHandler(counts.answer),
    // The server is built here only to note each socket's latest request (for clientErrorHandler)
    // on the way to Fastify's handler: a second 'request' listener would cost a listener-array
    // copy per webhook. The settings Fastify would give its own server are copied over.
    serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void, fastifyOptions) => {
      const opts = fastifyOptions as {
        http?: ServerOptions;
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
      };
      const server = createServer(opts.http ?? {}, (req, res) => {
        (req.socket as SocketWithRequest)[LATEST_REQUEST] = req;
        handler(req, res);
      });
      if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
      if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
      server.setTimeout(opts.connectionTimeout ?? 0);
      return server;
    },
    logger: options.logger
      ? {
          serializers: {
            req: (req: { method: string; url: string }) => ({ method: req.method, url: redactSecretParam(req.url) }),
          },
        }
      : false,
  });
  // Bodies reach the handlers as raw strings, so a non-JSON body is counted there, not in Fastify.
  // application/json is registered by name so Fastify caches its lookup; a catch-all ('*') match
  // is looked up again (a ContentType parsed) on every request.
  app.removeAllContentTypeParsers();
  const asText = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void): void =>
    done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);
  return app;
}

/**
 * Errors before a handler on a webhook route (413 body too large, bad content-length...): a JSON
 * error, and a POST to a webhook route counted as received and malformed.
 */
function handleRouteErrors(
  app: FastifyInstance,
  paths: { answer: string; messages: string; intents: string },
  counts: Record<Route, RouteCounts>,
): void {
  const byUrl = new Map<string, RouteCounts>([
    [paths.answer, counts.answer],
    [paths.messages, counts.message],
    [paths.intents, counts.intent],
  ]);
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    const c = byUrl.get(req.routeOptions.url ?? '');
    if (req.method === 'POST' && c !== undefined) {
      c.received++;
      c.malformed++;
    }
    reply
      .code(status)
      .header('content-type', JSON_TYPE)
      .send(
        JSON.stringify({
          error: status === 413 ? 'Payload Too Large' : 'Bad Request',
          message: redactSecretParam(err.message ?? 'error'),
        }),
      );
  });
}

/** Builds the server (not listening). Options and defaults: see WebhookServerOptions. */
export function createWebhookServer(options: WebhookServerOptions, clock: Clock, sink: DeliverySink): WebhookServer {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const paths = {
    answer: options.path ?? '/webhook',
    messages: options.messagesPath ?? '/messages',
    intents: options.intentsPath ?? '/intents',
    health: options.healthPath ?? '/healthz',
  };
  const bodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  const counts: Record<Route, RouteCounts> = {
    answer: emptyRouteCounts(),
    message: emptyRouteCounts(),
    intent: emptyRouteCounts(),
  };
  const app = createApp(options, counts, bodyLimit);
  app.addHook('onReady', () => sink.ready());
  handleRouteErrors(app, paths, counts);
  registerRoutes(app, { clock, paths, checks: checksOf(options), counts, sink, bodyLimit });

  let urls: ReceiverUrls | undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    stats(): ReceiverStats {
      const { received, accepted, badSecret, malformed, unavailable } = counts.answer;
      return { received, ...sink.answerCounts(accepted), foreign: 0, badSecret, malformed, unavailable };
    },
    inboundStats(): InboundStats {
      const kept = sink.keptCounts();
      const route = (c: RouteCounts, k: { claimed: number; dropped: number }): InboundRouteStats => ({
        ...c,
        claimed: k.claimed,
        dropped: k.dropped,
      });
      return { messages: route(counts.message, kept.messages), intents: route(counts.intent, kept.intents) };
    },
    async listen() {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      const base = `http://${urlHost(address)}:${address.port}`;
      urls = {
        answer: base + paths.answer,
        messages: base + paths.messages,
        intents: base + paths.intents,
        health: base + paths.health,
      };
      return urls.answer;
    },
    urls: () => urls,
    close() {
      closing ??= (async () => {
        sink.release();
        try {
          await app.close(); // stops accepting; requests in flight get their answers first
        } finally {
          await sink.close();
        }
      })();
      return closing;
    },
  };
}
