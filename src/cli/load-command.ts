/** `droidcheck load [paths...]`: thin wrapper over `runLoad()` (src/load/load-run.ts). */
import type { Command } from 'commander';
import { resolveLoadConfig, type LoadFlags } from '../load/load-config.js';
import { runLoad } from '../load/load-run.js';
import { addMeasureOptions, addTargetOptions, collect, defined, withInterrupts, type CliContext } from './shared.js';

interface LoadCommandFlags extends Omit<LoadFlags, 'paths' | 'thresholds' | 'weights'> {
  threshold?: string[];
  weight?: string[];
}

export function registerLoadCommand(program: Command, ctx: CliContext): void {
  const command = program
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
    .option('--progress <duration>', 'progress line interval on stderr (0: none)', '5s');
  addTargetOptions(addMeasureOptions(command))
    .action(async (paths: string[], flags: LoadCommandFlags) => {
      const { threshold, weight, ...rest } = flags;
      const config = resolveLoadConfig({ ...defined(rest), paths, thresholds: threshold ?? [], weights: weight ?? [] }, ctx.env);
      await withInterrupts(ctx, config.graceMs, (signals) =>
        runLoad(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color }),
      );
    });
}
