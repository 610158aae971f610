/**
 * `droidcheck validate [paths...]`: loads and checks scenario files without sending anything,
 * then refuses what `run` would refuse before its first request (thin wrapper over
 * `validateScenarios`, src/jobs/suites/validate.ts, exported from the package). It reads the config
 * file, `.env` and the environment as run does. Every problem of a suite is a ScenarioError
 * line `file:line:col: message` (DROIDCHECK_ERR_SCENARIO), of the config file a ConfigFileError
 * (DROIDCHECK_ERR_CONFIG_FILE); a path that holds no scenario (an empty folder, a folder of other
 * YAML) is a UsageError naming it (a check that checked nothing must not pass a CI gate); a model
 * `judge`, `similar` or `simulate:` needs and nothing names is run's ConfigError: all exit 2,
 * printed by main. A model only the endpoint can name is a warning on stderr; success prints a
 * count, exit 0.
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, withDotenv } from '../config/index.js';
import { EXIT } from '../errors.js';
import { validateScenarios, type ValidateOptions } from '../jobs/suites/validate.js';
import type { CliContext } from './shared.js';

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description(
      'check scenario files (types, keys, regexes, variables, names) and refuse what run would refuse before sending, without sending anything',
    )
    .argument('[paths...]', 'scenario files or directories (default: the paths of the config file, else scenarios)')
    .option('--judge-model <model>', 'the chat model `judge` expectations will use (as for run)')
    .option('--simulator-model <model>', 'the chat model playing the customer of `simulate:` scenarios (as for run)')
    .option('--embedding-model <model>', 'the embedding model `similar` expectations will use (as for run)')
    .option('--config <file>', `config file, read as run reads it (default ${DEFAULT_CONFIG_FILE} when present)`)
    .action(async (paths: string[], flags: Omit<ValidateOptions, 'env'>) => {
      const { suites, scenarios, steps, warnings } = await validateScenarios(paths, {
        ...flags,
        env: withDotenv(ctx.env),
      });
      ctx.stdout.write(`ok: ${suites.length} suite(s), ${scenarios} scenario(s), ${steps} step(s)\n`);
      for (const line of warnings) ctx.stderr.write(`droidcheck: warning: ${line}\n`);
      ctx.exitCode = EXIT.OK;
    });
}
