/**
 * `droidcheck import --customer ID... --out FILE`: real conversations -> a regression suite
 * (thin wrapper over `importConversations`, src/jobs/import/conversations.ts, exported from the
 * package). Target: `--base-url`/`--droid-id` (env DROID_BASE_URL, DROID_ID) with
 * DROID_API_TOKEN from the environment, else the embedded emulator's seeded customers. Mistakes
 * are UsageError/ConfigError (exit 2).
 */
import type { Command } from 'commander';
import { EXIT, UsageError } from '../errors.js';
import { importConversations } from '../jobs/import/conversations.js';
import { checkWritableFile } from './flag-values.js';
import type { CliContext } from './shared.js';

interface ImportCommandFlags {
  customer: string[];
  out: string;
  baseUrl?: string;
  droidId?: string;
  turns: string;
  threshold: string;
  suite?: string;
  force?: boolean;
  table?: boolean;
}

export function registerImportCommand(program: Command, ctx: CliContext): void {
  program
    .command('import')
    .description('turn real conversations into regression scenarios (a similar expectation per recorded AI answer)')
    .requiredOption(
      '--customer <id>',
      'customer whose conversation to import, repeatable',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .requiredOption('--out <file>', 'the suite file to write, e.g. scenarios/imported.yaml')
    .option(
      '--base-url <url>',
      'real service base URL (env DROID_BASE_URL); token from DROID_API_TOKEN; default: the embedded emulator',
    )
    .option('--droid-id <id>', 'droid id of the real service (env DROID_ID)')
    .option(
      '--turns <which>',
      "all: every AI turn; last: only the last of each conversation; conversation: each conversation as one steps scenario, the customer's real pauses as think",
      'all',
    )
    .option('--threshold <n>', 'threshold of the similar expectations, 0..1', '0.8')
    .option('--suite <name>', 'suite name', 'Imported conversations')
    .option(
      '--table',
      'write one table scenario (each:) and its rows, one per AI turn, in <out>.rows.jsonl beside the suite, instead of a scenario per turn',
    )
    .option('--force', 'overwrite the file when it exists')
    .action(async (flags: ImportCommandFlags) => {
      if (flags.turns !== 'all' && flags.turns !== 'last' && flags.turns !== 'conversation')
        throw new UsageError(`--turns is all, last or conversation, not "${flags.turns}"`);
      await checkWritableFile(flags.out, '--out');
      const threshold = Number(flags.threshold);
      if (flags.threshold.trim() === '' || !Number.isFinite(threshold))
        throw new UsageError(`--threshold is a number from 0 to 1 (e.g. 0.8), not "${flags.threshold}"`);
      const baseUrl = flags.baseUrl ?? (ctx.env.DROID_BASE_URL || undefined);
      await importConversations(
        {
          customers: flags.customer,
          out: flags.out,
          baseUrl,
          droidId: flags.droidId ?? (ctx.env.DROID_ID || undefined),
          token: ctx.env.DROID_API_TOKEN,
          turns: flags.turns,
          threshold,
          suite: flags.suite ?? 'Imported conversations',
          force: flags.force === true,
          table: flags.table === true,
        },
        { stdout: ctx.stdout, stderr: ctx.stderr },
      );
      ctx.exitCode = EXIT.OK;
    });
}
