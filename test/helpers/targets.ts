/**
 * Small targets for engine timing tests, all on 127.0.0.1 port 0: a "stall" server whose sync
 * answers all wait while a stall window is open, and a "delay" server that answers after a fixed
 * delay and records its own per-request time (the emulator with a receiver: ./loopback.ts).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent } from 'undici';
import { DroidClient } from '../../src/client/index.js';

export interface StallTarget {
  client: DroidClient;
  /** From now, every answer waits until now + ms (requests in flight included). */
  stall(ms: number): void;
  close(): Promise<void>;
}

/** A sync-answer server that answers at once, except during a stall. */
export async function stallTarget(): Promise<StallTarget> {
  const app: FastifyInstance = Fastify({ logger: false });
  let stallUntil = 0;
  const waiting = new Set<() => void>();
  app.post('/api/droids/1/endpoint/get-droid-answer', async () => {
    const wait = stallUntil - performance.now();
    if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait));
    return { answer: 'ok', requestId: 'tpa-stall' };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const dispatcher = new Agent({ connections: null });
  const client = new DroidClient({ baseUrl: `http://127.0.0.1:${port}`, droidId: 1, token: 't', dispatcher });
  return {
    client,
    stall(ms) {
      stallUntil = performance.now() + ms;
      for (const w of waiting) w();
    },
    async close() {
      await dispatcher.close();
      await app.close();
    },
  };
}

export interface DelayTarget {
  client: DroidClient;
  /** Injected delay, ms (changeable between runs). */
  delayMs: number;
  /** Server-side time of each answered request, ms: from its arrival (onRequest) to the reply. */
  truth: number[];
  close(): Promise<void>;
}

/** A sync-answer server that answers after a fixed delay and records its own per-request time. */
export async function delayTarget(delayMs: number): Promise<DelayTarget> {
  const app: FastifyInstance = Fastify({ logger: false });
  const truth: number[] = [];
  const target = { delayMs } as { delayMs: number };
  app.addHook('onRequest', async (request) => {
    (request as unknown as { t0: number }).t0 = performance.now();
  });
  app.post('/api/droids/1/endpoint/get-droid-answer', async (request) => {
    if (target.delayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, target.delayMs));
    truth.push(performance.now() - (request as unknown as { t0: number }).t0);
    return { answer: 'ok', requestId: 'tpa-delay' };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const dispatcher = new Agent({ connections: null });
  const client = new DroidClient({ baseUrl: `http://127.0.0.1:${port}`, droidId: 1, token: 't', dispatcher });
  return Object.assign(target, {
    client,
    truth,
    async close() {
      await dispatcher.close();
      await app.close();
    },
  });
}
