/**
 * The run plan: scenario x mode (DESIGN.md, runner/). `--mode` overrides the scenarios' own
 * modes; a scenario that names none runs in both.
 */
import type { AnswerMode, Scenario, Suite } from '../scenario/index.js';

export type ModeOverride = AnswerMode | 'both';

export interface PlannedRequest {
  seq: number;
  scenario: Scenario;
  mode: AnswerMode;
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
      for (const mode of modesFor(scenario, override)) {
        plan.push({ seq: plan.length, scenario, mode });
      }
    }
  }
  return plan;
}
