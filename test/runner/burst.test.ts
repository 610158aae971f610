/**
 * A `burst` step through the engine, against a scripted service on 127.0.0.1 port 0 whose every
 * message has its own answer time and fate (answer, error payload, HTTP 409, nothing), in both
 * modes:
 * - each message's chatHistory holds the burst's earlier messages and only the answers that had
 *   arrived when it was sent, in the order they happened; the step after it gets them all;
 * - the arrival order gives the findings; each message's own expectations and latency limit,
 *   the final state's expect and capture;
 * - a declined message is a finding, not a failure (unless its own expectations asked for an
 *   answer); no message answered, or one unanswered, ends the step with that outcome.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import type { ChatHistoryItem } from '../../src/contract/index.js';
import { generateAnswer } from '../../src/emulator/index.js';
import { buildAnswerPayload, buildErrorPayload } from '../../src/emulator/payload.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import type { EngineResult, RequestRecord } from '../../src/runner/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { runPlan } from '../helpers/engine.js';

const SECRET = 'burst-runner-secret-0123456789abcdefghij';

/** What the service does with a message: answer after `ms`, or an error payload, a 409, nothing. */
interface Fate {
  ms: number;
  kind?: 'answer' | 'error' | 'refuse' | 'never';
}
let fates: Record<string, Fate> = {};
/** Every answer request as received: its message and history. */
const received: { humanMessage: string; chatHistory: ChatHistoryItem[] }[] = [];

let receiver: Receiver;
let client: DroidClient;
let close: () => Promise<void>;

