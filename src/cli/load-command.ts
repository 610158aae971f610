/** `droidcheck load [paths...]`: thin wrapper over `runLoad()` (src/load/load-run.ts). */
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { resolveLoadConfig, type LoadFlags } from '../load/load-config.js';
import { runLoad } from '../load/load-run.js';
import { installInterruptHandlers } from './signals.js';
import { collect, type CliContext } from './shared.js';

interface LoadCommandFlags extends Omit<LoadFlags, 'paths' | 'thresholds' | 'weights'> {
  threshold?: string[];
  weight?: string[];
}

/** Drops undefined values so optional flags stay absent (exactOptionalPropertyTypes-friendly). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function registerLoadCommand(program: Command, ctx: CliContext): void {
  program
    .command('load')
    .description('load test: open model (--rate or --stages, arrival rate) or closed model (--concurrency)')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('-r, --rate <req/s>', 'constant arrival rate (open model)')
    .option('-d, --duration <duration>', 'length of a constant-rate or closed run, e.g. 30s', '30s')
    .option('--stages <list>', 'ramping arrival rate, k6-style duration:target list, e.g. 10s:100,30s:100,10s:0')
    .option('--start-rate <req/s>', 'rate at the start of the first stage', '0')
    .option('-c, --concurrency <n>', 'requests in flight (closed model; not with --rate/--stages)')
    .option('-m, --mode <mode>', "override the scenarios' modes: sync, async or both")
    .option('--weight <scenario=n>', 'weight of a scenario in the mix (name, suite/name, name:mode), repeatable', collect, [])
    .option('--seed <n>', 'seed of the mix PRNG', '1')
    .option('--warmup <duration>', 'excluded from the figures, from the start', '0s')
    .option('--max-in-flight <n>', 'in-flight cap; arrivals beyond it are dropped and counted', '100000')
    .option('--max-requests <n>', 'send at most this many requests (warm-up included)')
    .option('--ack-only', 'async requests end at the acknowledgement (capacity of the ack path)')
    .option('--progress <duration>', 'progress line interval on stderr (0: none)', '5s')
    .option('-o, --report-dir <dir>', 'where report.json and records.ndjson are written', 'reports')
    .option('-t, --timeout <duration>', 'deadline per request (sync answer or webhook)', '180s')
    .option('--base-url <url>', 'real service base URL (env DROID_BASE_URL); token from DROID_API_TOKEN')
    .option('--droid-id <id>', 'droid id of the real service (env DROID_ID)')
    .option('--receiver-host <host>', 'address the webhook receiver binds to', '127.0.0.1')
    .option('--receiver-port <port>', 'port of the webhook receiver (0: any free port)', '0')
    .option('--public-url <url>', 'public webhook URL when a tunnel is in front of the receiver')
    .option('--threshold <expr>', 'SLO threshold, repeatable, e.g. "ack.p99 < 100ms"', collect, [])
    .option('--grace <duration>', 'after an interrupt, how long in-flight requests may finish', '5s')
    .action(async (paths: string[], flags: LoadCommandFlags) => {
      const { threshold, weight, ...rest } = flags;
      const config = resolveLoadConfig({ ...defined(rest), paths, thresholds: threshold ?? [], weights: weight ?? [] }, ctx.env);
      const interrupts = installInterruptHandlers(config.graceMs, (sig) =>
        ctx.stderr.write(`\ndroidcheck: ${sig}: no new arrivals; waiting up to ${config.graceMs} ms for in-flight ones\n`),
      );
      try {
        const summary = await runLoad(config, {
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
