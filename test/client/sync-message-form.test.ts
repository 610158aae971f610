/**
 * Both forms of get-droid-answer's humanMessage (docs endpoint.mdx §8: a string; the async page:
 * `{content, type?}`), against loopback servers that accept only one form: `auto` finds the one
 * the target accepts (retrying the refused request once) and keeps it; forced modes never switch.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient, type SyncMessageForm } from '../../src/client/index.js';
import { ApiError } from '../../src/errors.js';

type Form = 'object' | 'string';
const TOKEN = 'sync-form-token-0123456789abcdef';
const PATH = '/api/droids/1/endpoint/get-droid-answer';

interface OneFormServer {
  url: string;
  /** The form the server accepts now (tests may change it). */
  accepts: Form;
  /** The form of every humanMessage received, in order. */
  seen: Form[];
  app: FastifyInstance;
}

/** A target whose get-droid-answer accepts humanMessage only as `accepts`; 400 Invalid humanMessage format otherwise. */
async function oneFormServer(accepts: Form): Promise<OneFormServer> {
  const app = Fastify();
  const seen: Form[] = [];
  const server: OneFormServer = { url: '', accepts, seen, app };
  app.post(PATH, async (request, reply) => {
    const hm = (request.body as { humanMessage?: unknown }).humanMessage;
    const form: Form | undefined =
      typeof hm === 'string'
        ? 'string'
        : typeof (hm as { content?: unknown } | null)?.content === 'string'
          ? 'object'
          : undefined;
    if (form) seen.push(form);
    const content = form === 'string' ? (hm as string) : (hm as { content?: string } | null)?.content;
    if (form !== server.accepts || content === '')
      return reply.code(400).send({ error: 'Bad Request', message: 'Invalid humanMessage format' });
    return { answer: `echo: ${content}`, intents: [] };
  });
  server.url = await app.listen({ host: '127.0.0.1', port: 0 });
  return server;
}

let objectOnly: OneFormServer;
let stringOnly: OneFormServer;
let dispatcher: Agent;

beforeAll(async () => {
  [objectOnly, stringOnly] = await Promise.all([oneFormServer('object'), oneFormServer('string')]);
  dispatcher = new Agent();
});
afterAll(async () => {
  await dispatcher.close();
  await objectOnly.app.close();
  await stringOnly.app.close();
});

function clientFor(server: OneFormServer, options: { syncMessageForm?: 'auto' | Form } = {}) {
  server.seen.length = 0;
  const switches: [SyncMessageForm, string][] = [];
  const client = new DroidClient({
    baseUrl: server.url,
    droidId: 1,
    token: TOKEN,
    dispatcher,
    ...options,
    onSyncMessageForm: (form, reason) => switches.push([form, reason]),
  });
  return { client, switches };
}

describe('syncMessageForm: auto (default)', () => {
  it('keeps the object form on a target that accepts it: no retry, no switch', async () => {
    const { client, switches } = clientFor(objectOnly);
    for (let i = 0; i < 3; i++)
      expect((await client.getDroidAnswer({ humanMessage: `hi ${i}`, chatHistory: [] })).body.answer).toBe(
        `echo: hi ${i}`,
      );
    expect(objectOnly.seen).toEqual(['object', 'object', 'object']);
    expect(switches).toEqual([]);
    expect(client.syncMessageForm).toBe('object');
  });

  it('on a string-only target: retries the first request once as a string, then keeps the string form, saying so once', async () => {
    const { client, switches } = clientFor(stringOnly);
    const first = await client.getDroidAnswer({ humanMessage: 'hello', chatHistory: [{ content: 'x', type: 'ai' }] });
    expect(first.status).toBe(200);
    expect(first.body.answer).toBe('echo: hello');
    await client.getDroidAnswer({ humanMessage: { content: 'again', type: 'human' } });
    await client.getDroidAnswer({ humanMessage: 'third' });
    expect(stringOnly.seen).toEqual(['object', 'string', 'string', 'string']);
    expect(switches).toHaveLength(1);
    expect(switches[0]![0]).toBe('string');
    expect(switches[0]![1]).toMatch(
      /refused humanMessage as an object .*400 Invalid humanMessage format.*accepted it as a string/,
    );
    expect(client.syncMessageForm).toBe('string');
  });

  it('switches back (vice versa) when the target changes its mind, reporting each switch once', async () => {
    const flipping = await oneFormServer('string');
    try {
      const { client, switches } = clientFor(flipping);
      await client.getDroidAnswer({ humanMessage: 'one' }); // object refused, string accepted
      flipping.accepts = 'object';
      await client.getDroidAnswer({ humanMessage: 'two' }); // string refused, object accepted
      await client.getDroidAnswer({ humanMessage: 'three' });
      expect(flipping.seen).toEqual(['object', 'string', 'string', 'object', 'object']);
      expect(switches.map(([form]) => form)).toEqual(['string', 'object']);
      expect(switches[1]![1]).toMatch(/refused humanMessage as a string .*accepted it as an object/);
      expect(client.syncMessageForm).toBe('object');
    } finally {
      await flipping.app.close();
    }
  });

  it('when both forms are refused, reports the first 400 and keeps its form', async () => {
    const { client, switches } = clientFor(objectOnly);
    const err = await client.getDroidAnswer({ humanMessage: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).apiMessage).toBe('Invalid humanMessage format');
    expect(objectOnly.seen).toEqual(['object', 'string']);
    expect(switches).toEqual([]);
    expect(client.syncMessageForm).toBe('object');
  });

  it('many requests in flight that all learn the same form report the switch once', async () => {
    const { client, switches } = clientFor(stringOnly);
    const res = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.getDroidAnswer({ humanMessage: `m${i}` })),
    );
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(switches).toHaveLength(1);
    expect(stringOnly.seen.filter((f) => f === 'string')).toHaveLength(8);
  });
});

describe('syncMessageForm: forced', () => {
  it('object: always the object form, a string-only target refuses it, no retry', async () => {
    const { client, switches } = clientFor(stringOnly, { syncMessageForm: 'object' });
    const err = await client.getDroidAnswer({ humanMessage: 'hello' }).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(400);
    expect(stringOnly.seen).toEqual(['object']);
    expect(switches).toEqual([]);
  });

  it('string: always the string form, also for an object message', async () => {
    const { client, switches } = clientFor(stringOnly, { syncMessageForm: 'string' });
    await client.getDroidAnswer({ humanMessage: { content: 'as object', type: 'human' } });
    await client.getDroidAnswer({ humanMessage: 'as string' });
    expect(stringOnly.seen).toEqual(['string', 'string']);
    expect(switches).toEqual([]);
    const refused = clientFor(objectOnly, { syncMessageForm: 'string' });
    await expect(refused.client.getDroidAnswer({ humanMessage: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(objectOnly.seen).toEqual(['string']);
  });
});
