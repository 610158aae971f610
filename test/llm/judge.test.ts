/**
 * The judge matcher end to end: scenario YAML -> evaluateExpectations -> createGrader ->
 * the openai package -> an OpenAI-compatible server on loopback (fake-openai.ts). Checks the
 * request the judge sends, that the verdict follows the server, the disk cache, the majority
 * vote near the threshold and token accounting.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGrader,
  resolveLlmConfig,
  type Grader,
  type LlmProvider,
  type ResolvedLlmConfig,
} from '../../src/llm/index.js';
import { evaluateExpectations, parseSuite, type Expectation } from '../../src/scenario/index.js';
import { startLoopback } from '../helpers/loopback.js';
import { PASS_VERDICT, startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

const KEY = 'sk-test-judge-key-0123456789abcdef';
const PAYLOAD = {
  answer: 'Two Oxford shirts cost 2,580.00 THB in total, delivered to Bangkok 10110.',
  shoppingCart: { products: [{ name: 'Oxford shirt', quantity: 2 }], shippingFee: '0', grandTotal: '2,580.00 THB' },
  addressParsing: { city: 'Bangkok', postal_code: '10110' },
};
const GROUNDING = {
  chatHistory: [
    {
      type: 'human' as const,
      content: 'https://images.example.com/oxford.jpg',
      contentType: 'image',
      alt: 'Oxford shirt, white',
    },
    { type: 'ai' as const, content: 'That is our Oxford shirt at 1,290.00 THB.' },
  ],
  humanMessage: 'I will take two, send them to Bangkok 10110',
};

/** The expectations of one `expect:` entry (YAML flow text). */
function exp(path: string, matcher: string): Expectation[] {
  const text = `suite: t\nscenarios:\n  - name: x\n    humanMessage: hi\n    expect:\n      ${path}: ${matcher}\n`;
  return parseSuite(text, 't.yaml').scenarios[0]!.expect;
}

let server: FakeOpenAi;
let dir: string;
const graders: Grader[] = [];

function config(overrides: Partial<ResolvedLlmConfig> = {}): ResolvedLlmConfig {
  const c = resolveLlmConfig(
    { judgeModel: 'judge-1', embeddingModel: 'embed-1' },
    { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY },
    { retries: 1 },
    dir,
  )!;
  return { ...c, ...overrides };
}
function grader(overrides: Partial<ResolvedLlmConfig> = {}): Grader {
  const g = createGrader(config(overrides));
  graders.push(g);
  return g;
}

