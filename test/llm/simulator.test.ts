/**
 * The simulated customer against the real emulator over loopback, the customer played by the
 * fake OpenAI-compatible server: a purchase over several turns (sync, and async through the real
 * receiver), the role swap on the wire, a customer who never stops (ends at maxTurns), a warm
 * cache (no model call), an empty line (asked again, then the end), a model that is down (a
 * judge error, never a pass) and the API key, which appears in no output.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDiskCache,
  createGrader,
  createOpenAiProvider,
  createSimulator,
  resolveLlmConfig,
  simulationPayload,
  type LlmProvider,
  type ResolvedLlmConfig,
} from '../../src/llm/index.js';
import { evaluateExpectations, parseSuite } from '../../src/scenario/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { asyncAsk, syncAsk } from '../redteam/ask.js';
import { playCustomer, startFakeOpenAi, STOP, type FakeOpenAi } from './fake-openai.js';

const KEY = 'sk-test-simulator-key-0a1b2c3d4e5f6789';
const PERSONA = 'a busy office worker who writes short messages';
const GOAL = 'buy two Oxford shirts';
const PURCHASE = ['Hi, do you sell Oxford shirts?', "Great, I'll take 2 of them.", 'Thanks!'];

let rig: Loopback;
let fake: FakeOpenAi;
let dir: string;
const providers: LlmProvider[] = [];

function config(baseUrl: string, retries = 0): ResolvedLlmConfig {
  return resolveLlmConfig(
    { judgeModel: 'customer-1' },
    { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: KEY },
    { retries, timeout: '5s' },
    dir,
  )!;
}

function provider(baseUrl = fake.url): LlmProvider {
  const p = createOpenAiProvider(config(baseUrl));
  providers.push(p);
  return p;
}

beforeAll(async () => {
  rig = await startLoopback();
});
afterAll(async () => {
  await rig.close();
});
beforeEach(async () => {
  fake = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-simulator-'));
});
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a simulated customer against the emulator', () => {
  for (const mode of ['sync', 'async'] as const) {
    it(`completes a purchase over three turns (${mode}) and its expectations read the last answer, transcript and turns`, async () => {
      fake.onChat(playCustomer(PURCHASE));
      const sim = createSimulator({ provider: provider(), model: 'customer-1' });
      const ask = mode === 'sync' ? syncAsk(rig.client) : asyncAsk(rig.client, rig.receiver);
      const result = await sim.simulate({ persona: PERSONA, goal: GOAL, maxTurns: 8 }, ask);

      expect(result.end).toBe('stop');
      expect(result.turns.map((t) => t.customer)).toEqual(PURCHASE);
      // "I'll take 2 of them" names no product: the droid found it in the history the simulator sent.
      const cartTurn = result.turns[1]!.payload as {
        shoppingCart: { grandTotal: string; products: { name: string; count: number }[] };
      };
      expect(cartTurn.shoppingCart.products).toMatchObject([{ name: 'Oxford shirt', count: 2 }]);
      expect(cartTurn.shoppingCart.grandTotal).toBe('2,580.00 THB');
      expect(result.transcript.split('\n')).toHaveLength(6);
      expect(result.transcript).toMatch(
        /^customer: Hi, do you sell Oxford shirts\?\ndroid: Hello! Welcome to our shop\. How can I help you today\? The Oxford shirt is 1,290\.00 THB/,
      );
      for (const t of result.turns) expect(t.latencyMs).toBeGreaterThan(0);
      expect(result.calls).toBe(4); // three lines and the stop
      expect(result).toMatchObject({ promptTokens: 400, completionTokens: 80 }); // the fake's usage: 100 + 20 per call

      const suite = parseSuite(
        [
          'suite: s',
          'scenarios:',
          '  - name: buys shirts',
          '    simulate: { persona: "busy", goal: "two shirts", maxTurns: 5 }',
          '    expect:',
          '      turns: { lte: 4 }',
          '      transcript: { contains: "2,580.00 THB", judge: "The customer ends up with two Oxford shirts in the cart" }',
          '      answer: { present: true }',
          '',
        ].join('\n'),
        's.yaml',
      );
      const grader = createGrader(config(fake.url), { provider: provider() });
      const ev = await evaluateExpectations(suite.scenarios[0]!.expect, simulationPayload(result), { grader });
      expect(ev.failures).toEqual([]);
      expect(ev.judgeErrors).toEqual([]);
      expect(ev.grades).toHaveLength(1);
      const tooLong = await evaluateExpectations(
        parseSuite(
          'suite: s\nscenarios:\n  - name: a\n    simulate: { persona: p, goal: g }\n    expect: { turns: { lte: 2 } }\n',
          's.yaml',
        ).scenarios[0]!.expect,
        simulationPayload(result),
      );
      expect(tooLong.failures.map((f) => f.message)).toEqual([
        expect.stringMatching(/^turns: expected a number <= 2, got 3/),
      ]);
    });
  }

  it('plays the customer with the roles swapped: its lines as assistant, the droid as user', async () => {
    fake.onChat(playCustomer(PURCHASE.slice(0, 2)));
    await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 8 },
      syncAsk(rig.client),
    );
    const [first, second, third] = fake.chatRequests();
    expect(first!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first!.messages[0]!.content).toContain(PERSONA);
    expect(first!.messages[0]!.content).toContain(GOAL);
    expect(first!.messages[0]!.content).toContain(STOP);
    expect(second!.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(second!.messages[1]!.content).toBe(PURCHASE[0]);
    expect(second!.messages[2]!.content).toMatch(
      /^Hello! Welcome to our shop\.[\s\S]*The Oxford shirt is 1,290\.00 THB/,
    );
    expect(third!.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'assistant', 'user']);
    expect(first!.temperature).toBe(0);
  });

  it('sends a fixed opening without asking the model', async () => {
    fake.onChat(playCustomer(['(never used)', 'I want 2 Oxford shirts']));
    const result = await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 8, opening: 'Hello there' },
      syncAsk(rig.client),
    );
    expect(result.turns.map((t) => t.customer)).toEqual(['Hello there', 'I want 2 Oxford shirts']);
    expect(result.calls).toBe(2);
  });

  it('ends at maxTurns when the customer never says ###STOP###', async () => {
    fake.onChat(() => ({ content: 'Tell me more about your shirts.' }));
    const result = await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 3 },
      syncAsk(rig.client),
    );
    expect(result.end).toBe('max-turns');
    expect(result.turns).toHaveLength(3);
    expect(fake.chatRequests()).toHaveLength(3);
    expect(simulationPayload(result).turns).toBe(3);
  });

  it('replays a conversation from a warm cache without calling the model', async () => {
    fake.onChat(playCustomer(PURCHASE));
    const cache = createDiskCache(join(dir, 'cache'));
    const spec = { persona: PERSONA, goal: GOAL, maxTurns: 8 };
    const cold = await createSimulator({ provider: provider(), model: 'customer-1', cache }).simulate(
      spec,
      syncAsk(rig.client),
    );
    const calls = fake.chatRequests().length;
    expect(calls).toBe(4);
    const warm = await createSimulator({
      provider: provider(),
      model: 'customer-1',
      cache: createDiskCache(join(dir, 'cache')),
    }).simulate(spec, syncAsk(rig.client));
    expect(fake.chatRequests()).toHaveLength(calls);
    expect(warm.calls).toBe(0);
    expect(warm.cacheHits).toBe(4); // three lines and the stop
    expect(warm.transcript).toBe(cold.transcript);
    // Another persona is another conversation: the model is asked.
    await createSimulator({ provider: provider(), model: 'customer-1', cache }).simulate(
      { ...spec, persona: 'someone else' },
      syncAsk(rig.client),
    );
    expect(fake.chatRequests().length).toBeGreaterThan(calls);
  });

  it('asks once more after an empty line, and ends the conversation (no error) after two', async () => {
    let n = 0;
    fake.onChat(() => ({ content: ++n === 1 ? '' : n === 2 ? 'Do you have belts?' : STOP }));
    const retried = await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 8 },
      syncAsk(rig.client),
    );
    expect(retried.turns.map((t) => t.customer)).toEqual(['Do you have belts?']);
    expect(retried.end).toBe('stop');

    fake.onChat(playCustomer(['I want a belt', null]));
    const ended = await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 8 },
      syncAsk(rig.client),
    );
    expect(ended.end).toBe('empty');
    expect(ended.error).toBeUndefined();
    expect(ended.turns).toHaveLength(1);
    expect(ended.calls).toBe(3);
  });

  it('is a judge error, never a pass, when the model is down; the API key appears nowhere', async () => {
    const closed = await startFakeOpenAi();
    const downUrl = closed.url;
    await closed.close();
    const down = await createSimulator({ provider: provider(downUrl), model: 'customer-1', secrets: [KEY] }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 4 },
      syncAsk(rig.client),
    );
    expect(down.end).toBe('judge-error');
    expect(down.error).toMatchObject({
      code: 'DROIDCHECK_ERR_JUDGE',
      message: expect.stringMatching(
        /^simulator model customer-1: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED/,
      ),
    });
    expect(down.turns).toEqual([]);

    fake.onChat(() => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } },
    }));
    const cache = createDiskCache(join(dir, 'cache'));
    const refused = await createSimulator({
      provider: provider(),
      model: 'customer-1',
      cache,
      secrets: [KEY],
    }).simulate({ persona: PERSONA, goal: GOAL, maxTurns: 4 }, syncAsk(rig.client));
    expect(refused.end).toBe('judge-error');
    expect(refused.error?.message).toMatch(/HTTP 401/);
    expect(JSON.stringify([down, refused])).not.toContain(KEY);
    // The key went on the wire (where it belongs) and nowhere else.
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const files = await readdir(dir, { recursive: true, withFileTypes: true });
    const texts = await Promise.all(
      files.filter((f) => f.isFile()).map((f) => readFile(join(f.parentPath, f.name), 'utf8')),
    );
    expect(texts.join('\n')).not.toContain(KEY);
  });

  it('is a droid error when the target fails a turn, with the conversation so far', async () => {
    fake.onChat(playCustomer(PURCHASE));
    let n = 0;
    const flaky = async (turn: Parameters<ReturnType<typeof syncAsk>>[0]) => {
      if (++n === 2)
        throw Object.assign(new Error('get-droid-answer answered HTTP 503'), { code: 'DROIDCHECK_ERR_API' });
      return syncAsk(rig.client)(turn);
    };
    const result = await createSimulator({ provider: provider(), model: 'customer-1' }).simulate(
      { persona: PERSONA, goal: GOAL, maxTurns: 8 },
      flaky,
    );
    expect(result.end).toBe('droid-error');
    expect(result.error).toMatchObject({
      code: 'DROIDCHECK_ERR_API',
      message: expect.stringContaining('turn 2 ("Great, I\'ll take 2 of them.")'),
    });
    expect(result.turns).toHaveLength(1);
  });
});
