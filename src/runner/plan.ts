/**
 * The plan of a run: scenario x mode x repeat (docs/architecture.md, Layout: runner/), and the
 * request source built on it. `--mode` overrides the scenarios' own modes; a scenario that names
 * none runs in both. A scenario whose steps hold no `say` (only endpoint calls) does not depend on
 * the mode and runs in its first mode only. `repeat` (0-based) counts up to the scenario's
 * `repeat`.
 *
 * State isolation (so scenarios cannot pass or fail by each other's doing): a scenario with `steps`
 * acts on customers (setBot, send, ...), so its sync and async runs and its repeats, and every
 * other such scenario naming one of the same customers, form one *chain* that a single worker runs
 * in plan order: they never run at the same time against the same state. Plain scenarios (one
 * answer turn: the history travels in the request) are independent requests.
 */
import type { AnswerMode, Scenario, Suite } from '../scenario/index.js';
import { isAnswerStep, renderTemplate } from '../scenario/index.js';
import type { PlannedRequest } from './types.js';

export type ModeOverride = AnswerMode | 'both';

export function modesFor(scenario: Scenario, override: ModeOverride | undefined): AnswerMode[] {
  if (override === 'both') return ['sync', 'async'];
  if (override) return [override];
  return scenario.modes && scenario.modes.length > 0 ? scenario.modes : ['sync', 'async'];
}

/** Flattens suites into the ordered list of requests to send. */
export function planRequests(suites: readonly Suite[], override?: ModeOverride): PlannedRequest[] {
  const plan: PlannedRequest[] = [];
  for (const suite of suites) {
    for (const scenario of suite.scenarios) {
      const all = modesFor(scenario, override);
      const modes = scenario.steps && !scenario.steps.some(isAnswerStep) ? all.slice(0, 1) : all;
      const runs = Math.max(1, scenario.repeat ?? 1);
      for (const mode of modes) {
        for (let repeat = 0; repeat < runs; repeat++) plan.push({ seq: plan.length, scenario, mode, repeat });
      }
    }
  }
  return plan;
}

/**
 * The state a scenario acts on: `customer:<id>` for every customer its call steps name (with
 * the scenario's initial `vars` rendered), `customer:?` when an id is only known at run time.
 * Empty for a plain scenario.
 */
export function stateKeys(scenario: Scenario): string[] {
  const keys = new Set<string>();
  for (const step of scenario.steps ?? []) {
    if (step.kind !== 'call' || step.customerId === undefined) continue;
    const id =
      typeof step.customerId === 'string'
        ? renderTemplate(step.customerId, { ...(scenario.vars ?? {}) })
        : step.customerId;
    keys.add(typeof id === 'string' && id.includes('{{') ? 'customer:?' : `customer:${String(id)}`);
  }
  return [...keys];
}

/**
 * The state lane of each scenario: scenarios that share a state key (directly or through
 * others) share a lane; a scenario with no state key has none (undefined).
 */
export function stateLanes(scenarios: Iterable<Scenario>): Map<Scenario, string | undefined> {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(k, root);
    return root;
  };
  const keysOf = new Map<Scenario, string[]>();
  for (const sc of scenarios) {
    if (keysOf.has(sc)) continue;
    const keys = stateKeys(sc);
    keysOf.set(sc, keys);
    for (const k of keys) if (!parent.has(k)) parent.set(k, k);
    for (let i = 1; i < keys.length; i++) parent.set(find(keys[i]!), find(keys[0]!));
  }
  const lanes = new Map<Scenario, string | undefined>();
  for (const [sc, keys] of keysOf) lanes.set(sc, keys.length === 0 ? undefined : find(keys[0]!));
  return lanes;
}

/**
 * Groups the plan into chains (see the module docs): requests of scenarios that share a state
 * lane are one chain, in plan order; every other request is a chain of its own. Chains are
 * ordered by their first request.
 */
export function chainPlan(plan: readonly PlannedRequest[]): PlannedRequest[][] {
  const lanes = stateLanes(plan.map((p) => p.scenario));
  const chains: PlannedRequest[][] = [];
  const byLane = new Map<string, PlannedRequest[]>();
  for (const p of plan) {
    const lane = lanes.get(p.scenario);
    if (lane === undefined) {
      chains.push([p]);
      continue;
    }
    let chain = byLane.get(lane);
    if (!chain) {
      chain = [];
      byLane.set(lane, chain);
      chains.push(chain);
    }
    chain.push(p);
  }
  return chains;
}
