/**
 * Request sources of the engine (docs/architecture.md, Layout: runner/): what to send next.
 * - `PlanSource`: a plan (scenario x mode x repeat) in chains (plan.ts): each `take()` is one
 *   chain that one worker runs back to back; what was never taken becomes `not-sent` records
 *   at an interrupt, so the outcomes add up to the requests planned.
 * - `MixSource`: a weighted, seeded mix (mix.ts): each `take()` is one draw; unbounded, so the
 *   scheduler bounds it (duration, arrivals, `--max-requests`). State isolation holds under load
 *   too: a stateful scenario (plan.ts, state lanes) runs at most once at a time per lane; a draw
 *   that finds its lane busy is drawn again (up to 16 times, so the sequence is reproducible from
 *   the seed only while no lane is busy), and when every draw is busy `take()` returns `[]`:
 *   the closed model waits for a release, the open model counts the arrival as dropped.
 */
import type { Scenario, Suite } from '../scenario/index.js';
import { createMix, type MixOptions, type ScenarioMix } from './mix.js';
import { chainPlan, planRequests, stateLanes, type ModeOverride } from './plan.js';
import type { PlannedRequest } from './types.js';

export interface RequestSource {
  readonly kind: 'plan' | 'mix';
  /** Requests planned (plan); undefined for a mix. */
  readonly planned: number | undefined;
  /** The next chain (plan) or draw (mix, one request; `[]`: none free now); undefined when the plan is exhausted. */
  take(): PlannedRequest[] | undefined;
  /** A request taken earlier ended (frees its state lane). */
  release(planned: PlannedRequest): void;
  /** Hands back requests of a chain that were not sent (stop in the middle of a chain). */
  giveBack(rest: readonly PlannedRequest[]): void;
  /** Requests planned and never sent (after the run), in plan order. */
  unsent(): PlannedRequest[];
  /** True when some request may be async (a receiver is needed). */
  hasAsync(): boolean;
}

export class PlanSource implements RequestSource {
  readonly kind = 'plan' as const;
  readonly planned: number;
  readonly #chains: PlannedRequest[][];
  readonly #returned: PlannedRequest[] = [];
  readonly #async: boolean;
  #next = 0;

  constructor(plan: readonly PlannedRequest[]) {
    this.planned = plan.length;
    this.#chains = chainPlan(plan);
    this.#async = plan.some((p) => p.mode === 'async');
  }

  /** The plan of `suites` (`--mode` override applied). */
  static of(suites: readonly Suite[], mode?: ModeOverride): PlanSource {
    return new PlanSource(planRequests(suites, mode));
  }

  take(): PlannedRequest[] | undefined {
    return this.#chains[this.#next++];
  }

  release(): void {}

  giveBack(rest: readonly PlannedRequest[]): void {
    this.#returned.push(...rest);
  }

  unsent(): PlannedRequest[] {
    const rest = [...this.#returned, ...this.#chains.slice(this.#next).flat()];
    this.#next = this.#chains.length;
    this.#returned.length = 0;
    return rest.sort((a, b) => a.seq - b.seq);
  }

  hasAsync(): boolean {
    return this.#async;
  }
}

/** Draws of one take() before giving up on busy state lanes. */
const REDRAWS = 16;

export class MixSource implements RequestSource {
  readonly kind = 'mix' as const;
  readonly planned = undefined;
  readonly mix: ScenarioMix;
  readonly #lanes: Map<Scenario, string | undefined>;
  readonly #busy = new Set<string>();
  #seq = 0;

  constructor(mix: ScenarioMix) {
    this.mix = mix;
    this.#lanes = stateLanes(mix.entries.map((e) => e.scenario));
  }

  /** The mix of `suites` (weights, seed, `--mode`): mix.ts. Throws UsageError for a bad weight. */
  static of(suites: readonly Suite[], options: MixOptions): MixSource {
    return new MixSource(createMix(suites, options));
  }

  take(): PlannedRequest[] {
    for (let i = 0; i < REDRAWS; i++) {
      const p = this.mix.pick(this.#seq);
      const lane = this.#lanes.get(p.scenario);
      if (lane !== undefined) {
        if (this.#busy.has(lane)) continue;
        this.#busy.add(lane);
      }
      this.#seq += 1;
      return [p];
    }
    return [];
  }

  release(planned: PlannedRequest): void {
    const lane = this.#lanes.get(planned.scenario);
    if (lane !== undefined) this.#busy.delete(lane);
  }

  giveBack(): void {}

  unsent(): PlannedRequest[] {
    return [];
  }

  hasAsync(): boolean {
    return this.mix.hasAsync();
  }
}
