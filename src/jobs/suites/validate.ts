/**
 * `validateScenarios(paths)`: the library call behind `droidcheck validate`. Loads and checks
 * scenario suites without sending anything, so a CI step can reject a broken suite before it
 * starts a target; then refuses what `run` would refuse before its first request, with the same
 * words: the configuration read as run reads it (the config file, the environment, the models
 * given here) and the suites checked by the pipeline's own pre-send function (pre-send.ts), so
 * validate's `ok` means run would start.
 *
 * What only the network can tell stays run's: the target's preflight, and which model an
 * endpoint serves when none is named (a warning here). So do the files run reads or writes
 * itself: the `--baseline` report (often fetched after validate in CI) and the report folder.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, fileFlags, loadConfigFile, resolveConfig, type JobFlags } from '../../config/index.js';
import { formatLocation, UsageError } from '../../errors.js';
import type { GraderUse } from '../../llm/index.js';
import { loadPolicy } from '../../policy/index.js';
import { loadSuites, type Suite } from '../../scenario/index.js';
import { checkBeforeSending } from '../pipeline/pre-send.js';
import { runSpec } from '../run/run.js';
import { selectSuites } from '../pipeline/select.js';

export interface ValidateResult {
  /** Every suite loaded from the paths. */
  suites: Suite[];
  /** Scenarios in all suites. */
  scenarios: number;
  /** Steps of the steps scenarios. */
  steps: number;
  /**
   * `file:line:col: ...` for graded expectations whose model nobody named: run asks the
   * endpoint which one it serves (llm/discover.ts), validate sends nothing.
   */
  warnings: string[];
}

/** What `run` would take from its flags: the models (over the config file's `judge:` section) and the config file. */
export interface ValidateOptions {
  judgeModel?: string;
  simulatorModel?: string;
  embeddingModel?: string;
  /** Config file path; default ./droidcheck.config.yaml when present. */
  config?: string;
  /** The environment run would read (the CLI puts `.env` under it); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The paths (files or folders) under which none of `suites` has a scenario. */
function pathsWithoutScenarios(paths: readonly string[], suites: readonly Suite[]): string[] {
  const files = suites.filter((s) => s.scenarios.length > 0).map((s) => resolve(s.file));
  return paths.filter((p) => {
    const root = resolve(p);
    return !files.some((f) => {
      const rel = relative(root, f);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    });
  });
}

/** One warning per matcher whose model run will ask the endpoint for. */
function deferredWarnings(deferred: readonly GraderUse[], baseUrl: string | undefined): string[] {
  return ['judge', 'similar'].flatMap((matcher) => {
    const uses = deferred.filter((u) => u.matcher === matcher);
    if (uses.length === 0) return [];
    const kind = matcher === 'judge' ? 'chat' : 'embedding';
    return [
      `${formatLocation(uses[0]!.location)}: ${uses.length} "${matcher}" expectation(s) name no ${kind} model: run asks ${baseUrl}/models for the one it serves, and stops (exit 2) unless it serves exactly one; validate sends nothing`,
    ];
  });
}

/**
 * Loads the suites under `paths` (files or folders; none: the config file's `paths`, else
 * `scenarios`) and checks them as `run` would before sending. Throws ScenarioError
 * (DROIDCHECK_ERR_SCENARIO, exit 2) with file:line:col for every problem of the suites;
 * ConfigFileError (DROIDCHECK_ERR_CONFIG_FILE) for every problem of the config file;
 * PolicyError (DROIDCHECK_ERR_POLICY) for every problem of the shop policy file run would read;
 * UsageError (DROIDCHECK_ERR_USAGE) naming a path that holds no scenario (a folder of other
 * YAML is more likely a wrong path than an empty test plan); and what run's resolution and
 * pre-send check throw (ConfigError, ThresholdError, UsageError; exit 2).
 */
export async function validateScenarios(
  paths: readonly string[],
  options: ValidateOptions = {},
): Promise<ValidateResult> {
  const file = await loadConfigFile(options.config ?? DEFAULT_CONFIG_FILE, options.config !== undefined);
  const flags: JobFlags = {
    ...(paths.length > 0 && { paths: [...paths] }),
    ...(options.judgeModel !== undefined && { judgeModel: options.judgeModel }),
    ...(options.simulatorModel !== undefined && { simulatorModel: options.simulatorModel }),
    ...(options.embeddingModel !== undefined && { embeddingModel: options.embeddingModel }),
  };
  const config = resolveConfig('run', flags, options.env ?? process.env, fileFlags(file, 'run'));
  const suites = await loadSuites(config.paths);
  const empty = pathsWithoutScenarios(config.paths, suites);
  if (empty.length > 0) {
    throw new UsageError(
      `no scenario found in ${empty.join(', ')}: give a suite file or a directory holding *.yaml suites (a suite has a "scenarios:" list; droidcheck init writes one)`,
    );
  }
  // The scenarios run would run (the config's tags, grep and shard), checked as run checks them.
  const spec = runSpec(config);
  const { deferred } = await checkBeforeSending(config, await selectSuites(config, spec.reads, suites), spec);
  // The shop policy run would read (the config file's `policy:`, else ./droidcheck.policy.yaml).
  if (config.policy !== undefined) loadPolicy(config.policy);
  const scenarios = suites.reduce((n, s) => n + s.scenarios.length, 0);
  const steps = suites.reduce((n, s) => n + s.scenarios.reduce((m, sc) => m + (sc.steps?.length ?? 0), 0), 0);
  return { suites, scenarios, steps, warnings: deferredWarnings(deferred, config.llm?.baseUrl) };
}
