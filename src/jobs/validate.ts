/**
 * `validateScenarios(paths)`: the library call behind `droidcheck validate`. Loads and checks
 * scenario suites without sending anything, so a CI step can reject a broken suite before it
 * starts a target.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { loadSuites, type Suite } from '../scenario/index.js';

export interface ValidateResult {
  suites: Suite[];
  /** Scenarios in all suites. */
  scenarios: number;
  /** Steps of the steps scenarios. */
  steps: number;
}

/** The paths (files or folders) under which none of `suites` has a scenario. */
export function pathsWithoutScenarios(paths: readonly string[], suites: readonly Suite[]): string[] {
  const files = suites.filter((s) => s.scenarios.length > 0).map((s) => resolve(s.file));
  return paths.filter((p) => {
    const root = resolve(p);
    return !files.some((f) => {
      const rel = relative(root, f);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    });
  });
}

/**
 * Loads the suites under `paths` (files or folders). Throws ScenarioError
 * (DROIDCHECK_ERR_SCENARIO, exit 2) with file:line:col for every problem, and UsageError
 * (DROIDCHECK_ERR_USAGE, exit 2) naming a path that holds no scenario: a folder of other YAML is
 * more likely a wrong path than an empty test plan.
 */
export async function validateScenarios(paths: readonly string[]): Promise<ValidateResult> {
  const suites = await loadSuites([...paths]);
  const empty = pathsWithoutScenarios(paths, suites);
  if (empty.length > 0) {
    throw new UsageError(
      `no scenario found in ${empty.join(', ')}: give a suite file or a directory holding *.yaml suites (a suite has a "scenarios:" list; droidcheck init writes one)`,
    );
  }
  const scenarios = suites.reduce((n, s) => n + s.scenarios.length, 0);
  const steps = suites.reduce((n, s) => n + s.scenarios.reduce((m, sc) => m + (sc.steps?.length ?? 0), 0), 0);
  return { suites, scenarios, steps };
}
