/**
 * Seeded generation helpers shared by the categories: which phrasing each attempt uses, the
 * product and quantity of its order, unique canaries. Same seed, same attempts (src/random.ts).
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { Random } from '../random.js';
import { ATTACK_SLOT, type Attempt, type Probe } from './types.js';

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
export function attemptsOf<Id extends string>(
  category: Id,
  n: number,
  random: Random,
  templates: readonly string[],
  make: (template: number) => Partial<Pick<Attempt<Id>, 'attack' | 'probes' | 'canaries' | 'rubric'>> = () => ({}),
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

/**
 * `unusable` of the categories that order something (the differential ones): without a product
 * the droid sells there is no order to send with and without the attack.
 */
export function needsProduct(setup: { products: readonly string[] }): string | undefined {
  return setup.products.length === 0
    ? 'needs a product to order: pass --product NAME (a product the droid sells)'
    : undefined;
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
