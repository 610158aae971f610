/**
 * `droidcheck coverage`'s configuration (docs/coverage.md), shaped from the values of the one
 * resolution (resolve.ts `resolveConfig('coverage', ...)`: its flags, the environment with `.env`
 * under it and the config file's top-level keys, through the table of options, options.ts): the
 * policy whose prices give the generated rows' totals (`--policy`, `policy:`; when neither names one, jobs/reports/coverage.ts
 * takes the report's own shop, then ./droidcheck.policy.yaml), and where the scenario table goes
 * (`--scenarios`).
 */
import type { TableFlags } from './flags.js';
import type { ResolvedOptions } from './values.js';

/** What the user gave `coverage` (the table's keys, config/options.ts). */
export type CoverageFlags = Pick<TableFlags, 'policy' | 'scenarios' | 'config'>;

export interface ResolvedCoverageConfig {
  /** The policy file named; undefined: the report's own shop, else ./droidcheck.policy.yaml. */
  policy: string | undefined;
  /** Where to write the scenario table; undefined: print the coverage only. */
  scenarios: string | undefined;
}

/** Coverage's shaping: the values as given (which policy prices the rows is the job's to decide). */
export function coverageConfig(o: ResolvedOptions): ResolvedCoverageConfig {
  const v = o.values;
  return { policy: v.policy, scenarios: v.scenarios };
}
