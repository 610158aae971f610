import { getEventListeners } from 'node:events';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { AbortedError } from '../../src/errors.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

const ack = { success: true, requestId: 'tpa-42', message: 'queued' };
const humanMessage = { content: 'hi', type: 'human' };

let server: FixtureServer;
let dispatcher: Agent;
let client: DroidClient;

beforeAll(async () => {
  server = await startFixtureServer();
  dispatcher = new Agent({ connections: 64 });
  client = new DroidClient({ baseUrl: server.url, droidId: 7, token: 'tok-0123456789abcdef', dispatcher });
});
afterAll(async () => {
  await dispatcher.close();
  await server.close();
});

describe('DroidClient: one abort listener per run-wide signal', () => {
  it('serves many requests with one listener on the signal, then aborts every one in flight', async () => {
    const controller = new AbortController();
    server.behave((_req, reply) => reply.code(200).send(ack));
    for (let i = 0; i < 20; i++)
      await Promise.all(
        Array.from({ length: 10 }, () => client.getDroidAnswerAsync({ humanMessage }, { signal: controller.signal })),
      );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);

    let held = 0;
    server.behave(async (_req, reply) => {
      held++;
      await new Promise((r) => setTimeout(r, 5_000));
      return reply.code(200).send(ack);
    });
    const inFlight = Array.from({ length: 30 }, () =>
      client.getDroidAnswerAsync({ humanMessage }, { signal: controller.signal }).then(
        () => 'answered',
        (err: unknown) => err,
      ),
    );
    await expect.poll(() => held).toBe(30);
    controller.abort();
    const outcomes = await Promise.all(inFlight);
    // Every one ended by the abort, none by the server's answer 5 s after it arrived.
    expect(outcomes.every((o) => o instanceof AbortedError)).toBe(true);
    // A request started after the abort is refused at once.
    await expect(client.getDroidAnswerAsync({ humanMessage }, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
  });
});
