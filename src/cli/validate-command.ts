/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything
 * (thin wrapper over `validateScenarios`, src/jobs/validate.ts, exported from the package).
 * Every problem is a ScenarioError line `file:line:col: message` (DROIDCHECK_ERR_SCENARIO,
 * exit 2, printed by main); a path that holds no scenario (an empty folder, a folder of other
 * YAML) is a UsageError naming it (exit 2: a check that checked nothing must not pass a CI gate);
 * graded expectations no configured model could grade are warnings on stderr; success prints a
 * count, exit 0.
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE } from '../config/index.js';
import { EXIT } from '../errors.js';
import { validateScenarios, type ValidateOptions } from '../jobs/validate.js';
import type { CliContext } from './shared.js';

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check scenario files (types, keys, regexes, variables, names) without running anything')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('--judge-model <model>', 'the chat model `judge` expectations will use (as for run)')
    .option('--embedding-model <model>', 'the embedding model `similar` expectations will use (as for run)')
    .option('--config <file>', `config file whose judge: section names the models (default ${DEFAULT_CONFIG_FILE})`)
    .action(async (paths: string[], flags: Omit<ValidateOptions, 'env'>) => {
      const { suites, scenarios, steps, warnings } = await validateScenarios(paths, { ...flags, env: ctx.env });
      ctx.stdout.write(`ok: ${suites.length} suite(s), ${scenarios} scenario(s), ${steps} step(s)\n`);
      for (const line of warnings) ctx.stderr.write(`droidcheck: warning: ${line}\n`);
      ctx.exitCode = EXIT.OK;
    });
}
