/**
 * `droidcheck init [dir]`: writes a starter suite (scenarios/starter.yaml), the scenario JSON
 * Schema (droidcheck.schema.json) and .env.example (`initProject`). Existing files are kept
 * unless `--force`. A directory that cannot be created or written is a UsageError (exit 2).
 */
import type { Command } from 'commander';
import { pathError } from '../os-errors.js';
import { initProject } from '../scenario/index.js';
import { checkWritableDir } from './flag-values.js';
import type { CliContext } from './shared.js';

export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a starter suite, the scenario JSON Schema and .env.example')
    .argument('[dir]', 'project directory', '.')
    .option('-f, --force', 'overwrite existing files')
    .action(async (dir: string, flags: { force?: boolean }) => {
      // The user's directory meets the file system here: a file in the way or a read-only
      // folder is their mistake (exit 2), found before anything is written.
      await checkWritableDir(dir, 'init');
      const { written, skipped } = await initProject(dir, { force: flags.force === true }).catch((err: unknown) => {
        throw pathError(err, { flag: 'init', value: dir }, 'write');
      });
      for (const f of written) ctx.stdout.write(`wrote ${f}\n`);
      for (const f of skipped) ctx.stdout.write(`kept ${f} (exists; --force overwrites)\n`);
      ctx.stdout.write('next: droidcheck validate && droidcheck run\n');
    });
}
