/**
 * The run plan: scenario x mode x repeat (DESIGN.md, runner/). `--mode` overrides the
 * scenarios' own modes; a scenario that names none runs in both. A scenario whose steps hold
 * no `say` (only endpoint calls) does not depend on the mode and runs in its first mode only.
 * `repeat` (0-based) counts up to the scenario's `repeat` (default 1 run).
 */
import type { AnswerMode, Scenario, Suite } from '../scenario/index.js';

export type ModeOverride = AnswerMode | 'both';

export interface PlannedRequest {
  seq: number;
  scenario: Scenario;
  mode: AnswerMode;
  /** 0-based repeat index (scenario `repeat: N` plans N of each mode); absent => 0. */
  repeat?: number;
}

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
      const modes = scenario.steps && !scenario.steps.some((s) => s.kind === 'say') ? all.slice(0, 1) : all;
      const runs = Math.max(1, scenario.repeat ?? 1);
      for (const mode of modes) {
        for (let repeat = 0; repeat < runs; repeat++) plan.push({ seq: plan.length, scenario, mode, repeat });
      }
    }
  }
  return plan;
}
