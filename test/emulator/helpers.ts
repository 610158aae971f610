/**
 * Test helpers: a real webhook sink on 127.0.0.1:0, a small JSON client over one undici Agent,
 * and the same client over Fastify's `inject()` for routes that need no socket.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import type { Emulator } from '../../src/emulator/index.js';

interface SinkDelivery {
  query: Record<string, string>;
  body: unknown;
  at: number;
}

export interface Sink {
  url: string;
  app: FastifyInstance;
  deliveries: SinkDelivery[];
  /** Resolves when at least `n` deliveries arrived; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<SinkDelivery[]>;
  close(): Promise<void>;
}

/** `status(n)` gives the HTTP status for the n-th (1-based) delivery; default 200. */
export async function startSink(status: (n: number) => number = () => 200, path = '/hook'): Promise<Sink> {
  const app = Fastify({ logger: false });
  const deliveries: SinkDelivery[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  app.post(path, async (req, reply) => {
    deliveries.push({ query: req.query as Record<string, string>, body: req.body, at: Date.now() });
    for (const w of [...waiters]) if (deliveries.length >= w.n) w.resolve();
    return reply.code(status(deliveries.length)).send({ ok: true });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    app,
    deliveries,
    waitFor(n, timeoutMs = 3_000) {
      if (deliveries.length >= n) return Promise.resolve(deliveries);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${deliveries.length} of ${n} deliveries after ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(deliveries);
          },
        });
      });
    },
    close: () => app.close(),
  };
}

export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export function createJsonClient(baseUrl: string, token: string) {
  const agent = new Agent();
  return {
    agent,
    async call(
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<JsonResponse> {
      const res = await request(`${baseUrl}${path}`, {
        method,
        dispatcher: agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.statusCode, headers: res.headers, body: parsed, text };
    },
    close: () => agent.close(),
  };
}

type Method = 'GET' | 'POST' | 'PUT';

/**
 * `call(method, path, body?, headers?)` through `emulator.app.inject()`: no socket, same
 * JsonResponse as createJsonClient. `token` '' sends no Authorization header.
 */
export function injectClient(emulator: Emulator, token: string = emulator.token) {
  return {
    async call(
      method: Method,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<JsonResponse> {
      const res = await emulator.app.inject({
        method,
        url: path,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      let parsed: unknown;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        parsed = undefined;
      }
      return { status: res.statusCode, headers: res.headers as JsonResponse['headers'], body: parsed, text: res.body };
    },
  };
}