beforeEach(async () => {
  server = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-judge-'));
});
afterEach(async () => {
  await Promise.all(graders.splice(0).map((g) => g.close()));
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the request the judge sends', () => {
  it('asks the configured model at temperature 0 with the rubric and the answer, with the key as bearer token', async () => {
    const g = grader();
    const e = exp('answer', '{ judge: "States the price of each item and the total" }');
    const result = await evaluateExpectations(e, PAYLOAD, { grader: g });
    expect(result).toMatchObject({ failures: [], judgeErrors: [] });
    const [req] = server.chatRequests();
    expect(req).toMatchObject({ model: 'judge-1', temperature: 0 });
    const [system, user] = req!.messages;
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('{"pass": boolean, "score": number, "reason": string}');
    expect(user?.content).toContain('<Rubric>States the price of each item and the total</Rubric>');
    expect(user?.content).toContain(`<Output>${PAYLOAD.answer}</Output>`);
    expect(user?.content).not.toContain('<Conversation>');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('grounded: gives the chat history (images with alt), the human message, the cart and the address', async () => {
    const g = grader();
    const e = exp('answer', '{ judge: { rubric: "Agrees with the cart", threshold: 0.7, grounded: true } }');
    await evaluateExpectations(e, PAYLOAD, { grader: g, grounding: GROUNDING });
    const user = server.chatRequests()[0]!.messages[1]!.content;
    expect(user).toContain('human: [image https://images.example.com/oxford.jpg described as: Oxford shirt, white]');
    expect(user).toContain('assistant: That is our Oxford shirt at 1,290.00 THB.');
    expect(user).toContain('human: I will take two, send them to Bangkok 10110');
    expect(user).toContain(`<ShoppingCart>${JSON.stringify(PAYLOAD.shoppingCart)}</ShoppingCart>`);
    expect(user).toContain(`<AddressParsing>${JSON.stringify(PAYLOAD.addressParsing)}</AddressParsing>`);
  });
});

describe('the verdict follows the server', () => {
  it('a failing verdict is a failed expectation carrying the score and the reason', async () => {
    server.onChat(() => ({ content: '{"pass": false, "score": 0.2, "reason": "No total is stated."}' }));
    const result = await evaluateExpectations(
      exp('answer', '{ judge: { rubric: "States the total", threshold: 0.7 } }'),
      PAYLOAD,
      { grader: grader() },
    );
    expect(result.judgeErrors).toEqual([]);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({
      path: 'answer',
      matcher: 'judge',
      score: 0.2,
      reason: 'No total is stated.',
      actual: PAYLOAD.answer,
      location: { file: 't.yaml', line: 6 },
    });
    expect(result.failures[0]!.message).toContain('expected to meet the rubric "States the total" (score >= 0.7)');
    expect(result.failures[0]!.message).toContain('(score 0.20: No total is stated.)');
    expect(result.grades).toEqual([
      expect.objectContaining({ path: 'answer', matcher: 'judge', pass: false, score: 0.2, cached: false, calls: 1 }),
    ]);
  });

  it.each([
    [
      'a fenced block with text around it',
      'Here is my grading:\n```json\n{"pass": true, "score": 0.9, "reason": "ok"}\n```\nThanks.',
      true,
    ],
    [
      'a reasoning block before the JSON',
      '<think>The answer has {a total}...</think>\n{"reason": "has the total", "pass": true, "score": 1}',
      true,
    ],
    ['pass as a string and no score', 'Verdict: {"pass": "false", "reason": "missing"}', false],
    ['a pass with a score below the threshold', '{"pass": true, "score": 0.3, "reason": "weak"}', false],
  ])('reads %s', async (_name, content, pass) => {
    server.onChat(() => ({ content }));
    const result = await evaluateExpectations(exp('answer', '{ judge: "States the total" }'), PAYLOAD, {
      grader: grader({ margin: 0 }),
    });
    expect(result.judgeErrors).toEqual([]);
    expect(result.grades[0]?.pass).toBe(pass);
    expect(result.failures).toHaveLength(pass ? 0 : 1);
  });

  it('keeps failures in expectation order around the graded ones', async () => {
    server.onChat(() => ({ content: '{"pass": false, "score": 0, "reason": "no"}' }));
    const text = `suite: t\nscenarios:\n  - name: x\n    humanMessage: hi\n    expect:\n      answer: { contains: refund, judge: "x", maxLength: 3 }\n      shoppingCart.grandTotal: { judge: "y", equals: "1 THB" }\n`;
    const e = parseSuite(text, 't.yaml').scenarios[0]!.expect;
    const result = await evaluateExpectations(e, PAYLOAD, { grader: grader() });
    expect(result.failures.map((f) => `${f.path}:${f.matcher}`)).toEqual([
      'answer:contains',
      'answer:judge',
      'answer:maxLength',
      'shoppingCart.grandTotal:judge',
      'shoppingCart.grandTotal:equals',
    ]);
  });

  it('grades inside json, with the outer#inner path', async () => {
    server.onChat(() => ({ content: '{"pass": false, "score": 0.1, "reason": "not positive"}' }));
    const payload = { answer: '{"summary": "The customer is angry about a late parcel"}' };
    const result = await evaluateExpectations(
      exp('answer', '{ json: { summary: { judge: "Describes a happy customer" } } }'),
      payload,
      { grader: grader() },
    );
    expect(result.failures[0]).toMatchObject({ path: 'answer#summary', matcher: 'judge', reason: 'not positive' });
  });
});

describe('cache', () => {
  it('a second run (a new grader on the same directory) makes no call and gives the same verdict', async () => {
    server.onChat(() => ({ content: '{"pass": false, "score": 0.1, "reason": "No total."}' }));
    const e = exp('answer', '{ judge: { rubric: "States the total", grounded: true } }');
    const first = await evaluateExpectations(e, PAYLOAD, { grader: grader(), grounding: GROUNDING });
    expect(server.chatRequests()).toHaveLength(1);
    expect(await readdir(join(dir, '.droidcheck', 'cache', 'judge'))).toHaveLength(1);

    const g2 = grader();
    const second = await evaluateExpectations(e, PAYLOAD, { grader: g2, grounding: GROUNDING });
    expect(server.chatRequests()).toHaveLength(1);
    expect(second.failures).toEqual(first.failures);
    expect(second.grades[0]).toMatchObject({ cached: true, calls: 0 });
    expect(g2.usage()).toMatchObject({ chatCalls: 0, httpRequests: 0, cacheHits: 1 });
  });

  it('another rubric, answer, model or context is another entry', async () => {
    const g = grader();
    const e = exp('answer', '{ judge: { rubric: "States the total", grounded: true } }');
    await evaluateExpectations(e, PAYLOAD, { grader: g, grounding: GROUNDING });
    await evaluateExpectations(e, { ...PAYLOAD, answer: 'Something else' }, { grader: g, grounding: GROUNDING });
    await evaluateExpectations(e, PAYLOAD, {
      grader: g,
      grounding: { ...GROUNDING, humanMessage: 'Only one, please' },
    });
    await evaluateExpectations(exp('answer', '{ judge: { rubric: "Is polite", grounded: true } }'), PAYLOAD, {
      grader: g,
      grounding: GROUNDING,
    });
    await evaluateExpectations(e, PAYLOAD, { grader: grader({ judgeModel: 'judge-2' }), grounding: GROUNDING });
    expect(server.chatRequests()).toHaveLength(5);
  });

  it('--no-cache neither reads nor writes the cache', async () => {
    const e = exp('answer', '{ judge: "States the total" }');
    await evaluateExpectations(e, PAYLOAD, { grader: grader({ cacheDir: undefined }) });
    await evaluateExpectations(e, PAYLOAD, { grader: grader({ cacheDir: undefined }) });
    expect(server.chatRequests()).toHaveLength(2);
    await expect(readdir(join(dir, '.droidcheck'))).rejects.toThrow();
  });

  it('identical grades in flight at once share one call (repeat of the same answer)', async () => {
    const g = grader();
    const e = exp('answer', '{ judge: "States the total" }');
    const results = await Promise.all([1, 2, 3, 4].map(() => evaluateExpectations(e, PAYLOAD, { grader: g })));
    expect(server.chatRequests()).toHaveLength(1);
    expect(results.every((r) => r.failures.length === 0)).toBe(true);
  });
});

describe('majority vote near the threshold', () => {
  it('a score within the margin is asked three times in all and the majority decides', async () => {
    const scripted = [
      '{"pass": true, "score": 0.75, "reason": "mostly"}',
      '{"pass": false, "score": 0.6, "reason": "misses the total"}',
      '{"pass": false, "score": 0.65, "reason": "total unclear"}',
    ];
    server.onChat((_b, n) => ({ content: scripted[n - 1]! }));
    const g = grader();
    const result = await evaluateExpectations(
      exp('answer', '{ judge: { rubric: "States the total", threshold: 0.7 } }'),
      PAYLOAD,
      { grader: g },
    );
    expect(server.chatRequests()).toHaveLength(3);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ score: 0.65, reason: 'misses the total' });
    expect(result.grades[0]).toMatchObject({ pass: false, calls: 3 });
    expect(g.usage().chatCalls).toBe(3);
  });

  it('a score far from the threshold is asked once', async () => {
    server.onChat(() => ({ content: '{"pass": true, "score": 0.95, "reason": "clear"}' }));
    const result = await evaluateExpectations(
      exp('answer', '{ judge: { rubric: "States the total", threshold: 0.7 } }'),
      PAYLOAD,
      { grader: grader() },
    );
    expect(server.chatRequests()).toHaveLength(1);
    expect(result.failures).toEqual([]);
  });

  it('a later run with a threshold that makes the cached verdict a close call asks only the two missing votes', async () => {
    server.onChat(() => ({ content: '{"pass": true, "score": 0.8, "reason": "ok"}' }));
    await evaluateExpectations(exp('answer', '{ judge: { rubric: "States the total", threshold: 0.5 } }'), PAYLOAD, {
      grader: grader(),
    });
    expect(server.chatRequests()).toHaveLength(1);
    await evaluateExpectations(exp('answer', '{ judge: { rubric: "States the total", threshold: 0.75 } }'), PAYLOAD, {
      grader: grader(),
    });
    expect(server.chatRequests()).toHaveLength(3);
    await evaluateExpectations(exp('answer', '{ judge: { rubric: "States the total", threshold: 0.75 } }'), PAYLOAD, {
      grader: grader(),
    });
    expect(server.chatRequests()).toHaveLength(3);
  });
});

