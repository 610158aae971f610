/**
 * Scenario mix of a load run: each scenario x mode is an entry with a weight; `pick(seq)`
 * draws one with a seeded PRNG (mulberry32), so a run's sequence of requests is reproducible
 * from its seed. Modes follow the run's plan (`modesFor`: `--mode` overrides the scenario's; a
 * scenario whose steps hold no `say` runs in its first mode only). Scenarios with `steps` are in
 * the mix like any other: under load, draws of the same scenario may overlap, so their steps may
 * see each other's state (a customer's bot switch, its messages); see the README, Load.
 */
import { mulberry32 } from '../random.js';
import { UsageError } from '../errors.js';
import { isAnswerStep, type AnswerMode, type Scenario, type Suite } from '../scenario/index.js';
import { modesFor, type ModeOverride } from './plan.js';
import type { PlannedRequest } from './types.js';

export interface MixEntry {
  scenario: Scenario;
  mode: AnswerMode;
  /** Relative weight (> 0). */
  weight: number;
}

export interface MixOptions {
  mode?: ModeOverride | undefined;
  /**
   * Weights by scenario: key `name`, `suite/name` or `name:mode` / `suite/name:mode`; the most
   * specific key wins. Default 1 (or the scenario's own `weight` field when it has one).
   */
  weights?: Readonly<Record<string, number>>;
  /** PRNG seed; default 1. */
  seed?: number;
}

function weightOf(scenario: Scenario, mode: AnswerMode, weights: Readonly<Record<string, number>>): number {
  const full = `${scenario.suite}/${scenario.name}`;
  for (const key of [`${full}:${mode}`, `${scenario.name}:${mode}`, full, scenario.name]) {
    const w = weights[key];
    if (w !== undefined) return w;
  }
  const own = (scenario as { weight?: unknown }).weight;
  return typeof own === 'number' ? own : 1;
}

/** Parses repeatable `--weight <key>=<n>` flags into a weights table. Throws UsageError. */
export function parseWeights(items: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const eq = item.lastIndexOf('=');
    const key = item.slice(0, eq).trim();
    const w = Number(item.slice(eq + 1));
    if (eq <= 0 || key === '' || !Number.isFinite(w) || w < 0) {
      throw new UsageError(
        `--weight: "${item}" must be <scenario>=<weight >= 0>, e.g. "greeting=3" or "shop/order:async=2"`,
      );
    }
    out[key] = w;
  }
  return out;
}

/** Weighted picking over scenario x mode entries, O(log n) per pick, no allocation but the PlannedRequest. */
export class ScenarioMix {
  readonly entries: readonly MixEntry[];
  readonly #cumulative: Float64Array;
  readonly #total: number;
  readonly #random: () => number;

  constructor(entries: readonly MixEntry[], seed = 1) {
    const live = entries.filter((e) => e.weight > 0);
    if (live.length === 0)
      throw new UsageError(
        'the load mix is empty: no scenario has a weight > 0 (check --weight and the scenario paths)',
      );
    this.entries = live;
    this.#cumulative = new Float64Array(live.length);
    let sum = 0;
    live.forEach((e, i) => {
      sum += e.weight;
      this.#cumulative[i] = sum;
    });
    this.#total = sum;
    this.#random = mulberry32(seed);
  }

  /** Draws the entry for request `seq`. */
  pick(seq: number): PlannedRequest {
    const x = this.#random() * this.#total;
    const c = this.#cumulative;
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (x < c[mid]!) hi = mid;
      else lo = mid + 1;
    }
    const e = this.entries[lo]!;
    return { seq, scenario: e.scenario, mode: e.mode };
  }

  /** Expected share (0..1) of each entry, in `entries` order. */
  shares(): number[] {
    return this.entries.map((e) => e.weight / this.#total);
  }

  /**
   * Expected share (0..1) of the draws that send at least one async answer turn (async entries
   * whose scenario asks something: a `humanMessage`, or steps with a `say`): each gives an ack
   * and, unless `--ack-only`, an answer.
   */
  asyncAnswerShare(): number {
    const shares = this.shares();
    return this.entries.reduce(
      (sum, e, i) =>
        e.mode === 'async' && (!e.scenario.steps || e.scenario.steps.some((s) => s.kind === 'say'))
          ? sum + shares[i]!
          : sum,
      0,
    );
  }

  /** True when some entry is async (a receiver is needed). */
  hasAsync(): boolean {
    return this.entries.some((e) => e.mode === 'async');
  }
}

/**
 * Builds the mix of `suites`: every scenario x mode with its weight. Throws UsageError
 * (DROIDCHECK_ERR_USAGE) when a weight names no scenario or every weight is 0.
 */
export function createMix(suites: readonly Suite[], options: MixOptions = {}): ScenarioMix {
  const weights = options.weights ?? {};
  const entries: MixEntry[] = [];
  const known = new Set<string>();
  for (const suite of suites) {
    for (const scenario of suite.scenarios) {
      known.add(scenario.name).add(`${scenario.suite}/${scenario.name}`);
      const all = modesFor(scenario, options.mode);
      const modes = scenario.steps && !scenario.steps.some(isAnswerStep) ? all.slice(0, 1) : all;
      for (const mode of modes) {
        known.add(`${scenario.name}:${mode}`).add(`${scenario.suite}/${scenario.name}:${mode}`);
        entries.push({ scenario, mode, weight: weightOf(scenario, mode, weights) });
      }
    }
  }
  for (const key of Object.keys(weights)) {
    if (!known.has(key))
      throw new UsageError(`--weight: "${key}" names no scenario of this run (use the name, suite/name, or name:mode)`);
  }
  return new ScenarioMix(entries, options.seed ?? 1);
}
