/**
 * `droidcheck init [dir]`: writes a starter suite (scenarios/starter.yaml), the scenario JSON
 * Schema (droidcheck.schema.json) and .env.example (`initProject`). Existing files are kept
 * unless `--force`.
 */
import type { Command } from 'commander';
import { initProject } from '../scenario/index.js';
import type { CliContext } from './shared.js';

export function registerInitCommand(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a starter suite, the scenario JSON Schema and .env.example')
    .argument('[dir]', 'project directory', '.')
    .option('-f, --force', 'overwrite existing files')
    .action(async (dir: string, flags: { force?: boolean }) => {
      const { written, skipped } = await initProject(dir, { force: flags.force === true });
      for (const f of written) ctx.stdout.write(`wrote ${f}\n`);
      for (const f of skipped) ctx.stdout.write(`kept ${f} (exists; --force overwrites)\n`);
      ctx.stdout.write('next: droidcheck validate && droidcheck run\n');
    });
}