beforeAll(async () => {
  receiver = createReceiver({ secret: SECRET });
  const webhook = new URL(await receiver.listen());
  webhook.searchParams.set('secret', SECRET);
  // A message the service never answers holds its connection: closing the server cuts it.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const dispatcher = new Agent();
  let n = 0;
  const payloadOf = (text: string, history: ChatHistoryItem[], requestId: string, error = false) => {
    const meta = { requestId, droidId: 1, customerId: 5, executionTime: 1, timestamp: new Date().toISOString() };
    return error
      ? buildErrorPayload('Failed to generate AI response: interrupted by a newer message', meta)
      : buildAnswerPayload(generateAnswer({ humanMessage: text, chatHistory: history }), meta);
  };
  const parse = (body: unknown): { text: string; history: ChatHistoryItem[] } => {
    const b = body as { humanMessage: string | { content: string }; chatHistory?: ChatHistoryItem[] };
    const text = typeof b.humanMessage === 'string' ? b.humanMessage : b.humanMessage.content;
    received.push({ humanMessage: text, chatHistory: b.chatHistory ?? [] });
    return { text, history: b.chatHistory ?? [] };
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  app.post('/api/droids/1/endpoint/get-droid-answer', async (req, reply) => {
    const { text, history } = parse(req.body);
    const fate = fates[text] ?? { ms: 0 };
    if (fate.kind === 'refuse') return reply.code(409).send({ error: 'Conflict', message: 'a run is in progress' });
    await wait(fate.kind === 'never' ? 30_000 : fate.ms);
    return payloadOf(text, history, `tpa-sync${++n}`, fate.kind === 'error');
  });
  app.post('/api/droids/1/endpoint/get-droid-answer-async', async (req, reply) => {
    const { text, history } = parse(req.body);
    const fate = fates[text] ?? { ms: 0 };
    if (fate.kind === 'refuse') return reply.code(409).send({ error: 'Conflict', message: 'a run is in progress' });
    const requestId = `tpa-async${++n}`;
    if (fate.kind !== 'never')
      setTimeout(() => {
        void request(webhook, {
          method: 'POST',
          dispatcher,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payloadOf(text, history, requestId, fate.kind === 'error')),
        }).then((res) => res.body.dump());
      }, fate.ms);
    return { success: true, requestId, message: 'queued' };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  // A sync answer gives up after 3 s (the longest answer here takes 2 s).
  client = new DroidClient({
    baseUrl: `http://127.0.0.1:${port}`,
    droidId: 1,
    token: 't',
    dispatcher,
    syncTimeoutMs: 3000,
  });
  close = async () => {
    await app.close();
    await dispatcher.close();
    await receiver.close();
  };
});
afterAll(() => close());

/** Runs `yaml` (one scenario) in `mode` with `fates`, and its record. */
async function run(yaml: string, mode: 'sync' | 'async', f: Record<string, Fate>, timeoutMs = 10_000) {
  fates = f;
  received.length = 0;
  const result: EngineResult = await runPlan({ client, receiver }, [parseSuite(yaml, 'burst.yaml')], {
    mode,
    timeoutMs,
  });
  return { record: result.records![0] as RequestRecord, result };
}

const human = (content: string): ChatHistoryItem => ({ type: 'human', content });
const ai = (content: string): ChatHistoryItem => ({ type: 'ai', content });
const answerTo = (text: string, history: ChatHistoryItem[] = []) =>
  generateAnswer({ humanMessage: text, chatHistory: history }).answer;

describe.each(['sync', 'async'] as const)('a burst, %s', (mode) => {
  it('sends each message with the earlier ones and only the answers that had arrived; the next step gets them all, in the order they happened', async () => {
    const { record } = await run(
      `
scenarios:
  - name: three messages
    chatHistory: [{ human: Hello }, { ai: Hi! }]
    steps:
      - burst:
          say: [Do you sell shirts?, Do you sell belts?, Do you sell scarves?]
          gap: 800ms
      - say: Thanks
`,
      mode,
      // Wide margins: a busy machine may delay an answer by a few hundred ms, never the order.
      { 'Do you sell shirts?': { ms: 0 }, 'Do you sell belts?': { ms: 2000 }, 'Do you sell scarves?': { ms: 0 } },
    );
    expect(record.outcome).toBe('answered');
    expect(record.passed).toBe(true);
    const base = [human('Hello'), ai('Hi!')];
    const A = ai(answerTo('Do you sell shirts?', base));
    const shirts = human('Do you sell shirts?');
    const belts = human('Do you sell belts?');
    const scarves = human('Do you sell scarves?');
    const B = ai(answerTo('Do you sell belts?', [...base, shirts, A]));
    const C = ai(answerTo('Do you sell scarves?', [...base, shirts, A, belts]));
    expect(received.map((r) => r.chatHistory)).toEqual([
      base,
      [...base, shirts, A],
      [...base, shirts, A, belts],
      // The belts' answer came last (2 s after its message, the scarves' at once).
      [...base, shirts, A, belts, scarves, C, B],
    ]);
    const burst = record.bursts![0]!;
    expect(burst.messages.map((m) => [m.status, m.answersSeen])).toEqual([
      ['answered', 0],
      ['answered', 1],
      ['answered', 1],
    ]);
    expect(burst.messages.map((m) => Math.round(m.sentAtMs / 400) * 400)).toEqual([0, 800, 1600]);
    expect(burst.lastDelivered).toBe(1);
    expect(burst.findings.map((f) => [f.check, f.messages])).toEqual([
      ['out-of-order', [1, 2]],
      ['stale-last', [1, 2]],
    ]);
    // Each message is an answer turn: turns 1-3, then the say is turn 4.
    expect(record.steps!.map((s) => s.kind)).toEqual(['burst', 'say']);
  });

  it("judges each message's expectations and latency on its own answer, and the final state as `final` says", async () => {
    const { record } = await run(
      `
scenarios:
  - name: expectations
    steps:
      - burst:
          say:
            - { say: I want 2 Oxford shirts, expect: { shoppingCart.products.0.count: 3 } }
            - { say: I want a leather belt, latency: "< 100ms" }
          gap: 800ms
          final: last-message
        expect: { intents: { includes: greeting } }
        capture: { total: shoppingCart.grandTotal }
      - say: "Is {{ vars.total }} the total?"
`,
      mode,
      // The first answer comes at once, long before the second message: two separate orders.
      { 'I want 2 Oxford shirts': { ms: 0 }, 'I want a leather belt': { ms: 400 } },
    );
    expect(record.passed).toBe(false);
    const messages = record.failures.map((f) => f.message);
    expect(messages[0]).toMatch(
      /^step 1 \(burst\): message 1: shoppingCart\.products\.0\.count: expected to equal 3, got 2/,
    );
    expect(messages[1]).toMatch(/^step 1 \(burst\): message 2: latency \d+(\.\d+)? ms exceeds 100 ms$/);
    expect(messages[2]).toMatch(
      /^step 1 \(burst\): final state \[judged: the answer to the last message, message 2 \(tpa-\w+, at [\d.]+ m?s\); also the answer delivered last; final cart: 1 x Leather belt\]: intents: expected to include "greeting"/,
    );
    // The capture read the final state, and the next step used it.
    expect(received.at(-1)!.humanMessage).toBe('Is 740.00 THB the total?');
  });

  it('a declined message is a finding, not a failure; expectations on it fail', async () => {
    const { record, result } = await run(
      `
scenarios:
  - name: declined
    steps:
      - burst:
          say:
            - Do you sell shirts?
            - { say: Do you sell belts?, expect: { answer: { present: true } } }
            - Do you sell scarves?
          gap: 100ms
`,
      mode,
      { 'Do you sell belts?': { ms: 20, kind: mode === 'sync' ? 'refuse' : 'error' } },
    );
    expect(record.outcome).toBe('answered');
    expect(record.failures.map((f) => f.message)).toEqual([
      `step 1 (burst): message 2: declined (${mode === 'sync' ? 'HTTP 409' : 'an error payload'}): its expectations cannot hold`,
    ]);
    const burst = record.bursts![0]!;
    expect(burst.messages.map((m) => m.status)).toEqual(['answered', 'declined', 'answered']);
    expect(burst.findings.map((f) => f.check)).toEqual(['declined']);
    expect(result.tally.bursts).toMatchObject({ total: 1, declined: 1, outOfOrder: 0, unanswered: 0 });
  });

  it('no message answered ends the step (every strategy answers one); an unanswered message too', async () => {
    const declinedAll = await run(
      `
scenarios:
  - name: all declined
    steps:
      - burst: { say: [Do you sell shirts?, Do you sell belts?], gap: 50ms }
      - say: Thanks
`,
      mode,
      {
        'Do you sell shirts?': { ms: 10, kind: mode === 'sync' ? 'refuse' : 'error' },
        'Do you sell belts?': { ms: 10, kind: mode === 'sync' ? 'refuse' : 'error' },
      },
    );
    expect(declinedAll.record.outcome).toBe(mode === 'sync' ? 'rejected' : 'failed');
    expect(declinedAll.record.error?.message).toMatch(/^no message of the burst was answered/);
    expect(declinedAll.record.steps!.map((s) => s.kind)).toEqual(['burst']);

    const silent = await run(
      `
scenarios:
  - name: one unanswered
    steps:
      - burst: { say: [Do you sell shirts?, Do you sell belts?], gap: 50ms }
`,
      mode,
      { 'Do you sell shirts?': { ms: 0, kind: 'never' } },
      3000,
    );
    expect(silent.record.outcome).toBe('timeout');
    expect(silent.record.passed).toBe(false);
    expect(silent.record.bursts![0]!.findings.map((f) => f.check)).toEqual(['unanswered']);
    expect(silent.result.tally.bursts).toMatchObject({ total: 1, unanswered: 1 });
  });
});
