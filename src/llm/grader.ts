/**
 * `createGrader(config)`: the Grader the `judge` and `similar` matchers call (docs/llm.md).
 *
 * judge: the verdicts of (prompt version, model, rubric, answer, context) come from memory, then
 * from the disk cache, then from the model (temperature 0; judge-prompt.ts). One verdict decides
 * unless it is a close call (verdict.ts), then three do, by majority; the cache keeps every
 * verdict asked, so a later run with another threshold asks only what it lacks. An answer
 * without a verdict JSON is asked again up to `retries` times.
 *
 * similar: embeddings of (model, text) come from memory, then disk, then one batched call for
 * all that are missing; the score is the best cosine similarity between the text and a
 * reference, and the grade passes at or above the threshold. Vectors that cannot be compared
 * (empty, non-finite, all zeros, of different lengths: similarity.ts) are a judge error naming
 * the model, never a score, and are not cached.
 *
 * Every call goes through one p-limit of `concurrency`. Identical grades in flight at once share
 * their calls. Failures reject with JudgeError (DROIDCHECK_ERR_JUDGE); `usage()` counts calls,
 * HTTP attempts, tokens, cache hits and judge errors.
 */
import pLimit from 'p-limit';
import type { Dispatcher } from 'undici';
import { JudgeError } from '../errors.js';
import { createRedactor, type Redactor } from '../redact.js';
import { cacheKey, decodeVector, encodeVector, type LlmCache } from './cache.js';
import { cacheOf } from './endpoint.js';
import type { ResolvedLlmConfig } from './config.js';
import { judgeMessages, PROMPT_VERSION } from './judge-prompt.js';
import { createOpenAiProvider, type ChatMessage, type LlmProvider } from './provider.js';
import { bestMatch, incomparable, vectorProblem } from './similarity.js';
import type { ModelBudget } from './budget.js';
import type { GradeResult, Grader, JudgeRequest, LlmUsage, ModelCallScope, SimilarRequest, Verdict } from './types.js';
import { zeroLlmUsage } from './usage.js';
import { decide, parseVerdict } from './verdict.js';

export interface GraderOptions {
  /** Default: `createOpenAiProvider(config)` over its own Agent (or `dispatcher`). */
  provider?: LlmProvider;
  dispatcher?: Dispatcher;
  /** Default: the disk cache at `config.cacheDir`, none when it is undefined (`--no-cache`). */
  cache?: LlmCache;
  /** Every call goes through it (role judge, or embeddings): counted, and refused once it is spent (budget.ts). */
  budget?: ModelBudget;
}

/** Entries kept in memory per kind before the maps are cleared (the disk cache stays). */
const MEMO_LIMIT = 10_000;

function excerpt(text: string, max = 120): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function asVerdicts(value: unknown): Verdict[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is Verdict =>
      v !== null &&
      typeof v === 'object' &&
      typeof v.pass === 'boolean' &&
      typeof v.score === 'number' &&
      v.score >= 0 &&
      v.score <= 1 &&
      typeof v.reason === 'string',
  );
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MEMO_LIMIT && !map.has(key)) map.clear();
  map.set(key, value);
}

/** What the grader's module-level helpers share: its config, provider, cache, limit and counters. */
interface GraderState {
  config: ResolvedLlmConfig;
  counts: LlmUsage;
  provider: LlmProvider;
  cache: LlmCache;
  limit: ReturnType<typeof pLimit>;
  /** The judge's reasons go into reports and the cache: a key echoed back is scrubbed. */
  redact: Redactor;
  verdictMemo: Map<string, Promise<Verdict[]>>;
  vectorMemo: Map<string, Promise<Float32Array>>;
}

/** One grade's model calls: the model, the grade's signal and scope, and `n`, the calls it made so far. */
interface GradeCalls {
  model: string;
  signal: AbortSignal;
  scope: ModelCallScope | undefined;
  n: number;
}

