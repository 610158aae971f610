/**
 * Bad input at the receiver: 10,000 generated malformed deliveries mixed with good
 * ones; huge headers; a slow client. Each is counted by category, the receiver keeps serving,
 * and every good delivery is matched. A `*.timing.test.ts` file because the 12,000 deliveries keep
 * a core busy for seconds: alone (vitest.config.ts), they neither slow the tests beside them nor
 * are slowed past their deadlines (a busy machine took 143 s for them amid the unit files).
 */
import { connect, type Socket } from 'node:net';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { assertReceiverAddsUp } from '../../src/runner/accounting.js';
import { systemClock } from '../../src/clock.js';
import { HANG_MS } from '../helpers/hang.js';
import { answerPayload } from '../receiver/payloads.js';

const SECRET = 'bad-input-secret-0123456789abcdefghijklmnop';
const LIMIT = 16 * 1024;
let receiver: Receiver | undefined;
let dispatcher: Agent | undefined;

afterEach(async () => {
  await receiver?.close();
  await dispatcher?.close();
  receiver = undefined;
  dispatcher = undefined;
});

type Category = 'good' | 'badSecret' | 'malformed' | 'orphan';
interface Delivery {
  category: Category;
  status: number;
  query: string;
  body: string;
}

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ok = `?secret=${encodeURIComponent(SECRET)}`;
const MALFORMED: ((i: number) => Delivery)[] = [
  (i) => ({
    category: 'badSecret',
    status: 401,
    query: `?secret=wrong-${i}`,
    body: JSON.stringify(answerPayload(`bad-${i}`)),
  }),
  (i) => ({ category: 'badSecret', status: 401, query: '', body: JSON.stringify(answerPayload(`nosecret-${i}`)) }),
  (i) => ({
    category: 'badSecret',
    status: 401,
    query: `?secret=${SECRET.slice(0, -1)}`,
    body: `{"requestId":"p-${i}"}`,
  }),
  (i) => ({ category: 'malformed', status: 400, query: ok, body: `not json ${i}` }),
  () => ({ category: 'malformed', status: 400, query: ok, body: '' }),
  (i) => ({
    category: 'malformed',
    status: 400,
    query: ok,
    body: JSON.stringify(answerPayload(`t-${i}`)).slice(0, 40),
  }),
  (i) => ({ category: 'malformed', status: 400, query: ok, body: `[${i}]` }),
  (i) => ({ category: 'malformed', status: 400, query: ok, body: `{"requestid":"${i}"}` }),
  (i) => ({ category: 'malformed', status: 400, query: ok, body: `{"requestId":${i}}` }),
  () => ({ category: 'malformed', status: 400, query: ok, body: '{"requestId":""}' }),
  () => ({ category: 'malformed', status: 400, query: ok, body: 'null' }),
  (i) => ({
    category: 'malformed',
    status: 413,
    query: ok,
    body: `{"requestId":"big-${i}","pad":"${'x'.repeat(LIMIT)}"}`,
  }),
  // Valid JSON with a requestId but the wrong shape: accepted (200), nobody waits => orphan.
  (i) => ({ category: 'orphan', status: 200, query: ok, body: `{"requestId":"shape-${i}","answer":42}` }),
];

