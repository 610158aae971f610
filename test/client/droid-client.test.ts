import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { AbortedError, ApiError, ContractError, TimeoutError, TransportError } from '../../src/errors.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

const TOKEN = 'tok-SECRET-0123456789abcdef';
const PREFIX = '/api/droids/7/endpoint';
const ack = { success: true, requestId: 'tpa-42', message: 'queued; the answer goes to the webhook' };
const humanMessage = { content: 'hi', type: 'human' };

let server: FixtureServer;
let dispatcher: Agent;
let client: DroidClient;

beforeAll(async () => {
  server = await startFixtureServer();
  dispatcher = new Agent();
  client = new DroidClient({ baseUrl: server.url, droidId: 7, token: TOKEN, dispatcher });
});
afterAll(async () => {
  await dispatcher.close();
  await server.close();
});
beforeEach(() => {
  server.seen.length = 0;
});

async function caught(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

function expectNoToken(err: Error): void {
  expect(JSON.stringify({ ...err, message: err.message })).not.toContain(TOKEN);
  expect(String(err)).not.toContain(TOKEN);
}

describe('DroidClient: success', () => {
  it('sends the async request with bearer token and JSON body, parses and checks the ack', async () => {
    server.behave((_req, reply) => reply.code(200).header('x-trace', 'abc').send(ack));
    const res = await client.getDroidAnswerAsync({ humanMessage, chatHistory: [{ content: 'x', type: 'ai' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ack);
    expect(res.contract.ok).toBe(true);
    expect(res.headers['x-trace']).toBe('abc');
    const seen = server.seen[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe(`${PREFIX}/get-droid-answer-async`);
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ humanMessage, chatHistory: [{ content: 'x', type: 'ai' }] });
  });

  it('resolves a 2xx body that breaks the schema, with the violations in contract', async () => {
    server.behave((_req, reply) => reply.code(200).send({ success: 'yes', requestId: 'nope', extra: 1 }));
    const res = await client.getDroidAnswerAsync({ humanMessage });
    expect(res.contract.ok).toBe(false);
    expect(res.contract.violations.map((v) => v.path).sort()).toEqual(['message', 'requestId', 'success']);
    expect(res.contract.unknownFields).toEqual(['extra']);
  });

  it('calls every endpoint with the right method, path and body', async () => {
    server.behave((_req, reply) => reply.code(200).send({ ok: true }));
    await client.getDroidAnswer({ humanMessage });
    await client.channels();
    await client.messages(1001);
    await client.customer('c/1');
    await client.conversations(1001);
    await client.ask(1001, 'summarise');
    await client.send({ customerId: 1001, humanMessage: 'hello' });
    await client.setBot(1001, false);
    await client.imageAlt('https://example.test/a.png');
    expect(server.seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      `POST ${PREFIX}/get-droid-answer {"humanMessage":{"content":"hi","type":"human"}}`, // auto: the object form first
      `GET ${PREFIX}/channels `,
      `GET ${PREFIX}/messages/1001 `,
      `GET ${PREFIX}/customer/c%2F1 `,
      `GET ${PREFIX}/customer/1001/conversations `,
      `POST ${PREFIX}/customer/1001/ask {"prompt":"summarise"}`,
      `POST ${PREFIX}/send {"customerId":1001,"humanMessage":"hello"}`,
      `POST ${PREFIX}/customer/1001 {"botEnabled":false}`,
      `POST ${PREFIX}/get-image-alt {"imageUrl":"https://example.test/a.png"}`,
    ]);
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('checks the other endpoints on two tiers: documented shapes are findings, choices only unverified', async () => {
    server.behave((_req, reply) => reply.code(200).send({ answer: 'positive' }));
    const good = await client.ask(1001, 'sentiment?');
    expect(good.contract.ok).toBe(true);
    expect(good.body.answer).toBe('positive');
    server.behave((_req, reply) => reply.code(200).send({ reply: 'positive' }));
    const bad = await client.ask(1001, 'sentiment?');
    expect(bad.contract.violations.map((v) => v.path)).toEqual(['answer']);
    // spec 7: the response shape is "not shown": another shape is never a violation.
    server.behave((_req, reply) => reply.code(200).send({ success: true, customerId: 1001 }));
    const other = await client.setBot(1001, true);
    expect(other.contract.ok).toBe(true);
    expect(other.contract.violations).toEqual([]);
    expect(other.contract.unverified.map((v) => v.path)).toEqual(['botEnabled']);
  });

  it('keeps a path prefix of the base URL', async () => {
    const prefixed = new DroidClient({ baseUrl: `${server.url}/svc/`, droidId: 'd 1', token: TOKEN, dispatcher });
    server.behave((_req, reply) => reply.code(200).send([]));
    await prefixed.channels();
    expect(server.seen[0]?.url).toBe('/svc/api/droids/d%201/endpoint/channels');
  });
});

describe('DroidClient: HTTP errors (spec: Errors)', () => {
  it('400 => ApiError with error and message from the body', async () => {
    server.behave((_req, reply) =>
      reply.code(400).send({ error: 'Bad Request', message: 'Invalid humanMessage format' }),
    );
    const err = await caught(client.getDroidAnswerAsync({ humanMessage }));
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api.code).toBe('DROIDCHECK_ERR_API');
    expect(api.status).toBe(400);
    expect(api.error).toBe('Bad Request');
    expect(api.apiMessage).toBe('Invalid humanMessage format');
    expect(api.message).toContain('get-droid-answer-async answered HTTP 400');
    expect(api.bodyExcerpt).toContain('Invalid humanMessage format');
  });

  it('401 Invalid API key and 403 without body', async () => {
    server.behave((_req, reply) => reply.code(401).send({ error: 'Unauthorized', message: 'Invalid API key' }));
    const e401 = (await caught(client.getDroidAnswerAsync({ humanMessage }))) as ApiError;
    expect([e401.status, e401.error, e401.apiMessage]).toEqual([401, 'Unauthorized', 'Invalid API key']);
    server.behave((_req, reply) => reply.code(403).send());
    const e403 = (await caught(client.customer(5))) as ApiError;
    expect([e403.status, e403.error, e403.apiMessage, e403.bodyExcerpt]).toEqual([403, undefined, undefined, '']);
  });

  it('429 => retryAfterS from Retry-After (seconds and HTTP-date)', async () => {
    server.behave((_req, reply) =>
      reply.code(429).header('retry-after', '7').send({ error: 'Too Many Requests', message: 'slow down' }),
    );
    const err = (await caught(client.getDroidAnswerAsync({ humanMessage }))) as ApiError;
    expect(err.status).toBe(429);
    expect(err.retryAfterS).toBe(7);
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.behave((_req, reply) => reply.code(429).header('retry-after', at).send(''));
    const dated = (await caught(client.channels())) as ApiError;
    expect(dated.retryAfterS).toBeGreaterThanOrEqual(28);
    expect(dated.retryAfterS).toBeLessThanOrEqual(31);
  });

  it('HTML error page => ApiError with a 500-character excerpt', async () => {
    const html = `<html><body>${'x'.repeat(2000)}</body></html>`;
    server.behave((_req, reply) => reply.code(502).type('text/html').send(html));
    const err = (await caught(client.channels())) as ApiError;
    expect(err.status).toBe(502);
    expect(err.error).toBeUndefined();
    expect(err.bodyExcerpt).toBe(html.slice(0, 500));
  });
});

describe('DroidClient: 2xx that is not JSON => ContractError', () => {
  it.each([
    ['HTML page', 'text/html', '<html><body>maintenance</body></html>', 'not JSON'],
    ['truncated JSON', 'application/json', '{"success":true,"requestId":"tpa-', 'not JSON'],
    ['empty body', 'application/json', '', 'empty body'],
  ])('%s', async (_name, type, text, expected) => {
    server.behave((_req, reply) => reply.code(200).type(type).send(text));
    const err = (await caught(client.getDroidAnswerAsync({ humanMessage }))) as ContractError;
    expect(err).toBeInstanceOf(ContractError);
    expect(err.code).toBe('DROIDCHECK_ERR_CONTRACT');
    expect(err.message).toContain(expected);
    expect(err.bodyExcerpt).toBe(text);
  });
});

describe('DroidClient: no HTTP answer', () => {
  it('connection reset => TransportError with a cause code', async () => {
    server.behave((req) => {
      req.raw.socket.destroy();
      return new Promise(() => {});
    });
    const err = (await caught(client.getDroidAnswerAsync({ humanMessage }))) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('DROIDCHECK_ERR_TRANSPORT');
    expect(['UND_ERR_SOCKET', 'ECONNRESET']).toContain(err.causeCode);
  });

  it('connection refused => TransportError ECONNREFUSED', async () => {
    const other = await startFixtureServer();
    const url = other.url;
    await other.close();
    const dead = new DroidClient({ baseUrl: url, droidId: 7, token: TOKEN, dispatcher });
    const err = (await caught(dead.channels())) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.causeCode).toBe('ECONNREFUSED');
    expectNoToken(err);
  });

  it('no headers within the timeout => TimeoutError (undici timers: ~1 s resolution)', async () => {
    // The server answers 8 s after the request reached it; the 50 ms timeout (fired within undici's
    // ~1 s tick) must end the wait long before that, on a busy machine too: half of it.
    const HOLD_MS = 8_000;
    server.behave(async (_req, reply) => {
      await new Promise((r) => setTimeout(r, HOLD_MS).unref());
      return reply.code(200).send(ack);
    });
    const fast = new DroidClient({ baseUrl: server.url, droidId: 7, token: TOKEN, dispatcher, syncTimeoutMs: 50 });
    const t0 = performance.now();
    const err = await caught(fast.getDroidAnswer({ humanMessage }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toContain('50 ms');
    expect(performance.now() - t0).toBeLessThan(HOLD_MS / 2);
    const perCall = await caught(client.channels({ timeoutMs: 50 }));
    expect(perCall).toBeInstanceOf(TimeoutError);
  });

  it('abort via signal => AbortedError, also when already aborted', async () => {
    server.behave(async (_req, reply) => {
      await new Promise((r) => setTimeout(r, 400));
      return reply.code(200).send(ack);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const err = await caught(client.getDroidAnswer({ humanMessage }, { signal: controller.signal }));
    expect(err).toBeInstanceOf(AbortedError);
    expect((err as AbortedError).code).toBe('DROIDCHECK_ERR_ABORTED');
    const early = await caught(client.channels({ signal: AbortSignal.abort() }));
    expect(early).toBeInstanceOf(AbortedError);
  });
});

describe('DroidClient: the token never leaks', () => {
  it('redacts a token echoed in an error body, its fields and a 2xx excerpt', async () => {
    server.behave((req, reply) =>
      reply.code(400).send({ error: `Bad ${req.headers.authorization}`, message: `token ${TOKEN} rejected` }),
    );
    const api = (await caught(client.getDroidAnswerAsync({ humanMessage }))) as ApiError;
    expect(api.apiMessage).toBe('token [REDACTED] rejected');
    expectNoToken(api);
    expect(api.bodyExcerpt).not.toContain(TOKEN);
    server.behave((_req, reply) => reply.code(200).type('text/html').send(`<p>${TOKEN}</p>`));
    const contract = (await caught(client.channels())) as ContractError;
    expect(contract.bodyExcerpt).toBe('<p>[REDACTED]</p>');
    expectNoToken(contract);
  });
});