/** One verdict; an answer without one is asked again up to `retries` times. */
async function askVerdict(state: GraderState, calls: GradeCalls, messages: ChatMessage[]): Promise<Verdict> {
  const { config, counts, provider, limit, redact } = state;
  const { model, signal, scope } = calls;
  let last = '';
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    const answer = await limit(() => provider.chat(model, messages, signal, scope));
    calls.n += 1;
    counts.chatCalls += 1;
    counts.promptTokens += answer.promptTokens;
    counts.completionTokens += answer.completionTokens;
    counts.totalTokens += answer.promptTokens + answer.completionTokens;
    const verdict = parseVerdict(answer.content);
    if (verdict) return { ...verdict, reason: redact(verdict.reason) };
    last = answer.content;
  }
  throw new JudgeError(
    redact(
      `judge model ${model} gave no verdict JSON {"pass": boolean, "score": 0..1, "reason": string} in ${config.retries + 1} answer(s); last answer: "${excerpt(last)}"`,
    ),
  );
}

/** The verdicts under `key`, at least `needed` of them (asked for what is missing). */
function verdicts(state: GraderState, key: string, needed: number, ask: () => Promise<Verdict>): Promise<Verdict[]> {
  const { cache, verdictMemo } = state;
  const prev = verdictMemo.get(key) ?? cache.get('judge', key).then(asVerdicts);
  const next = prev.then(async (have) => {
    if (have.length >= needed) return have;
    const more = await Promise.all(Array.from({ length: needed - have.length }, ask));
    const all = [...have, ...more];
    await cache.set('judge', key, all);
    return all;
  });
  remember(
    verdictMemo,
    key,
    next.catch(() => prev),
  );
  return next;
}

/** A judge grade: one verdict, or a majority of more on a close call (see module docs). */
async function judgeWith(state: GraderState, request: JudgeRequest, signal: AbortSignal): Promise<GradeResult> {
  const { config, counts } = state;
  const model = config.judgeModel;
  if (model === undefined) throw new JudgeError('judge: no judge model configured (--judge-model or judge.model)');
  const messages = judgeMessages(request.rubric, request.answer, request.context);
  const key = cacheKey(['judge', PROMPT_VERSION, model, request.rubric, request.answer, request.context ?? null]);
  const calls: GradeCalls = { model, signal, scope: request.scope, n: 0 };
  const ask = (): Promise<Verdict> => askVerdict(state, calls, messages);
  let list = await verdicts(state, key, 1, ask);
  let decision = decide(list, request.threshold, config.margin);
  if (!decision.decided) {
    list = await verdicts(state, key, decision.needed, ask);
    decision = decide(list, request.threshold, config.margin);
  }
  if (calls.n === 0) counts.cacheHits += 1;
  return {
    pass: decision.pass,
    score: decision.score,
    reason: decision.reason,
    cached: calls.n === 0,
    calls: calls.n,
    votes: decision.needed,
  };
}

/** Indexes of `keys` neither in memory nor on disk; the others' lookups are filled in. */
async function lookupVectors(
  state: GraderState,
  keys: readonly string[],
): Promise<{ lookups: (Float32Array | Promise<Float32Array> | undefined)[]; missing: number[] }> {
  const { cache, vectorMemo } = state;
  const missing: number[] = [];
  const lookups: (Float32Array | Promise<Float32Array> | undefined)[] = await Promise.all(
    keys.map(async (key, i): Promise<Float32Array | Promise<Float32Array> | undefined> => {
      const memo = vectorMemo.get(key);
      if (memo) return memo;
      const disk = decodeVector(await cache.get('embedding', key));
      if (disk && vectorProblem(disk) === undefined) return disk;
      const again = vectorMemo.get(key); // another grade may have asked meanwhile
      if (again) return again;
      missing.push(i);
      return undefined;
    }),
  );
  return { lookups, missing };
}