function generate(malformed: number, good: number, seed: number): Delivery[] {
  const random = prng(seed);
  const out: Delivery[] = [];
  for (let i = 0; i < malformed; i++) out.push(MALFORMED[Math.floor(random() * MALFORMED.length)]!(i));
  for (let i = 0; i < good; i++)
    out.push({ category: 'good', status: 200, query: ok, body: JSON.stringify(answerPayload(`good-${i}`)) });
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('receiver under bad input', () => {
  it('counts 10,000 malformed deliveries by category and matches every good one', async () => {
    receiver = createReceiver({ secret: SECRET, bodyLimitBytes: LIMIT });
    const url = await receiver.listen();
    dispatcher = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
    const deliveries = generate(10_000, 2_000, 42);
    const goodIds = Array.from({ length: 2_000 }, (_, i) => `good-${i}`);
    const waits = goodIds.map((id) => receiver!.waitFor(id, systemClock.now() + HANG_MS));
    const limit = pLimit(64);
    const statuses = await Promise.all(
      deliveries.map((d) =>
        limit(async () => {
          const res = await request(url + d.query, {
            dispatcher,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: d.body,
          });
          await res.body.text();
          return res.statusCode;
        }),
      ),
    );
    deliveries.forEach((d, i) => expect(statuses[i], d.body.slice(0, 60)).toBe(d.status));
    const matches = await Promise.all(waits);
    expect(matches.filter((m) => m.kind === 'answered')).toHaveLength(2_000);
    await receiver.close();
    const count = (c: Category): number => deliveries.filter((d) => d.category === c).length;
    const s = receiver.stats();
    expect(s).toEqual({
      received: deliveries.length,
      matched: 2_000,
      duplicates: 0,
      late: 0,
      orphans: count('orphan'),
      foreign: 0,
      badSecret: count('badSecret'),
      malformed: count('malformed'),
      published: 0,
      unavailable: 0,
    });
    assertReceiverAddsUp(s);
  });

  it('answers huge headers with 431, counts them malformed, and keeps serving', async () => {
    receiver = createReceiver({ secret: SECRET });
    const url = await receiver.listen();
    dispatcher = new Agent({ connections: 4 });
    for (let i = 0; i < 5; i++) {
      const res = await request(url + ok, {
        dispatcher,
        method: 'POST',
        headers: { 'x-pad': 'y'.repeat(64 * 1024) },
        body: '{}',
      }).catch((err: Error) => err);
      // Node answers 431 and closes; a client still writing may see the reset instead.
      if (!(res instanceof Error)) {
        expect(res.statusCode).toBe(431);
        await res.body.text();
      }
    }
    const wait = receiver.waitFor('after-headers', systemClock.now() + HANG_MS);
    const good = await request(url + ok, {
      dispatcher,
      method: 'POST',
      body: JSON.stringify(answerPayload('after-headers')),
    });
    expect(good.statusCode).toBe(200);
    await good.body.text();
    expect((await wait).kind).toBe('answered');
    await receiver.close();
    expect(receiver.stats().malformed).toBe(5);
    assertReceiverAddsUp(receiver.stats());
  });

  it('serves others while slow clients stall, then drops the stalled ones with 408', async () => {
    receiver = createReceiver({ secret: SECRET, requestTimeoutMs: 3_000 });
    const url = new URL(await receiver.listen());
    dispatcher = new Agent({ connections: 4 });
    const sockets: Socket[] = [];
    const closed: Promise<string>[] = [];
    let dropped = 0;
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(url.port), '127.0.0.1');
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      closed.push(
        new Promise((resolve) =>
          socket.on('close', () => {
            dropped += 1;
            resolve(text);
          }),
        ),
      );
      socket.on('error', () => undefined);
      // Headers promise a body that never comes.
      socket.write(
        `POST ${url.pathname}${ok} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"requestId":`,
      );
    }
    const wait = receiver.waitFor('while-stalled', systemClock.now() + HANG_MS);
    const res = await request(url.toString() + ok, {
      dispatcher,
      method: 'POST',
      body: JSON.stringify(answerPayload('while-stalled')),
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect((await wait).kind).toBe('answered');
    // Served while they stalled: answered before the receiver dropped any of them (judged by the
    // order of events, not by a wall-clock bound a busy machine cannot keep).
    expect(dropped).toBe(0);
    const texts = await Promise.race([
      Promise.all(closed),
      new Promise<never>((_, rej) => setTimeout(() => rej(new Error('stalled sockets not closed')), HANG_MS)),
    ]);
    for (const text of texts) expect(text).toMatch(/^HTTP\/1\.1 408/);
    for (const s of sockets) s.destroy();
    await receiver.close();
    expect(receiver.stats().malformed).toBe(20);
    assertReceiverAddsUp(receiver.stats());
  });
});
