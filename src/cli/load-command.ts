/** `droidcheck load [paths...]`: thin wrapper over `runLoad()` (src/jobs/load.ts). */
import type { Command } from 'commander';
import { runLoad } from '../jobs/index.js';
import { addJobOptions, jobConfig } from './job-options.js';
import { collect, withInterrupts, type CliContext } from './shared.js';

export function registerLoadCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('load')
    .description('load test: open model (--rate or --stages, arrival rate) or closed model (--concurrency)')
    .argument('[paths...]', 'scenario files or directories (default: scenarios)')
    .option('--rate <req/s>', 'constant arrival rate (open model)')
    .option('-d, --duration <duration>', 'length of a constant-rate or closed run, with its unit (default: 30s)')
    .option('--stages <list>', 'ramping arrival rate, k6-style duration:target list, e.g. 10s:100,30s:100,10s:0')
    .option('--start-rate <req/s>', 'rate at the start of the first stage (default: 0)')
    .option('-c, --concurrency <n>', 'requests in flight (closed model; not with --rate/--stages; default: 8)')
    .option('--weight <scenario=n>', 'weight of a scenario in the mix (name, suite/name, name:mode), repeatable', collect, [])
    .option('--seed <n>', 'seed of the mix PRNG, a whole number (default: 1)')
    .option('--warmup <duration>', 'excluded from the figures, from the start (default: 0)')
    .option('--max-in-flight <n>', 'in-flight cap; arrivals beyond it are dropped and counted (default: 100000)')
    .option('--max-requests <n>', 'send at most this many requests (warm-up included)')
    .option('--ack-only', 'async requests end at the acknowledgement (capacity of the ack path)')
    .option('--progress <duration>', 'progress line interval on stderr, 0 for none (default: 5s)')
    .option('--shard <i/n>', 'run execution segment i of n of the load: every n-th arrival of every stage (or 1/n of --concurrency), for `merge`')
    .option('--start-at <time>', 'wait until this ISO 8601 instant (with its offset, e.g. 2026-05-01T12:00:00Z) before sending: one instant for every shard');
  addJobOptions(command).action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('load', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) => runLoad(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }));
  });
}