/** Asks for the distinct `inputs` in one batched call; each vector is memoized and cached under its key. */
function embedMissing(state: GraderState, calls: GradeCalls, inputs: string[]): void {
  const { cache, counts, limit, provider, vectorMemo } = state;
  const { model, signal, scope } = calls;
  const batch = limit(() => provider.embed(model, inputs, signal, scope)).then((answer) => {
    calls.n += 1;
    counts.embeddingCalls += 1;
    counts.promptTokens += answer.promptTokens;
    counts.totalTokens += answer.promptTokens;
    return answer.vectors;
  });
  for (const [j, text] of inputs.entries()) {
    const key = cacheKey(['embedding', model, text]);
    const one = batch.then(async (vs) => {
      const v = vs[j]!;
      // A vector that cannot be compared is neither cached nor kept: its grade is a judge
      // error (similarWith), and a judge error is asked again next time.
      if (vectorProblem(v) === undefined) await cache.set('embedding', key, encodeVector(v));
      else if (vectorMemo.get(key) === one) vectorMemo.delete(key);
      return v;
    });
    one.catch(() => vectorMemo.delete(key));
    remember(vectorMemo, key, one);
  }
}

/** Vectors of `texts` (memory, disk, then one batched call); `calls` counts the call. */
async function vectors(state: GraderState, calls: GradeCalls, texts: readonly string[]): Promise<Float32Array[]> {
  const keys = texts.map((t) => cacheKey(['embedding', calls.model, t]));
  const { lookups, missing } = await lookupVectors(state, keys);
  state.counts.cacheHits += texts.length - missing.length;
  if (missing.length > 0) {
    missing.sort((a, b) => a - b);
    embedMissing(state, calls, [...new Set(missing.map((i) => texts[i]!))]);
    for (const i of missing) lookups[i] = state.vectorMemo.get(keys[i]!);
  }
  return Promise.all(lookups.map((l) => l!));
}

/** A similar grade: the best cosine similarity between the text and a reference (see module docs). */
async function similarWith(state: GraderState, request: SimilarRequest, signal: AbortSignal): Promise<GradeResult> {
  const model = state.config.embeddingModel;
  if (model === undefined)
    throw new JudgeError('similar: no embedding model configured (--embedding-model or judge.embeddingModel)');
  const calls: GradeCalls = { model, signal, scope: request.scope, n: 0 };
  const [text, ...refs] = await vectors(state, calls, [request.text, ...request.references]);
  const problem = incomparable([
    { label: 'the graded text', vector: text! },
    ...refs.map((vector, i) => ({ label: `reference ${i + 1}`, vector })),
  ]);
  if (problem) throw new JudgeError(`embedding model ${model}: ${problem}: no similarity can be computed`);
  const best = bestMatch(text!, refs);
  const ref = request.references[best.index] ?? '';
  const reason =
    request.references.length > 1
      ? `closest reference ${best.index + 1} of ${request.references.length}: "${excerpt(ref, 80)}"`
      : undefined;
  return {
    pass: best.score >= request.threshold,
    score: best.score,
    ...(reason ? { reason } : {}),
    cached: calls.n === 0,
    calls: calls.n,
  };
}

/** Creates a grader (see module docs). `close()` it when the run ends. */
export function createGrader(config: ResolvedLlmConfig, options: GraderOptions = {}): Grader {
  const counts: LlmUsage = zeroLlmUsage();
  const given =
    options.provider ??
    createOpenAiProvider(config, {
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      onHttpRequest: () => void counts.httpRequests++,
    });
  const provider = options.budget ? options.budget.meter(given, 'judge') : given;
  const state: GraderState = {
    config,
    counts,
    provider,
    cache: options.cache ?? cacheOf(config),
    limit: pLimit(config.concurrency),
    redact: createRedactor([config.apiKey]),
    verdictMemo: new Map<string, Promise<Verdict[]>>(),
    vectorMemo: new Map<string, Promise<Float32Array>>(),
  };
  const closing = new AbortController();

  const signalFor = (signal?: AbortSignal): AbortSignal =>
    signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;

  // A grade of either kind: the caller's signal or close() stops it; a failure is a judge error counted.
  const grade =
    <R>(gradeWith: (state: GraderState, request: R, signal: AbortSignal) => Promise<GradeResult>) =>
    async (request: R, callerSignal?: AbortSignal): Promise<GradeResult> => {
      try {
        return await gradeWith(state, request, signalFor(callerSignal));
      } catch (err) {
        counts.judgeErrors += 1;
        throw err;
      }
    };

  return {
    judge: grade(judgeWith),
    similar: grade(similarWith),
    usage: () => ({ ...counts }),
    async close() {
      closing.abort();
      await provider.close();
    },
  };
}