describe('token usage and bounds', () => {
  it('counts prompt and completion tokens, calls and HTTP requests', async () => {
    server.onChat((_b, n) => ({
      content: `{"pass": true, "score": 1, "reason": "r${n}"}`,
      usage: { prompt_tokens: 120 + n, completion_tokens: 15 },
    }));
    const g = grader();
    await evaluateExpectations(exp('answer', '{ judge: "A" }'), PAYLOAD, { grader: g });
    await evaluateExpectations(exp('answer', '{ judge: "B" }'), PAYLOAD, { grader: g });
    expect(g.usage()).toEqual({
      chatCalls: 2,
      embeddingCalls: 0,
      httpRequests: 2,
      promptTokens: 121 + 122,
      completionTokens: 30,
      totalTokens: 273,
      cacheHits: 0,
      judgeErrors: 0,
    });
  });

  it('keeps at most `concurrency` calls in flight (the provider is the injected edge here)', async () => {
    const waiting: (() => void)[] = [];
    let calls = 0;
    const provider: LlmProvider = {
      chat: () => {
        calls += 1;
        return new Promise((resolve) =>
          waiting.push(() => resolve({ content: PASS_VERDICT, promptTokens: 1, completionTokens: 1 })),
        );
      },
      embed: () => Promise.reject(new Error('unused')),
      close: () => Promise.resolve(),
    };
    const g = createGrader(config({ concurrency: 2, cacheDir: undefined }), { provider });
    const all = Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((r) =>
        evaluateExpectations(exp('answer', `{ judge: "${r}" }`), PAYLOAD, { grader: g }),
      ),
    );
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    for (const expected of [2, 4, 5]) {
      await expect.poll(() => calls).toBe(expected);
      await settle();
      expect(calls).toBe(expected);
      expect(waiting.length).toBeLessThanOrEqual(2);
      waiting.splice(0).forEach((release) => release());
    }
    expect((await all).every((r) => r.failures.length === 0)).toBe(true);
  });
});

