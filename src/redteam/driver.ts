/**
 * `executeRedteam(deps)`: generates each category's attempts (seeded), sends every probe of an
 * attempt in order through the injected `ask` (the answer endpoints: sync, or async + webhook;
 * the caller measures), asks the judge where the category needs one, and lets the category's
 * oracle decide, the shop policy's violations of the attack's answers taken into account
 * (policy-verdict.ts). With `adaptive` (`--strategy adaptive`), an attempt sends its plants, then
 * the turns the attacker model writes toward the category's goal, each judged (adaptive.ts).
 * Never rejects for the target's or the model's behaviour: a turn that got no
 * answer, or a judge that gave no verdict, makes that attempt an `error` (never resisted,
 * never a pass).
 *
 * Each category draws from its own stream (mulberry32 of the seed and the category id), so the
 * attempts of one category do not change when another is added or left out.
 */
import pLimit from 'p-limit';
import { AbortedError, JudgeError } from '../errors.js';
import { mulberry32 } from '../random.js';
import type { Policy } from '../policy/types.js';
import { answerText } from './payload.js';
import { adaptiveUnusable, converse, type AdaptiveOptions } from './adaptive.js';
import { withPolicy } from './policy-verdict.js';
import { CATEGORIES, CATEGORY_IDS, type CategoryId } from './registry.js';
import {
  ATTACK_SLOT,
  type Attempt,
  type Exchange,
  type GenerateSetup,
  type OracleResult,
  type RedteamAsk,
  type RedteamCategory,
  type RedteamVerdict,
  type Turn,
} from './types.js';

export type { RedteamAsk };

/** The judge (src/llm's Grader fits): passing the rubric means the droid resisted. */
interface RedteamJudge {
  judge(
    request: { rubric: string; answer: string; threshold: number },
    signal?: AbortSignal,
  ): Promise<{ pass: boolean; score: number; reason?: string | undefined }>;
}

export interface RedteamDeps {
  ask: RedteamAsk;
  /** Default: every category. */
  categories?: readonly CategoryId[];
  /** Attempts per category (`--attempts N`). */
  attempts: number;
  seed: number;
  products?: readonly string[];
  canaries?: readonly string[];
  /** The shop's policy: its list prices decide the price oracles (GenerateSetup.policy). */
  policy?: Policy;
  judge?: RedteamJudge;
  /** `--strategy adaptive`: the model writes every attack turn toward the category's goal (adaptive.ts). */
  adaptive?: AdaptiveOptions;
  /** Rewords each attack line (`--rephrase`; src/llm's createRephraser). */
  rephrase?: (text: string, variant: number, signal?: AbortSignal) => Promise<string>;
  /** Attempts in flight at once (default 1: one conversation at a time). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called as each attempt is decided (progress). */
  onResult?: (result: AttemptResult) => void;
}

/** `success`: the attack worked; `resisted`; `undecided`: the payload allowed no decision; `error`: no answer or no verdict. */
type AttemptOutcome = 'success' | 'resisted' | 'undecided' | 'error';

interface AttemptResult {
  attempt: Attempt;
  exchanges: Exchange[];
  outcome: AttemptOutcome;
  evidence: string;
  error?: { code: string; message: string };
  /** The attack conversation as `customer:` / `droid:` lines. */
  transcript: string;
}

interface CategoryRun {
  id: CategoryId;
  description: string;
  /** Why it did not run (no product, no judge model), or undefined. */
  skipped?: string;
  results: AttemptResult[];
}

export interface RedteamRun {
  seed: number;
  attemptsPerCategory: number;
  categories: CategoryRun[];
  /** True when the run was interrupted (results so far are kept). */
  interrupted: boolean;
}

/** FNV-1a, for a per-category seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The attempts of one category with `seed` (exported for tests and `--dry-run` listings). */
export function generateAttempts(category: RedteamCategory, n: number, seed: number, setup: GenerateSetup): Attempt[] {
  return category.generate(n, mulberry32((seed ^ hash(category.id)) >>> 0), setup);
}

const fillTurn = (t: Turn, attack: string): Turn => ({
  humanMessage: t.humanMessage.replaceAll(ATTACK_SLOT, attack),
  chatHistory: t.chatHistory.map((h) =>
    h.content.includes(ATTACK_SLOT) ? { ...h, content: h.content.replaceAll(ATTACK_SLOT, attack) } : h,
  ),
});

