/**
 * `droidcheck compare BASE.json CURRENT.json [--tolerance 10]`: thin wrapper over
 * `compareReports` (src/jobs/reports/compare.ts, exported from the package). Prints how the runs differ
 * (target, duration, rate, mode mix, version), then the comparison; exit 1 on a regression (pass ->
 * fail, a percentile beyond the tolerance, a worse outcome rate, a threshold now breached), else
 * 98 when the latency rows were not judged (either run generator-bound), 0 otherwise, 2 when a
 * file is unreadable or not a report (UsageError naming it), or when the runs
 * are of another job (kind) and `--force` is not given. `--html FILE` and `--markdown FILE`
 * also write the comparison as a page (the changed answers side by side) and as Markdown; a file
 * that cannot be written is exit 2, checked before the reports are read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { compareReports } from '../jobs/reports/compare.js';
import { checkWritableFile } from './flag-values.js';
import type { CliContext } from './shared.js';

interface CompareFlags {
  tolerance: string;
  minDelta: string;
  rateTolerance: string;
  force?: boolean;
  html?: string;
  markdown?: string;
}

/** Writes `text` to `file` (its folder made), a failure named with `flag` (exit 2). */
async function writeOutput(file: string, text: string, flag: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} ${file}: cannot write it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function nonNegative(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag}: "${value}" must be a number >= 0`);
  return n;
}

export function registerCompareCommand(program: Command, ctx: CliContext): void {
  program
    .command('compare')
    .description('compare two report.json files; exit 1 when CURRENT regressed against BASE')
    .argument('<base>', 'baseline report.json')
    .argument('<current>', 'current report.json')
    .option('--tolerance <percent>', 'a latency percentile may grow this much before it counts', '10')
    .option('--min-delta <ms>', '...and by at least this many ms', '1')
    .option('--rate-tolerance <points>', 'an outcome rate may move this many percentage points the wrong way', '1')
    .option('--force', 'compare runs of another job (kind) anyway (two targets are compared without it)')
    .option('--html <file>', 'also write the comparison as an HTML page (the changed answers side by side)')
    .option('--markdown <file>', 'also write the comparison as Markdown')
    .action(async (base: string, current: string, flags: CompareFlags) => {
      const outputs = [
        ['--html', flags.html, 'html'],
        ['--markdown', flags.markdown, 'markdown'],
      ] as const;
      for (const [flag, file] of outputs) if (file !== undefined) await checkWritableFile(file, flag);
      const result = await compareReports(base, current, {
        tolerancePct: nonNegative(flags.tolerance, '--tolerance'),
        minDeltaMs: nonNegative(flags.minDelta, '--min-delta'),
        rateTolerancePts: nonNegative(flags.rateTolerance, '--rate-tolerance'),
        force: flags.force === true,
      });
      ctx.stdout.write(result.text);
      for (const [flag, file, key] of outputs) if (file !== undefined) await writeOutput(file, result[key], flag);
      ctx.exitCode = result.exitCode;
    });
}
