/**
 * `droidcheck init [dir]`: writes a portable starter suite (scenarios/starter.yaml), the demo
 * shop the embedded emulator answers from (scenarios/emulator-profile.yaml, a copy of the one
 * shipped with droidcheck, so its catalogue, prices and intents are in sight), the scenario JSON
 * Schema (droidcheck.schema.json), .env.example, droidcheck.config.yaml and its JSON Schema
 * (droidcheck.config.schema.json, from the table of options), and the demo shop as a shop
 * policy (droidcheck.policy.yaml, from the same profile's catalogue and intent names, with its
 * JSON Schema), so that `droidcheck run` checks every answer against it and its report's coverage
 * names the products and intents the suites never reached (`initProject`).
 * Existing files are kept unless `--force`. A directory that cannot be created or written is a
 * UsageError (exit 2).
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { configJsonSchema } from '../config/index.js';
import { DEFAULT_PROFILE_PATH, parseProfile } from '../emulator/profile/load.js';
import { pathError } from '../os-errors.js';
import { demoShopPolicy, policyJsonSchema } from '../policy/index.js';
import { initProject } from '../scenario/index.js';
import { checkWritableDir } from './flag-values.js';
import type { CliContext } from './shared.js';

export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description(
      "write a portable starter suite, the emulator's demo profile and its shop policy, the config file, the JSON Schemas and .env.example",
    )
    .argument('[dir]', 'project directory', '.')
    .option('-f, --force', 'overwrite existing files')
    .action(async (dir: string, flags: { force?: boolean }) => {
      // The user's directory meets the file system here: a file in the way or a read-only
      // folder is their mistake (exit 2), found before anything is written.
      await checkWritableDir(dir, 'init');
      const emulatorProfile = await readFile(DEFAULT_PROFILE_PATH, 'utf8');
      const { catalogue, intents } = parseProfile(emulatorProfile, DEFAULT_PROFILE_PATH);
      const { written, skipped } = await initProject(dir, {
        force: flags.force === true,
        emulatorProfile,
        configSchema: configJsonSchema(),
        policy: demoShopPolicy(catalogue, { intents: intents.map((i) => i.name) }),
        policySchema: policyJsonSchema(),
      }).catch((err: unknown) => {
        throw pathError(err, { flag: 'init', value: dir }, 'write');
      });
      for (const f of written) ctx.stdout.write(`wrote ${f}\n`);
      for (const f of skipped) ctx.stdout.write(`kept ${f} (exists; --force overwrites)\n`);
      ctx.stdout.write(
        'next: droidcheck validate && droidcheck run   (the embedded emulator; against your service: README, "Pointing it at the real service")\n',
      );
    });
}
