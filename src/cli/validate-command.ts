/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything
 * (thin wrapper over `loadSuites`). Every problem is a ScenarioError line `file:line:col:
 * message` (DROIDCHECK_ERR_SCENARIO, exit 2, printed by main); a path that holds no scenario
 * (an empty folder, a folder of other YAML) is a UsageError naming it (exit 2, issue 11 item 4);
 * success prints a count, exit 0.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../errors.js';
import { loadSuites, type Suite } from '../scenario/index.js';
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

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check scenario files (types, keys, regexes, variables, names) without running anything')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .action(async (paths: string[]) => {
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
      ctx.exitCode = EXIT.OK;
    });
}
