/** `droidcheck run [paths...]`: thin wrapper over `run()` (src/run.ts). */
import type { Command } from 'commander';
import { resolveRunConfig, type RunFlags } from '../config.js';
import { run } from '../run.js';
import { DEFAULT_CONFIG_FILE, loadConfigFile } from '../config-file.js';
import { addMeasureOptions, addTargetOptions, collect, explicitOptions, withInterrupts, type CliContext } from './shared.js';

interface RunCommandFlags {
  concurrency?: string;
  mode?: string;
  reportDir?: string;
  timeout?: string;
  baseUrl?: string;
  droidId?: string;
  receiverHost?: string;
  receiverPort?: string;
  publicUrl?: string;
  threshold?: string[];
  grace?: string;
  reporter?: string[];
  tag?: string[];
  grep?: string;
  warmUp?: boolean;
  retries?: string;
  shard?: string;
  baseline?: string;
  outputFile?: string[];
  config?: string;
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('run scenario suites against the embedded emulator (default) or a real service')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('-c, --concurrency <n>', 'requests in flight at most (closed model)', '8')
    .option('-m, --mode <mode>', 'override the scenarios\' modes: sync, async or both');
  addTargetOptions(addMeasureOptions(command))
    .option('--retries <n>', 'retry a submit answered 429 or 5xx up to N times (Retry-After honoured, backoff with jitter)', '0')
    .option('--no-warm-up', 'do not open connections with a read-only call before measuring')
    .option('-r, --reporter <name>', 'reporter, repeatable: console, json, junit, html, markdown, ndjson (default: all)', collect, [])
    .option('--tag <tag>', 'run only scenarios with this tag (repeatable: any of them)', collect, [])
    .option('--shard <i/n>', 'run only shard i of n (deterministic split of the scenarios), e.g. 1/3')
    .option('--baseline <file>', 'compare with this report.json; exit 1 on a regression')
    .option('--output-file <name=path>', 'output path of one reporter, repeatable, e.g. junit=out/junit.xml', collect, [])
    .option('--config <file>', `config file of default flags (default: ./${DEFAULT_CONFIG_FILE} when present)`)
    .option('--grep <text>', 'run only scenarios whose "suite name" contains the text (ignoring case); /re/flags for a regex')
    .action(async (paths: string[], _flags: RunCommandFlags, cmd: Command) => {
      // Only what the user typed: a config file fills the rest before droidcheck's defaults.
      const { threshold, reporter, tag, outputFile, warmUp, config: configPath, ...rest } = explicitOptions<RunCommandFlags>(cmd);
      const runFlags: RunFlags = {
        ...rest,
        ...(cmd.args.length > 0 && { paths }),
        ...(threshold && { thresholds: threshold }),
        ...(reporter && { reporters: reporter }),
        ...(tag && { tags: tag }),
        ...(outputFile && { outputFiles: outputFile }),
        ...(warmUp === false && { warmUp: false }),
      };
      const file = await loadConfigFile(configPath ?? DEFAULT_CONFIG_FILE, configPath !== undefined);
      const config = resolveRunConfig(runFlags, ctx.env, file);
      await withInterrupts(ctx, config.graceMs, (signals) =>
        run(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color }),
      );
    });
}
