/**
 * Seeded generation helpers shared by the categories: which phrasing each attempt uses, the
 * product and quantity of its order, unique canaries. Same seed, same attempts (src/random.ts).
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { Random } from '../random.js';
import {
  ATTACK_SLOT,
  type Attempt,
  type GenerateSetup,
  type JudgeNeed,
  type OracleInput,
  type OracleResult,
  type Probe,
  type RedteamCategory,
} from './types.js';

/** A uniform pick. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

/** An integer in [min, max]. */
export function between(random: Random, min: number, max: number): number {
  return min + Math.min(max - min, Math.floor(random() * (max - min + 1)));
}

/**
 * The phrasing of each of `n` attempts: every phrasing in turn from a random start, so that
 * `n >= templates` uses each one and a small `n` still varies with the seed.
 */
function templateOrder(random: Random, n: number, templates: number): number[] {
  const start = Math.floor(random() * templates);
  return Array.from({ length: n }, (_, i) => (start + i) % templates);
}

/**
 * A category's `n` attempts, one per phrasing of templateOrder, each with its `index` and
 * `template`. By default the phrasing is the attack line, sent alone as one single-turn attack
 * probe, with no canaries; `make(template)` gives what an attempt has otherwise (its own attack,
 * probes, canaries, rubric). `make` is called once per attempt, in order, after templateOrder's
 * draw, so the same seed gives the same attempts.
 */
function attemptsOf<Id extends string>(
  category: Id,
  n: number,
  random: Random,
  templates: readonly string[],
  make: (template: number) => AttemptParts<Id> = () => ({}),
): Attempt<Id>[] {
  return templateOrder(random, n, templates.length).map((template, index) => ({
    category,
    index,
    template,
    attack: templates[template]!,
    probes: [{ role: 'attack', turn: turn(ATTACK_SLOT) }],
    canaries: [],
    ...make(template),
  }));
}

const SYLLABLES = ['vex', 'quor', 'zel', 'mib', 'tharn', 'oska', 'prel', 'ulv', 'krin', 'dov', 'yaz', 'fenn'];

/** A made-up word no droid has seen ("Quorzelmib"): a canary's unique part. */
export function canaryWord(random: Random): string {
  const w = Array.from({ length: 3 }, () => pick(random, SYLLABLES)).join('');
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** What one attempt has besides its phrasing (attemptsOf's `make`). */
type AttemptParts<Id extends string> = Partial<Pick<Attempt<Id>, 'attack' | 'probes' | 'canaries' | 'rubric'>>;

/**
 * A category as its module writes it: {@link RedteamCategory} with its constant parts as data.
 * `judge`: a need, or the need for a set-up; `needs: 'product'`: the category orders something
 * (the differential ones), so without a product the droid sells there is no order to send with
 * and without the attack; `attempt(template, random, setup)`: what each attempt has besides its
 * phrasing, drawn in attempt order (default: the phrasing alone, one single-turn attack).
 */
export interface CategoryDefinition<Id extends string>
  extends Pick<
    RedteamCategory<Id>,
    'id' | 'description' | 'oracleDescription' | 'templates' | 'policyRules' | 'adaptive'
  > {
  judge: JudgeNeed | ((setup: GenerateSetup) => JudgeNeed);
  needs?: 'product';
  attempt?: (template: number, random: Random, setup: GenerateSetup) => AttemptParts<Id>;
  oracle(input: OracleInput): OracleResult;
}

const NO_PRODUCT =
  'needs a product to order: give the policy a catalogue (--policy, droidcheck.policy.yaml) or pass --product NAME (a product the droid sells)';

/** The category of a definition: its generation is attemptsOf over its templates. */
export function defineCategory<Id extends string>(def: CategoryDefinition<Id>): RedteamCategory<Id> {
  const { judge, needs, attempt, ...rest } = def;
  return {
    ...rest,
    judge: typeof judge === 'function' ? judge : () => judge,
    unusable: (setup) => (needs === 'product' && setup.products.length === 0 ? NO_PRODUCT : undefined),
    generate: (n, random, setup) =>
      attemptsOf(def.id, n, random, def.templates, attempt && ((template) => attempt(template, random, setup))),
  };
}

/** The order sentence both the baseline and the attack send, e.g. "I'll take 2 x Oxford shirt." */
export function orderLine(product: string, qty: number): string {
  return `I'll take ${qty} x ${product}.`;
}

/** An answer turn. */
export function turn(humanMessage: string, chatHistory: ChatHistoryItem[] = []): Probe['turn'] {
  return { chatHistory, humanMessage };
}

export const human = (content: string): ChatHistoryItem => ({ type: 'human', content });
export const ai = (content: string): ChatHistoryItem => ({ type: 'ai', content });

export { ATTACK_SLOT };
