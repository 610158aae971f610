/**
 * The similar matcher against the deterministic embeddings server (fake-openai.ts): cosine
 * similarity of the answer with each reference, batched calls, the embedding cache.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cosineSimilarity, createGrader, resolveLlmConfig, type Grader } from '../../src/llm/index.js';
import { evaluateExpectations, parseSuite, type Expectation } from '../../src/scenario/index.js';
import { embedText, startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

const ANSWER = 'Two Oxford shirts cost 2,580.00 THB in total.';

function exp(matcher: string, path = 'answer'): Expectation[] {
  const text = `suite: t\nscenarios:\n  - name: x\n    humanMessage: hi\n    expect:\n      ${path}: ${matcher}\n`;
  return parseSuite(text, 't.yaml').scenarios[0]!.expect;
}

let server: FakeOpenAi;
let dir: string;
const graders: Grader[] = [];
function grader(): Grader {
  const c = resolveLlmConfig(
    { embeddingModel: 'embed-1' },
    { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-similar-test-key' },
    { retries: 0 },
    dir,
  )!;
  const g = createGrader(c);
  graders.push(g);
  return g;
}

beforeEach(async () => {
  server = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-similar-'));
});
afterEach(async () => {
  await Promise.all(graders.splice(0).map((g) => g.close()));
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('similar', () => {
  it('the same text passes with similarity 1, in one batched call of the configured model', async () => {
    const g = grader();
    const result = await evaluateExpectations(exp(`{ similar: "${ANSWER}" }`), { answer: ANSWER }, { grader: g });
    expect(result).toMatchObject({ failures: [], judgeErrors: [] });
    expect(result.grades[0]).toMatchObject({ matcher: 'similar', pass: true, cached: false, calls: 1 });
    expect(result.grades[0]!.score).toBeCloseTo(1, 6);
    expect(server.embeddingRequests()).toEqual([{ model: 'embed-1', input: [ANSWER] }]);
    expect(server.requests[0]?.body.encoding_format).toBe('float');
  });

  it('a different text fails below the threshold, with its similarity in the failure', async () => {
    const other = 'Sorry, we only sell scarves and hats.';
    const expected = cosineSimilarity(Float32Array.from(embedText(ANSWER)), Float32Array.from(embedText(other)));
    expect(expected).toBeLessThan(0.8);
    const result = await evaluateExpectations(exp(`{ similar: "${other}" }`), { answer: ANSWER }, { grader: grader() });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ path: 'answer', matcher: 'similar', actual: ANSWER });
    expect(result.failures[0]!.score).toBeCloseTo(expected, 5);
    expect(result.failures[0]!.message).toContain(`expected to be similar (cosine >= 0.8) to "${other}"`);
    expect(result.failures[0]!.message).toContain(`(similarity ${expected.toFixed(2)})`);
  });

  it('the best of several references counts; the reason names it', async () => {
    const refs = ['We sell scarves only.', 'Two Oxford shirts cost 2,580.00 THB total.'];
    const result = await evaluateExpectations(
      exp(`{ similar: { value: ${JSON.stringify(refs)}, threshold: 0.9 } }`),
      { answer: ANSWER },
      { grader: grader() },
    );
    expect(result.failures).toEqual([]);
    expect(result.grades[0]).toMatchObject({
      pass: true,
      reason: 'closest reference 2 of 2: "Two Oxford shirts cost 2,580.00 THB total."',
    });
    expect(server.embeddingRequests()).toHaveLength(1);
    expect(server.embeddingRequests()[0]!.input).toEqual([ANSWER, ...refs]);
  });

  it('embeddings are cached: by text within a run, on disk across runs', async () => {
    const ref = 'Two shirts cost 2,580 THB';
    const g = grader();
    await evaluateExpectations(exp(`{ similar: "${ref}" }`), { answer: ANSWER }, { grader: g });
    await evaluateExpectations(exp(`{ similar: "${ref}" }`), { answer: 'A new answer about shirts' }, { grader: g });
    expect(server.embeddingRequests().map((r) => r.input)).toEqual([[ANSWER, ref], ['A new answer about shirts']]);
    expect(g.usage()).toMatchObject({ embeddingCalls: 2, cacheHits: 1 });

    const g2 = grader();
    const again = await evaluateExpectations(exp(`{ similar: "${ref}" }`), { answer: ANSWER }, { grader: g2 });
    expect(server.embeddingRequests()).toHaveLength(2);
    expect(again.grades[0]).toMatchObject({ cached: true, calls: 0 });
    expect(g2.usage()).toMatchObject({ embeddingCalls: 0, httpRequests: 0, cacheHits: 2 });
  });

  it('counts the embedding tokens', async () => {
    server.onEmbeddings(() => ({ usage: { prompt_tokens: 42 } }));
    const g = grader();
    await evaluateExpectations(exp('{ similar: "Two shirts" }'), { answer: ANSWER }, { grader: g });
    expect(g.usage()).toMatchObject({ embeddingCalls: 1, promptTokens: 42, totalTokens: 42, completionTokens: 0 });
  });

  it('a value that is not a string fails without a call (it is not a judge error)', async () => {
    const result = await evaluateExpectations(
      exp('{ similar: "2" }', 'shoppingCart.products.0.quantity'),
      { shoppingCart: { products: [{ quantity: 2 }] } },
      { grader: grader() },
    );
    expect(result.judgeErrors).toEqual([]);
    expect(result.failures[0]!.message).toContain('(a number, not a string)');
    expect(server.requests).toHaveLength(0);
  });

  it('an endpoint that answers without vectors is a judge error', async () => {
    server.onEmbeddings(() => ({ body: { object: 'list', data: [] } }));
    const result = await evaluateExpectations(
      exp('{ similar: "Two shirts" }'),
      { answer: ANSWER },
      { grader: grader() },
    );
    expect(result.failures).toEqual([]);
    expect(result.judgeErrors[0]!.message).toContain('answered no embedding for input 1 of 2');
  });
});

/** An embeddings body whose vector for input `i` is `vectorOf(text, i)` (the default trigram one otherwise). */
function vectorsBody(input: string[], vectorOf: (text: string, i: number) => number[] | undefined): unknown {
  return {
    object: 'list',
    model: 'embed-1',
    data: input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: vectorOf(text, index) ?? embedText(text),
    })),
    usage: { prompt_tokens: input.length, total_tokens: input.length },
  };
}

