/**
 * `droidcheck merge reports... [-o dir] [--threshold expr]`: thin wrapper over `mergeReports`
 * (src/jobs/reports/merge.ts, exported from the package): merges shard reports (histograms added,
 * outcomes summed, thresholds judged on the merged figures), writes report.json, junit.xml,
 * report.html and summary.md to the directory, prints the summary, and exits with the merged
 * exit code (0, 1, 98, 99, 130; 2 for a bad file or threshold).
 */
import type { Command } from 'commander';
import { mergeReports } from '../jobs/reports/merge.js';
import { MERGE_REPORTERS, parseOutputFiles } from '../report/index.js';
import { checkReportPaths, checkReporters, checkThresholds } from './flag-values.js';
import { collect, type CliContext } from './shared.js';

interface MergeFlags {
  reportDir: string;
  threshold: string[];
  reporter: string[];
  outputFile: string[];
}

export function registerMergeCommand(program: Command, ctx: CliContext): void {
  program
    .command('merge')
    .description('merge the report.json files of shards into one report; exit with its exit code')
    .argument('<reports...>', 'report.json files, e.g. shard-*/report.json')
    .option('-o, --report-dir <dir>', 'where the merged reports are written', 'reports')
    .option('--threshold <expr>', 'SLO threshold judged on the merged figures, repeatable', collect, [])
    .option(
      '-r, --reporter <name>',
      'reporter, repeatable (default: console, json, junit, html, markdown)',
      collect,
      [],
    )
    .option(
      '--output-file <name=path>',
      'output path of one reporter, repeatable, e.g. junit=out/junit.xml',
      collect,
      [],
    )
    .action(async (paths: string[], flags: MergeFlags) => {
      await checkThresholds(flags.threshold);
      await checkReporters(flags.reporter);
      const outputFile = parseOutputFiles(flags.outputFile);
      await checkReportPaths(flags.reportDir, flags.reporter.length > 0 ? flags.reporter : MERGE_REPORTERS, outputFile);
      const result = await mergeReports(paths, {
        outDir: flags.reportDir,
        thresholds: flags.threshold,
        ...(flags.reporter.length > 0 && { reporters: flags.reporter }),
        outputFile,
        stdout: ctx.stdout,
        color: ctx.color,
        env: ctx.env,
      });
      if (result.files.length > 0) ctx.stdout.write(`reports: ${result.files.join(', ')}\n`);
      ctx.exitCode = result.exitCode;
    });
}