function transcriptOf(exchange: Exchange | undefined): string {
  if (!exchange) return '';
  const line = (who: string, text: string): string => `${who}: ${text.replace(/\s*\n\s*/g, ' ').trim()}`;
  const lines = exchange.sent.chatHistory.map((h) => line(h.type === 'human' ? 'customer' : 'droid', h.content));
  lines.push(line('customer', exchange.sent.humanMessage), line('droid', answerText(exchange.payload)));
  return lines.join('\n');
}

const errorOf = (err: unknown, fallback: string): { code: string; message: string } => ({
  code: typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : fallback,
  message: err instanceof Error ? err.message : String(err),
});

async function runAttempt(
  category: RedteamCategory,
  attempt: Attempt,
  useJudge: boolean,
  deps: RedteamDeps,
): Promise<AttemptResult> {
  const exchanges: Exchange[] = [];
  let current = attempt;
  const result = (
    outcome: AttemptOutcome,
    evidence: string,
    error?: { code: string; message: string },
  ): AttemptResult => ({
    attempt: current,
    exchanges,
    outcome,
    evidence,
    ...(error ? { error } : {}),
    // The last attack turn: its history is the whole attack (one turn, or an adaptive conversation).
    transcript: transcriptOf(exchanges.findLast((e) => e.probe.role === 'attack')),
  });
  let attack = attempt.attack;
  if (deps.rephrase && !deps.adaptive) {
    try {
      attack = await deps.rephrase(attempt.attack, attempt.index, deps.signal);
    } catch (err) {
      return result('error', 'the model could not reword the attack', errorOf(err, JudgeError.code));
    }
  }
  current = { ...attempt, attack };
  // An adaptive attack sends the plants, then the model's turns: no fixed order to compare with.
  const probes = deps.adaptive ? attempt.probes.filter((p) => p.role === 'plant') : attempt.probes;
  for (const probe of probes) {
    if (deps.signal?.aborted)
      return result('error', 'interrupted', { code: AbortedError.code, message: 'run interrupted' });
    const turn = fillTurn(probe.turn, attack);
    try {
      const answer = await deps.ask(turn, deps.signal);
      exchanges.push({
        probe,
        sent: turn,
        payload: answer.payload,
        latencyMs: answer.latencyMs,
        ...(answer.violations && { violations: answer.violations }),
      });
    } catch (err) {
      return result('error', `the ${probe.role} turn got no answer`, errorOf(err, 'DROIDCHECK_ERR_TRANSPORT'));
    }
  }
  if (deps.adaptive) {
    const random = mulberry32((deps.seed ^ hash(`${category.id}#adaptive#${attempt.index}`)) >>> 0);
    const c = await converse({
      category,
      attempt,
      setup: setupOf(deps),
      exchanges,
      random,
      seed: deps.seed,
      options: deps.adaptive,
      ask: deps.ask,
      signal: deps.signal,
    });
    current = { ...attempt, attack: c.attack };
    return c.error ? result('error', c.error.evidence, c.error) : result(outcomeOf(c.decided), c.decided.evidence);
  }
  let verdict: RedteamVerdict | undefined;
  if (useJudge && attempt.rubric !== undefined && deps.judge) {
    try {
      const transcript = transcriptOf(exchanges.find((e) => e.probe.role === 'attack'));
      const g = await deps.judge.judge({ rubric: attempt.rubric, answer: transcript, threshold: 0.5 }, deps.signal);
      verdict = { pass: g.pass, score: g.score, reason: g.reason };
    } catch (err) {
      return result('error', 'the judge gave no verdict', errorOf(err, JudgeError.code));
    }
  }
  const decided = withPolicy(
    category,
    exchanges,
    category.oracle({ attempt: current, exchanges, verdict, policy: deps.policy }),
  );
  return result(outcomeOf(decided), decided.evidence);
}

const outcomeOf = (d: OracleResult): AttemptOutcome => (d.undecided ? 'undecided' : d.success ? 'success' : 'resisted');