describe('similar: vectors that cannot be compared are judge errors, never a score', () => {
  it('a zero vector: a judge error naming the model, counted, not cached (the next run asks again)', async () => {
    server.onEmbeddings(({ input }) => ({
      body: vectorsBody(input, (t) => (t === ANSWER ? Array(64).fill(0) : undefined)),
    }));
    const g = grader();
    const result = await evaluateExpectations(exp('{ similar: "Two shirts" }'), { answer: ANSWER }, { grader: g });
    expect(result.failures).toEqual([]);
    expect(result.grades).toEqual([]);
    expect(result.judgeErrors).toHaveLength(1);
    expect(result.judgeErrors[0]!.message).toBe(
      'answer: embedding model embed-1: the vector of the graded text is all zeros (64 dimensions): no similarity can be computed',
    );
    expect(g.usage()).toMatchObject({ embeddingCalls: 1, judgeErrors: 1 });

    // Within the run, the same text is asked for again (not kept); across runs, not cached.
    await evaluateExpectations(exp('{ similar: "Two shirts" }'), { answer: ANSWER }, { grader: g });
    expect(server.embeddingRequests().map((r) => r.input)).toEqual([[ANSWER, 'Two shirts'], [ANSWER]]);
    const g2 = grader();
    await evaluateExpectations(exp('{ similar: "Two shirts" }'), { answer: ANSWER }, { grader: g2 });
    expect(server.embeddingRequests().map((r) => r.input)).toEqual([[ANSWER, 'Two shirts'], [ANSWER], [ANSWER]]);
    expect(g2.usage()).toMatchObject({ judgeErrors: 1, cacheHits: 1 });
  });

  it('a component that overflows a float32 (non-finite once stored) is a judge error', async () => {
    server.onEmbeddings(({ input }) => ({
      body: vectorsBody(input, (_t, i) => (i === 1 ? [1e39, ...Array(63).fill(1)] : undefined)),
    }));
    const result = await evaluateExpectations(
      exp('{ similar: "Two shirts" }'),
      { answer: ANSWER },
      { grader: grader() },
    );
    expect(result.failures).toEqual([]);
    expect(result.judgeErrors[0]!.message).toBe(
      'answer: embedding model embed-1: the vector of reference 1 has a non-finite component (Infinity at index 0): no similarity can be computed',
    );
  });

  it('vectors of different lengths are a judge error naming each length', async () => {
    server.onEmbeddings(({ input }) => ({
      body: vectorsBody(input, (_t, i) => (i === 1 ? Array(32).fill(1) : undefined)),
    }));
    const result = await evaluateExpectations(
      exp('{ similar: "Two shirts" }'),
      { answer: ANSWER },
      { grader: grader() },
    );
    expect(result.failures).toEqual([]);
    expect(result.judgeErrors[0]!.message).toBe(
      'answer: embedding model embed-1: vectors of different lengths: the graded text 64, reference 1 32: no similarity can be computed',
    );
  });

  it('cosineSimilarity refuses what it cannot compare (RangeError), and scores what it can', () => {
    const v = Float32Array.from([1, 2, 3]);
    expect(cosineSimilarity(v, v)).toBeCloseTo(1, 6);
    expect(() => cosineSimilarity(v, new Float32Array(3))).toThrow(
      'cosine similarity: the vector of b is all zeros (3 dimensions)',
    );
    expect(() => cosineSimilarity(new Float32Array(0), new Float32Array(0))).toThrow('the vector of a is empty');
    expect(() => cosineSimilarity(v, Float32Array.from([1, 2]))).toThrow('vectors of different lengths: a 3, b 2');
    expect(() => cosineSimilarity(v, Float32Array.from([1, Number.NaN, 3]))).toThrow(
      'non-finite component (NaN at index 1)',
    );
  });
});
