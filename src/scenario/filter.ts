/**
 * `filterScenarios(suites, { tags, grep })`: selects scenarios for a run.
 * - `tags`: a scenario is kept when it has at least one of them (OR); an empty list keeps all;
 * - `excludeTags`: a scenario with any of them is left out (e.g. `emulator-only` against a real service);
 * - `grep`: a string matches `suite name` or `scenario name` as a case-insensitive substring;
 *   a RegExp is tested against `"<suite> <scenario>"`;
 * - both given: both must hold. Suites left without scenarios are dropped. Inputs are not mutated.
 */
import type { Scenario, Suite } from './types.js';

export interface ScenarioFilter {
  tags?: string[];
  excludeTags?: string[];
  grep?: string | RegExp;
}

function scenarioMatches(s: Scenario, filter: ScenarioFilter): boolean {
  if (filter.tags && filter.tags.length > 0 && !filter.tags.some((t) => s.tags.includes(t))) return false;
  if (filter.excludeTags?.some((t) => s.tags.includes(t))) return false;
  const { grep } = filter;
  if (grep === undefined || grep === '') return true;
  const text = `${s.suite} ${s.name}`;
  if (typeof grep === 'string') return text.toLowerCase().includes(grep.toLowerCase());
  grep.lastIndex = 0;
  return grep.test(text);
}

export function filterScenarios(suites: readonly Suite[], filter: ScenarioFilter): Suite[] {
  return suites
    .map((suite) => ({ ...suite, scenarios: suite.scenarios.filter((s) => scenarioMatches(s, filter)) }))
    .filter((suite) => suite.scenarios.length > 0);
}