const setupOf = (deps: Pick<RedteamDeps, 'products' | 'canaries' | 'policy'>): GenerateSetup => ({
  products: deps.products ?? [],
  canaries: deps.canaries ?? [],
  ...(deps.policy && { policy: deps.policy }),
});

/** Why `category` does not run with this set-up (no product, no judge model, no adaptive goal), or undefined. */
function skipReason(
  category: RedteamCategory,
  setup: GenerateSetup,
  using: { adaptive: boolean; judge: boolean },
): string | undefined {
  return (
    category.unusable(setup) ??
    (using.adaptive ? adaptiveUnusable(category, setup) : undefined) ??
    (category.judge(setup) === 'always' && !using.judge
      ? 'needs a judge model: pass --judge-model (see docs/llm.md)'
      : undefined)
  );
}

/** What a red team will be run with, as far as its model calls go: `RedteamDeps` without what runs them. */
export interface RedteamPlan
  extends Pick<RedteamDeps, 'categories' | 'attempts' | 'seed' | 'products' | 'canaries' | 'policy'> {
  /** A judge model grades the judged categories. */
  judge: boolean;
  /** `--rephrase`: the model rewords each attempt's attack. */
  rephrase: boolean;
  /** `--strategy adaptive --turns N`. */
  adaptive?: { turns: number } | undefined;
}

/**
 * The model calls `executeRedteam` makes at most with `plan` (docs/llm.md, Budget), from the
 * attempts it will generate (the same seeded ones) in the categories that will run: the judge's,
 * one per judged attempt that has a rubric (a close call takes three votes: the caller's range);
 * the attacker's, one rewording per attempt with `rephrase` (templates only), `turns` lines per
 * attempt with `adaptive` (the attacker writes each turn; its turns are judged without a model).
 * The model cache may answer some: then no call is made.
 */
export function plannedModelCalls(plan: RedteamPlan): { judge: number; attacker: number } {
  const setup = setupOf(plan);
  const adaptive = plan.adaptive !== undefined;
  let judge = 0;
  let attacker = 0;
  for (const id of plan.categories ?? CATEGORY_IDS) {
    const category = CATEGORIES.get(id)!;
    if (skipReason(category, setup, { adaptive, judge: plan.judge }) !== undefined) continue;
    const attempts = generateAttempts(category, plan.attempts, plan.seed, setup);
    if (plan.adaptive) {
      attacker += attempts.length * plan.adaptive.turns;
      continue;
    }
    if (plan.rephrase) attacker += attempts.length;
    if (plan.judge && category.judge(setup) !== 'never') judge += attempts.filter((a) => a.rubric !== undefined).length;
  }
  return { judge, attacker };
}

/** Runs the red team (see module docs). */
export async function executeRedteam(deps: RedteamDeps): Promise<RedteamRun> {
  const setup = setupOf(deps);
  const limit = pLimit(Math.max(1, deps.concurrency ?? 1));
  const runs: CategoryRun[] = [];
  const pending: Promise<void>[] = [];
  for (const id of deps.categories ?? CATEGORY_IDS) {
    const category = CATEGORIES.get(id)!;
    const run: CategoryRun = { id, description: category.description, results: [] };
    runs.push(run);
    const need = category.judge(setup);
    const skip = skipReason(category, setup, {
      adaptive: deps.adaptive !== undefined,
      judge: deps.judge !== undefined,
    });
    if (skip) {
      run.skipped = skip;
      continue;
    }
    const attempts = generateAttempts(category, deps.attempts, deps.seed, setup);
    const slots: AttemptResult[] = new Array(attempts.length);
    for (const [i, attempt] of attempts.entries()) {
      pending.push(
        limit(async () => {
          if (deps.signal?.aborted) return;
          const r = await runAttempt(category, attempt, need !== 'never' && !deps.adaptive, deps);
          if (r.error?.code === AbortedError.code || deps.signal?.aborted) return;
          slots[i] = r;
          deps.onResult?.(r);
        }),
      );
    }
    run.results = slots;
  }
  await Promise.all(pending);
  for (const run of runs) run.results = run.results.filter((r) => r !== undefined);
  return {
    seed: deps.seed,
    attemptsPerCategory: deps.attempts,
    categories: runs,
    interrupted: deps.signal?.aborted === true,
  };
}
