/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything
 * (thin wrapper over `loadSuites`). Every problem is a ScenarioError line `file:line:col:
 * message` (DROIDCHECK_ERR_SCENARIO, exit 2, printed by main); success prints a count, exit 0.
 */
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { loadSuites } from '../scenario/index.js';
import type { CliContext } from './shared.js';

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check scenario files (types, keys, regexes, variables, names) without running anything')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .action(async (paths: string[]) => {
      const suites = await loadSuites(paths);
      const scenarios = suites.reduce((n, s) => n + s.scenarios.length, 0);
      const steps = suites.reduce((n, s) => n + s.scenarios.reduce((m, sc) => m + (sc.steps?.length ?? 0), 0), 0);
      ctx.stdout.write(`ok: ${suites.length} suite(s), ${scenarios} scenario(s), ${steps} step(s)\n`);
      ctx.exitCode = EXIT.OK;
    });
}
