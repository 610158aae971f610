/**
 * A judge that cannot give a verdict is a judge error: never a failed expectation, never a pass
 * (docs/architecture.md, Outcomes). Closed port, 5xx after retries, garbage after retries, timeout,
 * interrupt, no grader. The API key never appears in an error, a grade, the usage, the settings or
 * the cache.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGrader,
  llmSettings,
  resolveLlmConfig,
  type Grader,
  type ResolvedLlmConfig,
} from '../../src/llm/index.js';
import { evaluateExpectations, parseSuite, type Evaluation, type Expectation } from '../../src/scenario/index.js';
import { freePort } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

const KEY = 'sk-test-secret-key-9f8e7d6c5b4a3210';
const PAYLOAD = { answer: 'Two Oxford shirts cost 2,580.00 THB.' };
const EXPECT = parseSuite(
  'suite: t\nscenarios:\n  - name: x\n    humanMessage: hi\n    expect:\n      answer: { judge: "States the total", similar: "Two shirts cost 2,580 THB" }\n',
  't.yaml',
).scenarios[0]!.expect;
const judgeOnly: Expectation[] = EXPECT.filter((e) => e.matcher === 'judge');

let server: FakeOpenAi;
let dir: string;
const graders: Grader[] = [];

function grader(baseUrl: string, overrides: Partial<ResolvedLlmConfig> = {}): Grader {
  const c = resolveLlmConfig(
    { judgeModel: 'judge-1', embeddingModel: 'embed-1' },
    { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: KEY },
    { retries: 1 },
    dir,
  )!;
  const g = createGrader({ ...c, ...overrides });
  graders.push(g);
  return g;
}

/** A judge error and nothing else: no failure, no grade. */
function expectOnlyJudgeErrors(result: Evaluation, count: number): void {
  expect(result.failures).toEqual([]);
  expect(result.grades).toEqual([]);
  expect(result.judgeErrors).toHaveLength(count);
  for (const j of result.judgeErrors)
    expect(j).toMatchObject({ path: 'answer', code: 'DROIDCHECK_ERR_JUDGE', location: { file: 't.yaml', line: 6 } });
}

async function everyCacheFileText(): Promise<string> {
  const root = join(dir, '.droidcheck');
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const texts = await Promise.all(
    files.filter((f) => f.isFile()).map((f) => readFile(join(f.parentPath, f.name), 'utf8')),
  );
  return texts.join('\n');
}

