/** `droidcheck run [paths...]`: thin wrapper over `run()` (src/run.ts). */
import type { Command } from 'commander';
import { resolveRunConfig, type RunFlags } from '../config.js';
import { EXIT } from '../errors.js';
import { run } from '../run.js';
import { installInterruptHandlers } from './signals.js';
import { collect, type CliContext } from './shared.js';

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
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('run scenario suites against the embedded emulator (default) or a real service')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('-c, --concurrency <n>', 'requests in flight at most (closed model)', '8')
    .option('-m, --mode <mode>', 'override the scenarios\' modes: sync, async or both')
    .option('-o, --report-dir <dir>', 'where reports are written', 'reports')
    .option('-t, --timeout <duration>', 'deadline per request (sync answer or webhook), e.g. 180s', '180s')
    .option('--base-url <url>', 'real service base URL (env DROID_BASE_URL); token from DROID_API_TOKEN')
    .option('--droid-id <id>', 'droid id of the real service (env DROID_ID)')
    .option('--receiver-host <host>', 'address the webhook receiver binds to', '127.0.0.1')
    .option('--receiver-port <port>', 'port of the webhook receiver (0: any free port)', '0')
    .option('--public-url <url>', 'public webhook URL when a tunnel is in front of the receiver')
    .option('--threshold <expr>', 'SLO threshold, repeatable, e.g. "ack.p99 < 100ms"', collect, [])
    .option('--grace <duration>', 'after an interrupt, how long in-flight requests may finish', '5s')
    .option('--retries <n>', 'retry a submit answered 429 or 5xx up to N times (Retry-After honoured, backoff with jitter)', '0')
    .option('--no-warm-up', 'do not open connections with a read-only call before measuring')
    .option('-r, --reporter <name>', 'reporter, repeatable: console, json, junit, html, markdown, ndjson (default: all)', collect, [])
    .option('--tag <tag>', 'run only scenarios with this tag (repeatable: any of them)', collect, [])
    .option('--shard <i/n>', 'run only shard i of n (deterministic split of the scenarios), e.g. 1/3')
    .option('--baseline <file>', 'compare with this report.json; exit 1 on a regression')
    .option('--output-file <name=path>', 'output path of one reporter, repeatable, e.g. junit=out/junit.xml', collect, [])
    .option('--grep <text>', 'run only scenarios whose "suite name" contains the text (ignoring case); /re/flags for a regex')
    .action(async (paths: string[], flags: RunCommandFlags) => {
      const runFlags: RunFlags = {
        paths,
        ...(flags.concurrency !== undefined && { concurrency: flags.concurrency }),
        ...(flags.mode !== undefined && { mode: flags.mode }),
        ...(flags.reportDir !== undefined && { reportDir: flags.reportDir }),
        ...(flags.timeout !== undefined && { timeout: flags.timeout }),
        ...(flags.baseUrl !== undefined && { baseUrl: flags.baseUrl }),
        ...(flags.droidId !== undefined && { droidId: flags.droidId }),
        ...(flags.receiverHost !== undefined && { receiverHost: flags.receiverHost }),
        ...(flags.receiverPort !== undefined && { receiverPort: flags.receiverPort }),
        ...(flags.publicUrl !== undefined && { publicUrl: flags.publicUrl }),
        ...(flags.grace !== undefined && { grace: flags.grace }),
        thresholds: flags.threshold ?? [],
        reporters: flags.reporter ?? [],
        ...(flags.warmUp === false && { warmUp: false }),
        ...(flags.retries !== undefined && { retries: flags.retries }),
        tags: flags.tag ?? [],
        ...(flags.grep !== undefined && { grep: flags.grep }),
        ...(flags.shard !== undefined && { shard: flags.shard }),
        ...(flags.baseline !== undefined && { baseline: flags.baseline }),
        outputFiles: flags.outputFile ?? [],
      };
      const config = resolveRunConfig(runFlags, ctx.env);
      const interrupts = installInterruptHandlers(config.graceMs, (sig) =>
        ctx.stderr.write(`\ndroidcheck: ${sig}: no new requests; waiting up to ${config.graceMs} ms for in-flight ones\n`),
      );
      try {
        const summary = await run(config, {
          stdout: ctx.stdout,
          stderr: ctx.stderr,
          stopSignal: interrupts.stopSignal,
          abortSignal: interrupts.abortSignal,
          color: ctx.color,
        });
        ctx.exitCode = interrupts.received ? EXIT.INTERRUPTED : summary.exitCode;
      } finally {
        interrupts.dispose();
      }
    });
}
