/**
 * Scenario steps against the real emulator on 127.0.0.1 port 0: every endpoint, variables,
 * captures, expected non-2xx statuses, repeat planning, both answer modes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DroidClient } from '../../src/client/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import type { Receiver } from '../../src/receiver/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { systemClock } from '../../src/clock.js';
import { executeRequest, planRequests, type ExecuteContext } from '../../src/runner/index.js';
import { runPlan } from '../helpers/engine.js';
import { parseSuite } from '../../src/scenario/index.js';

const SECRET = 'steps-secret-0123456789abcdef0123456789';

const SUITE = `
suite: Steps
scenarios:
  - name: human takeover
    vars: { customer: 1001 }
    steps:
      - call: setBot
        customerId: "{{ vars.customer }}"
        botEnabled: false
        expect: { botEnabled: false }
      - call: customer
        customerId: "{{ vars.customer }}"
        expect: { botEnabled: false }
        latency: "< 5s"
      - call: send
        customerId: "{{ vars.customer }}"
        humanMessage: Is anyone there?
        expect: { success: true }
        capture: { sentId: mid }
      - call: conversations
        customerId: "{{ vars.customer }}"
        expect:
          conversations.0.content: Is anyone there?
          conversations.0.type: human
        capture: { total: total }
      - call: messages
        customerId: "{{ vars.customer }}"
        expect: { total: "{{ vars.total }}" }
      - call: setBot
        customerId: "{{ vars.customer }}"
        botEnabled: true
  - name: crm and images
    steps:
      - call: channels
        expect: { channels.0.type: { present: true }, total: { gte: 1 } }
      - call: ask
        customerId: 1001
        prompt: Give the customer's sentiment as JSON
        expect:
          answer: { json: { sentiment: { oneOf: [positive, negative, neutral] } } }
      - call: imageAlt
        imageUrl: https://cdn.example.com/img/oxford-shirt-blue.jpg
        expect: { altText: { icontains: oxford } }
        capture: { alt: altText }
      - call: customer
        customerId: 999999
        status: 403
        expect: { error: { present: true } }
  - name: conversation
    modes: both
    repeat: 2
    chatHistory:
      - human: Hi, do you sell shirts?
    steps:
      - say: I want to buy 2 Oxford shirts
        expect: { intents: { includes: purchase } }
        capture: { total: shoppingCart.grandTotal }
      - say: "Send them to 99 Sukhumvit Rd, Bangkok 10110 ({{ vars.total }})"
        expect: { addressParsing.postal_code: "10110" }
  - name: fails on purpose
    modes: sync
    steps:
      - call: channels
        expect: { total: -1 }
      - call: customer
        customerId: 999999
      - call: channels
`;

describe('scenario steps on the emulator (127.0.0.1)', () => {
  let rig: Loopback;
  let receiver: Receiver;
  let client: DroidClient;

  beforeAll(async () => {
    rig = await startLoopback({ secret: SECRET });
    ({ receiver, client } = rig);
  });
  afterAll(async () => {
    await rig?.close();
  });

  const suite = parseSuite(SUITE, 'steps.yaml');
  const ctx = (): ExecuteContext & { latency: LatencyRecorder } => ({
    client,
    receiver,
    clock: systemClock,
    timeoutMs: 10_000,
    latency: new LatencyRecorder(),
  });
  const scenario = (name: string) => suite.scenarios.find((s) => s.name === name)!;

  it('plans scenario x mode x repeat; call-only scenarios run in one mode', () => {
    const plan = planRequests([suite]);
    expect(plan.map((p) => `${p.scenario.name}/${p.mode}/${p.repeat}`)).toEqual([
      'human takeover/sync/0',
      'crm and images/sync/0',
      'conversation/sync/0',
      'conversation/sync/1',
      'conversation/async/0',
      'conversation/async/1',
      'fails on purpose/sync/0',
    ]);
    expect(plan.map((p) => p.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('takes over a customer: bot off, send gets no reply, conversations show the human message last', async () => {
    const record = await executeRequest(
      { seq: 0, scenario: scenario('human takeover'), mode: 'sync', repeat: 0 },
      ctx(),
    );
    expect(record.failures).toEqual([]);
    expect(record.contractViolations).toEqual([]);
    expect(record.outcome).toBe('answered');
    expect(record.passed).toBe(true);
    expect(record.steps?.map((s) => [s.kind, s.endpoint, s.httpStatus, s.passed])).toEqual([
      ['setBot', 'customer-update', 200, true],
      ['customer', 'customer', 200, true],
      ['send', 'send', 200, true],
      ['conversations', 'conversations', 200, true],
      ['messages', 'messages', 200, true],
      ['setBot', 'customer-update', 200, true],
    ]);
    expect(record.steps?.[2]?.captured?.sentId).toMatch(/^ddtp-/);
    expect(record.steps?.every((s) => typeof s.latencyMs === 'number' && s.latencyMs >= 0)).toBe(true);
  });

  it('asks for JSON, reads image alt text, and accepts an expected 403', async () => {
    const record = await executeRequest(
      { seq: 1, scenario: scenario('crm and images'), mode: 'sync', repeat: 0 },
      ctx(),
    );
    expect(record.failures).toEqual([]);
    expect(record.passed).toBe(true);
    expect(record.steps?.[2]?.captured?.alt).toMatch(/Oxford/);
    expect(record.steps?.[3]).toMatchObject({ httpStatus: 403, outcome: 'answered', passed: true });
  });

  it.each(['sync', 'async'] as const)('runs say steps in %s mode with the history of earlier turns', async (mode) => {
    const c = ctx();
    const record = await executeRequest({ seq: 2, scenario: scenario('conversation'), mode, repeat: 1 }, c);
    expect(record.failures).toEqual([]);
    expect(record.passed).toBe(true);
    expect(record.repeat).toBe(1);
    expect(record.steps).toHaveLength(2);
    expect(record.requestId).toBe(record.steps?.[1]?.requestId);
    expect((record.answer as { addressParsing: { postal_code: string } }).addressParsing.postal_code).toBe('10110');
    expect(c.latency.summary(mode === 'sync' ? 'sync' : 'answer').count).toBe(2);
    if (mode === 'async') expect(c.latency.summary('ack').count).toBe(2);
  });

  it('reports a failed expectation with its file:line and stops at an unexpected HTTP error', async () => {
    const record = await executeRequest({ seq: 3, scenario: scenario('fails on purpose'), mode: 'sync' }, ctx());
    expect(record.outcome).toBe('rejected');
    expect(record.httpStatus).toBe(403);
    expect(record.passed).toBe(false);
    expect(record.steps).toHaveLength(2);
    expect(record.failures).toEqual([
      expect.objectContaining({ path: 'total', expected: -1, location: { file: 'steps.yaml', line: 64, col: 19 } }),
    ]);
    expect(record.failures[0]?.message).toMatch(/^step 1 \(channels\): total: expected/);
    expect(record.error?.code).toBe('DROIDCHECK_ERR_API');
  });

  it('the engine runs every repeat and keeps the accounting', async () => {
    const result = await runPlan({ client, receiver }, [suite], { concurrency: 1, timeoutMs: 10_000 });
    expect(result.records!.map((r) => [r.scenario, r.mode, r.repeat, r.passed])).toEqual([
      ['human takeover', 'sync', 0, true],
      ['crm and images', 'sync', 0, true],
      ['conversation', 'sync', 0, true],
      ['conversation', 'sync', 1, true],
      ['conversation', 'async', 0, true],
      ['conversation', 'async', 1, true],
      ['fails on purpose', 'sync', 0, false],
    ]);
  });
});
