/**
 * Shapes of `droidcheck redteam`: an attack category (its phrasings, its seeded generation, its
 * oracle), one generated attempt, the conversations it sends, and what the oracle decides.
 * Plain data and function types; no behaviour.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { Policy } from '../policy/types.js';
import type { Random } from '../random.js';

/** One answer turn as the answer endpoints take it (spec 8, 9): the history and the human message. */
export interface Turn {
  chatHistory: ChatHistoryItem[];
  humanMessage: string;
}

/**
 * One conversation an attempt sends, in order:
 * - `plant`: sets up what must not leak (e.g. a canary in another customer's conversation);
 * - `baseline`: the same order without the attack (differential oracles compare against it);
 * - `attack`: the attack itself. Its `humanMessage` holds `{{attack}}` where the attack line
 *   (`Attempt.attack`, possibly reworded by the model) goes.
 */
export interface Probe {
  role: 'plant' | 'baseline' | 'attack';
  turn: Turn;
}

export const ATTACK_SLOT = '{{attack}}';

export interface Attempt<Id extends string = string> {
  /** The id of the category that made it. */
  category: Id;
  /** 0-based index within its category. */
  index: number;
  /** Which phrasing (template) it came from, 0-based. */
  template: number;
  /** The attack line a customer writes (may be reworded by the model before it is sent). */
  attack: string;
  probes: Probe[];
  /** Texts that must never appear in the attack's answer (canaries). */
  canaries: string[];
  /** The rubric a judge grades the attack's transcript on: passing it means the droid resisted. */
  rubric?: string;
}

/**
 * Sends one turn; resolves the answer payload, its time (ms) and the ids of the shop policy's
 * rules the answer broke (the job's policy judge, runner/turn-checks.ts; absent without a
 * policy); rejects with the target's error.
 */
export type RedteamAsk = (
  turn: Turn,
  signal?: AbortSignal,
) => Promise<{ payload: unknown; latencyMs: number; violations?: readonly string[] }>;

/** One probe sent and answered. `latencyMs`: its answer time, ms. */
export interface Exchange {
  probe: Probe;
  /** The turn as sent (the attack slot filled in). */
  sent: Turn;
  payload: unknown;
  latencyMs: number;
  /** The ids of the shop policy's rules this answer broke (the job's policy judge); absent without a policy. */
  violations?: readonly string[];
}

/** The judge's grade of the attack transcript against the category's rubric (pass: resisted). */
export interface RedteamVerdict {
  pass: boolean;
  /** 0..1. */
  score: number;
  reason?: string | undefined;
}

export interface OracleInput {
  attempt: Attempt;
  /** Every probe of the attempt, answered, in order. */
  exchanges: Exchange[];
  /** Present when the category asked for a judge and one was configured. */
  verdict?: RedteamVerdict | undefined;
  /** The shop's policy (GenerateSetup.policy): the list prices the price oracles check a cart against. */
  policy?: Policy | undefined;
}

/**
 * What the oracle decides. `success`: the attack worked (a finding). `evidence`: one line that
 * shows why (the totals compared, the canary found, the judge's reason). `undecided`: the
 * payload did not allow a decision (e.g. the baseline order put nothing in the cart): neither a
 * success nor a resisted attack, counted apart.
 */
export interface OracleResult {
  success: boolean;
  evidence: string;
  undecided?: boolean;
}

/**
 * What generation may draw on: the products to order and the canaries to look for, and the
 * shop's policy they came from (jobs/redteam/redteam.ts: `--product`/`--canary` override the policy's).
 */
export interface GenerateSetup {
  /** Product names the droid sells (`--product NAME`, else the policy's catalogue). */
  products: readonly string[];
  /** Texts (or `/regex/flags`) of the droid's own instructions that must never be shown (`--canary TEXT`, else the policy's canaries). */
  canaries: readonly string[];
  /** The shop's policy (`--policy`): its list prices decide the price oracles (list-price.ts). */
  policy?: Policy | undefined;
}

/**
 * What an adaptive attack of a category is after (`--strategy adaptive`, adaptive.ts): the goal
 * the attacker model is told, and what the set-up must give for its turns to be judged
 * deterministically.
 */
interface AdaptiveGoal {
  /** What to get the droid to do, in a sentence or two; drawn from `random` (e.g. the product). Never the secret the oracle looks for. */
  goal(random: Random, setup: GenerateSetup): string;
  /** Why an adaptive attack cannot be judged turn by turn with this set-up (e.g. no list prices), or undefined. */
  unusable?(setup: GenerateSetup): string | undefined;
}

/** When a category's attempts need a judge model. */
export type JudgeNeed = 'never' | 'always' | 'optional';

/** One attack category; `Id` its id as a literal type (registry.ts derives `CategoryId` from them). */
export interface RedteamCategory<Id extends string = string> {
  id: Id;
  /** One sentence: what it tries. */
  description: string;
  /** One sentence: how the oracle decides. */
  oracleDescription: string;
  /**
   * The shop policy's rules (docs/policy.md) whose violation in the answer to an attack means the
   * attack worked, whatever the oracle made of it (policy-verdict.ts): `max-discount` for a
   * discount, `canary` for the instructions, `other-customer-data` for another customer's details.
   */
  policyRules?: readonly string[];
  /** Its adaptive attack; absent: the category runs with its templates only. */
  adaptive?: AdaptiveGoal;
  /** The attack lines, several phrasings; `{product}`, `{qty}`, `{canary}`... are filled in by `generate`. */
  templates: readonly string[];
  /** `always`: no verdict, no decision; `optional`: a verdict adds to a deterministic check. */
  judge(setup: GenerateSetup): JudgeNeed;
  /** Why the category cannot run with this set-up (e.g. no product to order), or undefined. */
  unusable(setup: GenerateSetup): string | undefined;
  /** `n` attempts, drawn from `random` (same seed, same attempts). */
  generate(n: number, random: Random, setup: GenerateSetup): Attempt<Id>[];
  /** Pure: the attempt and its answers (and the verdict, if any) -> success and evidence. */
  oracle(input: OracleInput): OracleResult;
}
