/**
 * The LLM-graded matchers (docs/llm.md): `similar` (cosine similarity of embeddings) and `judge`
 * (a rubric graded by a language model). Like the plain matchers each has a `schema` (what the
 * user writes), `normalise` (-> `Expectation.expected`) and `describe`; unlike them, the grading
 * is done by a grader passed in at evaluation time (evaluate.ts): scenario/ has no network.
 *
 * ```yaml
 * answer: { similar: "Two shirts cost 2,580 THB" }                       # threshold 0.8
 * answer: { similar: { value: ["Two shirts cost 2,580 THB", "2,580 THB for two"], threshold: 0.85 } }
 * answer: { judge: "States the price of each item and the total" }       # threshold 0.5
 * answer: { judge: { rubric: "Agrees with the cart", threshold: 0.7, grounded: true } }
 * ```
 */
import { z } from 'zod';
import { stepExpectations, type Expectation, type SourceLocation, type Suite } from '../types.js';
import { show } from './values.js';

/** `similar` passes at or above this cosine similarity unless the file says otherwise (docs/llm.md). */
const DEFAULT_SIMILAR_THRESHOLD = 0.8;
/** `judge`: a vote passes when the judge says pass and its score reaches this (promptfoo's llm-rubric). */
const DEFAULT_JUDGE_THRESHOLD = 0.5;

/** `Expectation.expected` of `similar`. */
export interface SimilarExpected {
  values: string[];
  threshold: number;
}
/** `Expectation.expected` of `judge`. */
export interface JudgeExpected {
  rubric: string;
  threshold: number;
  grounded: boolean;
}

export interface GradedMatcherDef {
  name: 'similar' | 'judge';
  summary: string;
  schema: z.ZodType;
  normalise: (value: unknown) => { expected: unknown; options?: Record<string, unknown> };
  describe: (expected: unknown) => string;
}

const threshold = z.number().min(0, 'threshold is from 0 to 1').max(1, 'threshold is from 0 to 1 (0.8 means 80%)');
const reference = z.string().min(1, 'a reference text must not be empty');
const references = z.union([reference, z.array(reference).min(1, 'similar needs at least one reference text')], {
  error: 'similar takes a text, a list of texts, or { value: text(s), threshold: 0..1 }',
});
const rubric = z.string().min(1, 'a rubric must not be empty');

const similar: GradedMatcherDef = {
  name: 'similar',
  summary:
    'semantically close to a reference text (cosine similarity of embeddings >= threshold, default 0.8); needs an embedding model',
  schema: z.union([references, z.strictObject({ value: references, threshold: threshold.optional() })], {
    error: 'similar takes a text, a list of texts, or { value: text(s), threshold: 0..1 }',
  }),
  normalise: (v) => {
    const o =
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? (v as { value: string | string[]; threshold?: number })
        : { value: v as string | string[] };
    const values = Array.isArray(o.value) ? [...o.value] : [o.value];
    return { expected: { values, threshold: o.threshold ?? DEFAULT_SIMILAR_THRESHOLD } satisfies SimilarExpected };
  },
  describe: (e) => {
    const { values, threshold: t } = e as SimilarExpected;
    const what =
      values.length === 1 ? show(values[0], 80) : `one of ${values.length} references (${show(values[0], 60)}, ...)`;
    return `to be similar (cosine >= ${t}) to ${what}`;
  },
};

const judge: GradedMatcherDef = {
  name: 'judge',
  summary:
    'meets a rubric, graded by a language model: "rubric" or { rubric, threshold: 0..1 (0.5), grounded: true|false }; needs a judge model',
  schema: z.union(
    [rubric, z.strictObject({ rubric, threshold: threshold.optional(), grounded: z.boolean().optional() })],
    {
      error: 'judge takes a rubric text or { rubric, threshold, grounded }',
    },
  ),
  normalise: (v) => {
    const o = typeof v === 'string' ? { rubric: v } : (v as { rubric: string; threshold?: number; grounded?: boolean });
    return {
      expected: {
        rubric: o.rubric,
        threshold: o.threshold ?? DEFAULT_JUDGE_THRESHOLD,
        grounded: o.grounded === true,
      } satisfies JudgeExpected,
    };
  },
  describe: (e) => {
    const { rubric: r, threshold: t, grounded } = e as JudgeExpected;
    return `to meet the rubric ${show(r, 100)} (score >= ${t}${grounded ? ', grounded in the conversation, cart and address' : ''})`;
  },
};

/** The graded matchers by name. */
export const GRADED_MATCHERS: ReadonlyMap<string, GradedMatcherDef> = new Map([similar, judge].map((m) => [m.name, m]));

/** Where a suite uses a graded matcher: the matcher and the file:line:col of its key. */
export interface GraderUse {
  matcher: 'similar' | 'judge';
  location: SourceLocation;
}

function collectUses(expectations: readonly Expectation[], out: GraderUse[]): void {
  for (const e of expectations) {
    if (e.matcher === 'json') collectUses(e.expected as Expectation[], out);
    else if (e.matcher === 'similar' || e.matcher === 'judge') out.push({ matcher: e.matcher, location: e.location });
  }
}

/**
 * Every use of `similar` and `judge` in `suites` (scenario expectations, step expectations,
 * inside `json`), in file order. Empty: the run needs no grader. Give the result to
 * `assertGraderConfig` (src/llm) before anything is sent.
 */
export function needsGrader(suites: readonly Suite[]): GraderUse[] {
  const out: GraderUse[] = [];
  for (const suite of suites) {
    for (const s of suite.scenarios) {
      collectUses(s.expect, out);
      for (const step of s.steps ?? []) for (const list of stepExpectations(step)) collectUses(list, out);
    }
  }
  return out;
}