describe('against the emulator', () => {
  it('a grounded judge sees the emulator answer, the cart and the address it produced; a warm cache calls nothing', async () => {
    const rig = await startLoopback();
    try {
      const suite = parseSuite(
        [
          'suite: judged',
          'scenarios:',
          '  - name: buys two shirts',
          '    chatHistory:',
          '      - human: Hi, do you sell shirts?',
          '      - ai: Yes, we have Oxford shirts for 1,290 THB.',
          '    humanMessage: I will take 2 Oxford shirts, please send them to 99 Sukhumvit Rd, Bangkok 10110',
          '    expect:',
          '      intents: { includes: purchase }',
          '      answer: { judge: { rubric: "States the total", grounded: true }, similar: { value: "Oxford shirt 2 x 1,290.00 THB, total 2,580.00 THB", threshold: 0.6 } }',
        ].join('\n'),
        'judged.yaml',
      );
      const s = suite.scenarios[0]!;
      const res = await rig.client.getDroidAnswer({
        humanMessage: { content: s.humanMessage, type: 'human' },
        chatHistory: s.chatHistory,
      });
      server.onChat((body) => {
        const user = body.messages[1]!.content;
        const grounded =
          user.includes('"grandTotal":"2,580.00 THB"') &&
          user.includes('assistant: Yes, we have Oxford shirts for 1,290 THB.');
        return {
          content: JSON.stringify({
            pass: grounded,
            score: grounded ? 0.9 : 0.1,
            reason: grounded ? 'total matches the cart' : 'no grounding',
          }),
        };
      });
      const ctx = { grounding: { chatHistory: s.chatHistory, humanMessage: s.humanMessage } };
      const first = await evaluateExpectations(s.expect, res.body, { ...ctx, grader: grader() });
      expect(first).toMatchObject({ failures: [], judgeErrors: [] });
      expect(first.grades.map((g) => [g.matcher, g.pass, g.cached])).toEqual([
        ['judge', true, false],
        ['similar', true, false],
      ]);
      const requests = server.requests.length;
      const second = await evaluateExpectations(s.expect, res.body, { ...ctx, grader: grader() });
      expect(second.grades.every((g) => g.cached && g.calls === 0)).toBe(true);
      expect(server.requests.length).toBe(requests);
    } finally {
      await rig.close();
    }
  });
});
