/**
 * Client side bad input: responses that break the contract (wrong types, truncated
 * JSON, HTML error pages, empty bodies, a connection cut mid-body) from a tiny real server on
 * 127.0.0.1 become contract violations, `invalid-response` (a 2xx that is not JSON: its own
 * outcome, docs/architecture.md) or transport errors with the raw excerpt in the record, never a
 * crash. Driven through the runner (executeRequest), as a run would.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { systemClock } from '../../src/clock.js';
import { executeRequest, type ExecuteContext, type RequestRecord } from '../../src/runner/index.js';
import { startFixtureServer, type Behaviour, type FixtureServer } from '../client/fixture-server.js';
import { repeatedSuite } from './rig.js';

const TOKEN = 'client-token-0123456789abcdefghijklmnop';
const HTML = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>${'<p>upstream</p>'.repeat(80)}</body></html>`;
let server: FixtureServer;
let receiver: Receiver;
let dispatcher: Agent;
let ctx: ExecuteContext;

beforeAll(async () => {
  server = await startFixtureServer();
  receiver = createReceiver();
  dispatcher = new Agent({ connections: 8 });
  const client = new DroidClient({
    baseUrl: server.url,
    droidId: 1,
    token: TOKEN,
    dispatcher,
    requestTimeoutMs: 2_000,
    syncTimeoutMs: 2_000,
  });
  ctx = { client, receiver, clock: systemClock, timeoutMs: 500, latency: new LatencyRecorder() };
});
afterAll(async () => {
  await dispatcher.close();
  await server.close();
  await receiver.close();
});

async function recordFor(mode: 'sync' | 'async', behaviour: Behaviour): Promise<RequestRecord> {
  server.behave(behaviour);
  const scenario = repeatedSuite(1, mode).scenarios[0]!;
  return executeRequest({ seq: 0, scenario, mode }, ctx);
}

const raw =
  (status: number, type: string, body: string): Behaviour =>
  (_req, reply) =>
    reply.code(status).header('content-type', type).send(body);

const CASES: {
  name: string;
  behaviour: Behaviour;
  outcome: RequestRecord['outcome'];
  excerpt?: RegExp;
  violation?: RegExp;
}[] = [
  {
    name: 'HTML 502 page',
    behaviour: raw(502, 'text/html', HTML),
    outcome: 'rejected',
    excerpt: /^<!DOCTYPE html>.*Bad Gateway/,
  },
  {
    name: 'HTML page with 200',
    behaviour: raw(200, 'text/html', HTML),
    outcome: 'invalid-response',
    excerpt: /^<!DOCTYPE html>/,
    violation: /not JSON/,
  },
  {
    name: 'empty 200 body',
    behaviour: raw(200, 'application/json', ''),
    outcome: 'invalid-response',
    violation: /empty body/,
  },
  { name: 'empty 500 body', behaviour: raw(500, 'application/json', ''), outcome: 'rejected' },
  {
    name: 'truncated JSON',
    behaviour: raw(200, 'application/json', '{"success":true,"requestId":"abc'),
    outcome: 'invalid-response',
    excerpt: /^\{"success":true,"requestId":"abc$/,
    violation: /not JSON/,
  },
  {
    name: 'JSON with a NUL and garbage',
    behaviour: raw(200, 'application/json', '\u0000\u0001{]'),
    outcome: 'invalid-response',
    violation: /not JSON/,
  },
  {
    name: 'error body that is not the spec shape',
    behaviour: raw(400, 'application/json', '{"error":42,"message":["x"]}'),
    outcome: 'rejected',
    excerpt: /"error":42/,
  },
];

describe('contract-breaking responses become records, never crashes', () => {
  for (const mode of ['sync', 'async'] as const) {
    for (const c of CASES) {
      it(`${mode}: ${c.name} => ${c.outcome}`, async () => {
        const r = await recordFor(mode, c.behaviour);
        expect(r.outcome).toBe(c.outcome);
        expect(r.passed).toBe(false);
        expect(r.error?.code).toMatch(/^DROIDCHECK_ERR_/);
        if (c.excerpt) expect(r.error?.excerpt).toMatch(c.excerpt);
        if (c.excerpt) expect(r.error!.excerpt!.length).toBeLessThanOrEqual(500);
        if (c.violation) expect(r.contractViolations.map((v) => v.message).join('\n')).toMatch(c.violation);
      });
    }
  }

  it('async ack with wrong types: violations recorded, no requestId => invalid-response', async () => {
    const r = await recordFor('async', raw(200, 'application/json', '{"success":"yes","requestId":7,"message":null}'));
    expect(r.outcome).toBe('invalid-response');
    expect(r.contractViolations.map((v) => v.path)).toEqual(expect.arrayContaining(['success', 'requestId']));
  });

  it('sync answer with other types: answered; its shape is "not shown" (spec 8), so no contract violation', async () => {
    const r = await recordFor(
      'sync',
      raw(200, 'application/json', '{"requestId":"x","answer":5,"intents":"buy","responses":{}}'),
    );
    expect(r.outcome).toBe('answered');
    expect(r.contractViolations).toEqual([]);
  });

  it('connection cut in the middle of the body => transport-error', async () => {
    const r = await recordFor('sync', (_req, reply) => {
      reply.hijack();
      const socket = reply.raw.socket!;
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"requestId":"x","ans',
      );
      setTimeout(() => socket.destroy(), 20);
    });
    expect(r.outcome).toBe('transport-error');
    expect(r.error?.code).toBe('DROIDCHECK_ERR_TRANSPORT');
  });

  it('200 random truncations of a valid sync answer: each one a record, none a crash', async () => {
    const valid = JSON.stringify({
      requestId: 'r-1',
      answer: 'Hello there, we have silk scarves in red and blue.',
      intents: ['product_inquiry'],
      extra: { a: [1, 2, 3] },
    });
    let seed = 9;
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const cut = valid.slice(0, seed % valid.length);
      const r = await recordFor('sync', raw(200, 'application/json', cut));
      outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
      expect(['invalid-response', 'answered']).toContain(r.outcome);
      if (r.outcome === 'invalid-response') expect(r.error?.excerpt ?? '').toBe(cut.slice(0, 500));
    }
    expect(outcomes.get('invalid-response')).toBeGreaterThan(150);
  });
});
