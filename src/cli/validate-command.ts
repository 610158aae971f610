/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything
 * (thin wrapper over `loadSuites`). Every problem is a ScenarioError line `file:line:col:
 * message` (DROIDCHECK_ERR_SCENARIO, exit 2, printed by main); a path that holds no scenario
 * (an empty folder, a folder of other YAML) is a UsageError naming it (exit 2: a check that
 * checked nothing must not pass a CI gate);
 * success prints a count, exit 0.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, loadConfigFile } from '../config/index.js';
import { EXIT, formatLocation, UsageError } from '../errors.js';
import { resolveLlmConfig } from '../llm/index.js';
import { loadSuites, needsGrader, type Suite } from '../scenario/index.js';
import type { CliContext } from './shared.js';

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

interface ModelFlags {
  judgeModel?: string;
  embeddingModel?: string;
  config?: string;
}

/**
 * Warnings for `judge` and `similar` expectations that `run` could not grade as configured now
 * (no chat or embedding model in the flags or the config file's `judge:` section): validate
 * checks files, and the model may still come at run time, so these do not change the exit code;
 * `run` stops on them with exit 2 before sending anything. What the user did configure is checked
 * as `run` checks it: a model with no endpoint (OPENAI_BASE_URL / OPENAI_API_KEY) or a bad config
 * file is a ConfigError / UsageError (exit 2).
 */
async function graderWarnings(suites: readonly Suite[], env: NodeJS.ProcessEnv, flags: ModelFlags): Promise<string[]> {
  const judgeSection = (await loadConfigFile(flags.config ?? DEFAULT_CONFIG_FILE, flags.config !== undefined)).judge;
  const llm = resolveLlmConfig({ ...(flags.judgeModel !== undefined && { judgeModel: flags.judgeModel }), ...(flags.embeddingModel !== undefined && { embeddingModel: flags.embeddingModel }) }, env, judgeSection);
  const uses = needsGrader(suites);
  const out: string[] = [];
  const endpoint = 'with OPENAI_BASE_URL (a local model) or OPENAI_API_KEY (OpenAI); until then run stops with exit 2 (docs/llm.md)';
  const judges = uses.filter((u) => u.matcher === 'judge');
  if (judges.length > 0 && llm?.judgeModel === undefined) {
    out.push(`${formatLocation(judges[0]!.location)}: ${judges.length} "judge" expectation(s) need a chat model and none is configured: pass --judge-model (or judge.model in ${DEFAULT_CONFIG_FILE}) ${endpoint}`);
  }
  const similar = uses.filter((u) => u.matcher === 'similar');
  if (similar.length > 0 && llm?.embeddingModel === undefined) {
    out.push(`${formatLocation(similar[0]!.location)}: ${similar.length} "similar" expectation(s) need an embedding model and none is configured: pass --embedding-model (or judge.embeddingModel in ${DEFAULT_CONFIG_FILE}) ${endpoint}`);
  }
  return out;
}

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check scenario files (types, keys, regexes, variables, names) without running anything')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('--judge-model <model>', 'the chat model `judge` expectations will use (as for run)')
    .option('--embedding-model <model>', 'the embedding model `similar` expectations will use (as for run)')
    .option('--config <file>', `config file whose judge: section names the models (default ${DEFAULT_CONFIG_FILE})`)
    .action(async (paths: string[], flags: ModelFlags) => {
      const suites = await loadSuites(paths);
      const empty = pathsWithoutScenarios(paths, suites);
      if (empty.length > 0) {
        throw new UsageError(
          `no scenario found in ${empty.join(', ')}: give a suite file or a directory holding *.yaml suites (a suite has a "scenarios:" list; droidcheck init writes one)`,
        );
      }
      const scenarios = suites.reduce((n, s) => n + s.scenarios.length, 0);
      const steps = suites.reduce((n, s) => n + s.scenarios.reduce((m, sc) => m + (sc.steps?.length ?? 0), 0), 0);
      ctx.stdout.write(`ok: ${suites.length} suite(s), ${scenarios} scenario(s), ${steps} step(s)\n`);
      for (const line of await graderWarnings(suites, ctx.env, flags)) ctx.stderr.write(`droidcheck: warning: ${line}\n`);
      ctx.exitCode = EXIT.OK;
    });
}
