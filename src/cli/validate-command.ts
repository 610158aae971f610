/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything
 * (thin wrapper over `validateScenarios`, src/jobs/validate.ts, exported from the package).
 * Every problem is a ScenarioError line `file:line:col: message` (DROIDCHECK_ERR_SCENARIO,
 * exit 2, printed by main); a path that holds no scenario (an empty folder, a folder of other
 * YAML) is a UsageError naming it (exit 2): a CI step that validates nothing must not pass;
 * success prints a count, exit 0.
 */
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { validateScenarios } from '../jobs/validate.js';
import type { CliContext } from './shared.js';


export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check scenario files (types, keys, regexes, variables, names) without running anything')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .action(async (paths: string[]) => {
      const { suites, scenarios, steps } = await validateScenarios(paths);
      ctx.stdout.write(`ok: ${suites.length} suite(s), ${scenarios} scenario(s), ${steps} step(s)\n`);
      ctx.exitCode = EXIT.OK;
    });
}
