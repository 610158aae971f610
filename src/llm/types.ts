/**
 * Shapes of the LLM-graded matchers (docs/llm.md): what a grader is asked, what it answers, and the
 * token accounting it keeps. Plain data; no behaviour.
 */

/** What a model call is made for: the scenario (per-scenario spend: budget.ts) and the trace to hang its span on (opaque here). */
export interface ModelCallScope {
  scenario?: string | undefined;
  parent?: unknown;
}

/** One chat turn given to a grounded judge (spec: Chat history item; images carry `alt`). */
export interface GroundingTurn {
  type: string;
  content: string;
  contentType?: string;
  alt?: string;
}

/**
 * What a grounded judge sees besides the answer: the scenario's chat history and human message,
 * and the payload's `shoppingCart` and `addressParsing` (spec: Answer payload fields).
 */
export interface JudgeContext {
  chatHistory: readonly GroundingTurn[];
  humanMessage: string;
  shoppingCart?: unknown;
  addressParsing?: unknown;
}

/** `judge`: grade `answer` against `rubric`; a vote passes when `pass` and `score >= threshold`. */
export interface JudgeRequest {
  rubric: string;
  answer: string;
  /** 0..1. */
  threshold: number;
  /** Present for `grounded: true`. */
  context?: JudgeContext;
  /** What the grade is made for: its scenario and trace (llm/budget.ts); not part of the cache key. */
  scope?: ModelCallScope | undefined;
}

/** `similar`: cosine similarity of `text` with each reference; the best one counts. */
export interface SimilarRequest {
  text: string;
  references: readonly string[];
  /** 0..1 (cosine similarity). */
  threshold: number;
  /** What the grade is made for: its scenario and trace (llm/budget.ts). */
  scope?: ModelCallScope | undefined;
}

/** One verdict of the judge, as it answered (promptfoo's llm-rubric format). */
export interface Verdict {
  pass: boolean;
  /** 0..1. */
  score: number;
  reason: string;
}

/**
 * The grade of one expectation.
 * - `score`: 0..1 (judge: the median of the votes; similar: the best cosine similarity);
 * - `reason`: the judge's reason (of a vote that agrees with the outcome); for similar, which
 *   reference was closest;
 * - `cached`: true when no call was made (every verdict or embedding came from the cache);
 * - `calls`: chat or embedding calls made for this grade (0 when cached);
 * - `votes`: verdicts that decided (1, or 3 near the threshold); judge only.
 */
export interface GradeResult {
  pass: boolean;
  score: number;
  reason?: string;
  cached: boolean;
  calls: number;
  votes?: number;
}

/**
 * Token and call accounting of one grader, from its creation (a snapshot; counters only grow).
 * - `chatCalls` / `embeddingCalls`: answers received from the endpoint (garbage included);
 * - `httpRequests`: every HTTP attempt, retries included;
 * - `promptTokens` / `completionTokens` / `totalTokens`: as the endpoint reported them (`usage`);
 * - `cacheHits`: verdicts and embeddings answered from the cache (memory or disk), no call made;
 * - `judgeErrors`: grades that ended in a judge error.
 */
export interface LlmUsage {
  chatCalls: number;
  embeddingCalls: number;
  httpRequests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cacheHits: number;
  judgeErrors: number;
}

/**
 * What the `judge` and `similar` matchers call (src/scenario/evaluate.ts takes it structurally).
 * Both methods reject with JudgeError (DROIDCHECK_ERR_JUDGE) when no verdict can be had; they
 * never resolve a pass or a failure for an endpoint that did not answer.
 */
export interface Grader {
  judge(request: JudgeRequest, signal?: AbortSignal): Promise<GradeResult>;
  similar(request: SimilarRequest, signal?: AbortSignal): Promise<GradeResult>;
  usage(): LlmUsage;
  /** Closes the HTTP connections. Pending grades are aborted. */
  close(): Promise<void>;
}
