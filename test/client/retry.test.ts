/**
 * The client's opt-in retry (src/client/retry.ts, through undici's retry interceptor) against a
 * real server on 127.0.0.1: 429 and 5xx retried up to the attempts, the last answer reaching the
 * caller; a transport error retried for get-droid-answer, never for an async submit; never a
 * success, a 4xx or a response whose body broke after its headers; each retry counted once; an
 * abort during the wait ends the call at once.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import type { RetryPolicy } from '../../src/client/retry.js';
import { AbortedError, ApiError, TransportError } from '../../src/errors.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

const ack = { success: true, requestId: 'tpa-1', message: 'queued' };
const answer = { success: true, message: 'Yes, we do.', requestId: 'r-1' };
const humanMessage = { content: 'hi', type: 'human' };
const policy: RetryPolicy = { attempts: 4, baseMs: 1, maxMs: 4, jitter: 0.5, maxRetryAfterMs: 30 };
/** A wait far longer than any test: only an abort can end it. */
const long: RetryPolicy = { ...policy, baseMs: 60_000, maxMs: 60_000 };

let server: FixtureServer;
let dispatcher: Agent;
let client: DroidClient;

beforeAll(async () => {
  server = await startFixtureServer();
  dispatcher = new Agent();
  client = new DroidClient({ baseUrl: server.url, droidId: 7, token: 't', dispatcher, syncMessageForm: 'object' });
});
afterAll(async () => {
  await dispatcher.close();
  await server.close();
});
beforeEach(() => {
  server.seen.length = 0;
});

/** Retries seen by `onRetry`: the attempt about to start and the wait, ms. */
function counting(p: RetryPolicy = policy) {
  const retries: { attempt: number; waitMs: number }[] = [];
  return {
    retries,
    retry: { policy: p, onRetry: (attempt: number, _e: unknown, waitMs: number) => retries.push({ attempt, waitMs }) },
  };
}

const reset = (req: { raw: { socket: { destroy(): void } } }) => {
  req.raw.socket.destroy();
  return new Promise(() => {});
};

describe('client retry: 429 and 5xx', () => {
  it('stops after the attempts; the last answer reaches the caller with its body; counts each retry', async () => {
    server.behave((_req, reply) => reply.code(503).send({ error: 'Service Unavailable', message: 'busy' }));
    const { retries, retry } = counting();
    const err = await client.getDroidAnswerAsync({ humanMessage }, { retry }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, apiMessage: 'busy' });
    expect(server.seen).toHaveLength(4);
    expect(retries.map((r) => r.attempt)).toEqual([2, 3, 4]);
  });

  it('never sends again after a success (an acknowledged async request is done)', async () => {
    server.behave((_req, reply) =>
      server.seen.length === 1 ? reply.code(429).header('retry-after', '0').send({}) : reply.code(200).send(ack),
    );
    const { retries, retry } = counting();
    const res = await client.getDroidAnswerAsync({ humanMessage }, { retry });
    expect(res.body).toEqual(ack);
    expect(server.seen).toHaveLength(2);
    expect(retries).toHaveLength(1);
  });

  it('honours Retry-After up to its cap (plus jitter of at most jitter * baseMs)', async () => {
    server.behave((_req, reply) =>
      server.seen.length === 1 ? reply.code(429).header('retry-after', '3600').send({}) : reply.code(200).send(ack),
    );
    const { retries, retry } = counting({ ...policy, baseMs: 10, maxRetryAfterMs: 200 });
    const t0 = performance.now();
    await client.getDroidAnswerAsync({ humanMessage }, { retry });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(199);
    expect(retries[0]?.waitMs).toBeGreaterThanOrEqual(200);
    expect(retries[0]?.waitMs).toBeLessThanOrEqual(205);
  });

  it('never retries another 4xx', async () => {
    server.behave((_req, reply) => reply.code(404).send({ error: 'Not Found', message: 'no droid' }));
    const { retries, retry } = counting();
    await expect(client.getDroidAnswer({ humanMessage }, { retry })).rejects.toMatchObject({ status: 404 });
    expect(server.seen).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('an abort during the wait ends the call with AbortedError, sending nothing more', async () => {
    server.behave((_req, reply) => reply.code(503).send({}));
    const controller = new AbortController();
    const { retries, retry } = counting(long);
    const p = client.getDroidAnswer({ humanMessage }, { signal: controller.signal, retry });
    await expect.poll(() => retries.length).toBe(1);
    controller.abort();
    await expect(p).rejects.toBeInstanceOf(AbortedError);
    expect(server.seen).toHaveLength(1);
  });
});

describe('client retry: no HTTP answer', () => {
  it('retries a reset get-droid-answer', async () => {
    server.behave((req, reply) => (server.seen.length < 3 ? reset(req) : reply.code(200).send(answer)));
    const { retries, retry } = counting();
    const res = await client.getDroidAnswer({ humanMessage }, { retry });
    expect(res.body).toEqual(answer);
    expect(server.seen).toHaveLength(3);
    expect(retries.map((r) => r.attempt)).toEqual([2, 3]);
  });

  it('never retries an async submit whose connection was reset (it may have been accepted)', async () => {
    server.behave(reset);
    const { retries, retry } = counting();
    await expect(client.getDroidAnswerAsync({ humanMessage }, { retry })).rejects.toBeInstanceOf(TransportError);
    expect(server.seen).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('never re-sends a request whose response broke after its headers (the answer was produced)', async () => {
    server.behave((_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      reply.raw.write('{"success":true,');
      setTimeout(() => reply.raw.socket?.destroy(), 20);
    });
    const { retries, retry } = counting();
    await expect(client.getDroidAnswer({ humanMessage }, { retry })).rejects.toBeInstanceOf(TransportError);
    expect(server.seen).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('counts a 503 whose body then broke as one retry', async () => {
    server.behave((_req, reply) => {
      if (server.seen.length > 1) return reply.code(200).send(answer);
      reply.hijack();
      reply.raw.writeHead(503, { 'content-type': 'application/json', 'content-length': '200' });
      reply.raw.write('{"error":');
      setTimeout(() => reply.raw.socket?.destroy(), 20);
    });
    const { retries, retry } = counting();
    const res = await client.getDroidAnswer({ humanMessage }, { retry });
    expect(res.body).toEqual(answer);
    expect(server.seen).toHaveLength(2);
    expect(retries.map((r) => r.attempt)).toEqual([2]);
  });

  it('an abort during the wait after a reset ends the call with AbortedError', async () => {
    server.behave(reset);
    const controller = new AbortController();
    const { retries, retry } = counting(long);
    const p = client.getDroidAnswer({ humanMessage }, { signal: controller.signal, retry });
    await expect.poll(() => retries.length).toBe(1);
    controller.abort();
    await expect(p).rejects.toBeInstanceOf(AbortedError);
    expect(server.seen).toHaveLength(1);
  });
});