beforeEach(async () => {
  server = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-judge-errors-'));
});
afterEach(async () => {
  await Promise.all(graders.splice(0).map((g) => g.close()));
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a judge that cannot answer', () => {
  it('closed port: a judge error after the retries, for judge and similar alike', async () => {
    const port = await freePort(); // closed, and no port-0 bind of a parallel test takes it
    const g = grader(`http://127.0.0.1:${port}/v1`);
    const result = await evaluateExpectations(EXPECT, PAYLOAD, { grader: g });
    expectOnlyJudgeErrors(result, 2);
    expect(result.judgeErrors[0]!.message).toMatch(
      /answer: judge model judge-1: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED, 2 attempt\(s\)\)/,
    );
    expect(result.judgeErrors[1]!.message).toContain('embedding model embed-1: cannot reach');
    expect(g.usage()).toMatchObject({ chatCalls: 0, embeddingCalls: 0, httpRequests: 4, judgeErrors: 2 });
  });

  it('HTTP 500 on every try: retried, then a judge error naming the status', async () => {
    server.onChat(() => ({
      status: 500,
      body: { error: { message: 'model crashed', type: 'server_error' } },
      headers: { 'retry-after-ms': '1' },
    }));
    const g = grader(server.url, { retries: 2 });
    const result = await evaluateExpectations(judgeOnly, PAYLOAD, { grader: g });
    expectOnlyJudgeErrors(result, 1);
    expect(server.chatRequests()).toHaveLength(3);
    expect(result.judgeErrors[0]!.message).toContain('answered HTTP 500 (500 model crashed)');
  });

  it('a 429 then an answer: retried, and the verdict counts', async () => {
    server.onChat((_b, n) =>
      n === 1 ? { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '1' } } : {},
    );
    const g = grader(server.url);
    const result = await evaluateExpectations(judgeOnly, PAYLOAD, { grader: g });
    expect(result).toMatchObject({ failures: [], judgeErrors: [] });
    expect(result.grades[0]).toMatchObject({ pass: true });
    expect(g.usage()).toMatchObject({ chatCalls: 1, httpRequests: 2 });
  });

  it('garbage on every try: asked retries + 1 times, then a judge error quoting the answer', async () => {
    server.onChat(() => ({ content: 'I think the answer is quite good overall.' }));
    const result = await evaluateExpectations(judgeOnly, PAYLOAD, { grader: grader(server.url) });
    expectOnlyJudgeErrors(result, 1);
    expect(server.chatRequests()).toHaveLength(2);
    expect(result.judgeErrors[0]!.message).toContain('gave no verdict JSON');
    expect(result.judgeErrors[0]!.message).toContain('last answer: "I think the answer is quite good overall."');
  });

  it.each([
    ['a score out of range', '{"pass": true, "score": 7, "reason": "out of 10"}'],
    ['no pass', '{"score": 0.9, "reason": "fine"}'],
    ['an empty content', ''],
  ])('%s is no verdict', async (_name, content) => {
    server.onChat(() => ({ content }));
    expectOnlyJudgeErrors(
      await evaluateExpectations(judgeOnly, PAYLOAD, { grader: grader(server.url, { retries: 0 }) }),
      1,
    );
  });

  it('no answer within the timeout: a judge error', async () => {
    server.onChat(() => ({ hang: true }));
    const result = await evaluateExpectations(judgeOnly, PAYLOAD, {
      grader: grader(server.url, { retries: 0, timeoutMs: 200 }),
    });
    expectOnlyJudgeErrors(result, 1);
    expect(result.judgeErrors[0]!.message).toContain('within 200 ms');
  });

  it('an interrupt (AbortSignal) ends the wait with an ABORTED judge error', async () => {
    server.onChat(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = evaluateExpectations(judgeOnly, PAYLOAD, {
      grader: grader(server.url, { retries: 0 }),
      signal: controller.signal,
    });
    await expect.poll(() => server.chatRequests().length).toBe(1);
    controller.abort();
    const result = await pending;
    expect(result.failures).toEqual([]);
    expect(result.judgeErrors[0]).toMatchObject({ code: 'DROIDCHECK_ERR_ABORTED' });
  });

  it('no grader: every similar/judge is a judge error saying what to configure', async () => {
    const result = await evaluateExpectations(EXPECT, PAYLOAD);
    expectOnlyJudgeErrors(result, 2);
    expect(result.judgeErrors.map((j) => j.message)).toEqual([
      'answer: "judge" needs a grader: configure a judge model (docs/llm.md)',
      'answer: "similar" needs a grader: configure a embedding model (docs/llm.md)',
    ]);
  });

  it('a judge error is not cached: the next run asks again', async () => {
    server.onChat((_b, n) => (n === 1 ? { content: 'no idea' } : {}));
    await evaluateExpectations(judgeOnly, PAYLOAD, { grader: grader(server.url, { retries: 0 }) });
    const second = await evaluateExpectations(judgeOnly, PAYLOAD, { grader: grader(server.url, { retries: 0 }) });
    expect(second.grades[0]).toMatchObject({ pass: true, cached: false });
  });
});

describe('the API key is redacted everywhere', () => {
  it('an endpoint that echoes the key in its error: not in the judge error, grades, usage, settings or cache', async () => {
    server.onChat(() => ({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${KEY}. Find your key at the dashboard.`,
          type: 'invalid_request_error',
        },
      },
    }));
    server.onEmbeddings(() => ({ status: 400, body: { error: { message: `bad request for key ${KEY}` } } }));
    const g = grader(server.url);
    const failed = await evaluateExpectations(EXPECT, PAYLOAD, { grader: g });
    expectOnlyJudgeErrors(failed, 2);
    expect(failed.judgeErrors[0]!.message).toContain('answered HTTP 401');
    expect(failed.judgeErrors[0]!.message).toContain('[REDACTED]');
    expect(failed.judgeErrors[0]!.message).toContain('check OPENAI_API_KEY');

    server.onChat(() => ({ content: `{"pass": false, "score": 0, "reason": "the key is ${KEY}"}` }));
    server.onEmbeddings(() => ({}));
    const graded = await evaluateExpectations(EXPECT, PAYLOAD, { grader: g });
    expect(graded.grades).toHaveLength(2);

    const c = resolveLlmConfig(
      { judgeModel: 'judge-1' },
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY },
      undefined,
      dir,
    )!;
    expect(graded.failures[0]?.reason).toBe('the key is [REDACTED]');
    const everything = JSON.stringify({ failed, graded, usage: g.usage(), settings: llmSettings(c) });
    expect(everything).not.toContain(KEY);
    expect(llmSettings(c)).toMatchObject({ apiKey: 'set' });
    const cached = await everyCacheFileText();
    expect(cached).toContain('the key is [REDACTED]');
    expect(cached).not.toContain(KEY);
  });

  it('a base URL with credentials in it never shows them', () => {
    const c = resolveLlmConfig(
      { judgeModel: 'm' },
      { OPENAI_BASE_URL: 'https://user:hunter22secret@llm.example/v1/' },
      undefined,
    )!;
    expect(c.baseUrl).toBe('https://llm.example/v1');
  });
});
