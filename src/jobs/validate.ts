/**
 * `validateScenarios(paths)`: the library call behind `droidcheck validate`. Loads and checks
 * scenario suites without sending anything, so a CI step can reject a broken suite before it
 * starts a target.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfigFile } from '../config/index.js';
import { formatLocation, UsageError } from '../errors.js';
import { resolveLlmConfig } from '../llm/index.js';
import { loadSuites, needsGrader, type Suite } from '../scenario/index.js';

export interface ValidateResult {
  suites: Suite[];
  /** Scenarios in all suites. */
  scenarios: number;
  /** Steps of the steps scenarios. */
  steps: number;
  /** `file:line:col: ...` for graded expectations no configured model could grade (validate warns; run would exit 2). */
  warnings: string[];
}

/** The models graded expectations will use, as `run` takes them (flags over the config file's `judge:` section). */
export interface ValidateOptions {
  judgeModel?: string;
  embeddingModel?: string;
  /** Config file path; default ./droidcheck.config.yaml when present. */
  config?: string;
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

/**
 * Loads the suites under `paths` (files or folders). Throws ScenarioError
 * (DROIDCHECK_ERR_SCENARIO, exit 2) with file:line:col for every problem, and UsageError
 * (DROIDCHECK_ERR_USAGE, exit 2) naming a path that holds no scenario: a folder of other YAML is
 * more likely a wrong path than an empty test plan.
 */
export async function validateScenarios(
  paths: readonly string[],
  options: ValidateOptions = {},
): Promise<ValidateResult> {
  const suites = await loadSuites([...paths]);
  const empty = pathsWithoutScenarios(paths, suites);
  if (empty.length > 0) {
    throw new UsageError(
      `no scenario found in ${empty.join(', ')}: give a suite file or a directory holding *.yaml suites (a suite has a "scenarios:" list; droidcheck init writes one)`,
    );
  }
  const scenarios = suites.reduce((n, s) => n + s.scenarios.length, 0);
  const steps = suites.reduce((n, s) => n + s.scenarios.reduce((m, sc) => m + (sc.steps?.length ?? 0), 0), 0);
  return { suites, scenarios, steps, warnings: await graderWarnings(suites, options) };
}

/**
 * Warnings for `judge` and `similar` expectations that `run` could not grade as configured now
 * (no chat or embedding model in the options or the config file's `judge:` section): validate
 * checks files, and the model may still come at run time, so these do not change the exit code;
 * `run` stops on them with exit 2 before sending anything. What the user did configure is checked
 * as `run` checks it: a model with no endpoint (OPENAI_BASE_URL / OPENAI_API_KEY) or a bad config
 * file is a ConfigError / UsageError (exit 2).
 */
async function graderWarnings(suites: readonly Suite[], flags: ValidateOptions): Promise<string[]> {
  const judgeSection = (await loadConfigFile(flags.config ?? DEFAULT_CONFIG_FILE, flags.config !== undefined)).judge;
  const llm = resolveLlmConfig(
    {
      ...(flags.judgeModel !== undefined && { judgeModel: flags.judgeModel }),
      ...(flags.embeddingModel !== undefined && { embeddingModel: flags.embeddingModel }),
    },
    flags.env ?? process.env,
    judgeSection,
  );
  const uses = needsGrader(suites);
  const out: string[] = [];
  const endpoint =
    'with OPENAI_BASE_URL (a local model) or OPENAI_API_KEY (OpenAI); until then run stops with exit 2 (docs/llm.md)';
  const judges = uses.filter((u) => u.matcher === 'judge');
  if (judges.length > 0 && llm?.judgeModel === undefined) {
    out.push(
      `${formatLocation(judges[0]!.location)}: ${judges.length} "judge" expectation(s) need a chat model and none is configured: pass --judge-model (or judge.model in ${DEFAULT_CONFIG_FILE}) ${endpoint}`,
    );
  }
  const similar = uses.filter((u) => u.matcher === 'similar');
  if (similar.length > 0 && llm?.embeddingModel === undefined) {
    out.push(
      `${formatLocation(similar[0]!.location)}: ${similar.length} "similar" expectation(s) need an embedding model and none is configured: pass --embedding-model (or judge.embeddingModel in ${DEFAULT_CONFIG_FILE}) ${endpoint}`,
    );
  }
  return out;
}
