/** `droidcheck capacity [paths...]`: thin wrapper over `runCapacity()` (src/jobs/capacity.ts). */
import type { Command } from 'commander';
import { runCapacity } from '../jobs/index.js';
import { addJobOptions, jobConfig } from './job-options.js';
import { collect, withInterrupts, type CliContext } from './shared.js';

export function registerCapacityCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('capacity')
    .description('find the highest arrival rate at which ack p99 (and optionally answer p99) stays under its limit')
    .argument('[paths...]', 'scenario files or directories (default: scenarios)')
    .option('--strategy <name>', 'step or bisect (default: step)')
    .option('--start-rate <req/s>', 'first rate (step) or lower bound (bisect) (default: 50)')
    .option('--step <req/s>', 'increment of the step strategy (default: the start rate)')
    .option('--max-rate <req/s>', 'highest rate tried (default: 2000)')
    .option('--precision <req/s>', 'bisect stops when the interval is this narrow (default: 5% of the max rate)')
    .option('--max-steps <n>', 'most rates measured (default: 20)')
    .option('--step-duration <duration>', 'measured length of each rate (default: 10s)')
    .option('--warmup <duration>', 'warm-up before each rate, excluded (default: 2s)')
    .option('--ack-p99 <duration>', 'ack p99 limit (spec: under 100 ms; default: 100ms)')
    .option('--answer-p99 <duration>', 'answer p99 limit (not judged when absent)')
    .option('--max-error-rate <rate>', 'highest accepted error rate, e.g. 1% or 0.01 (default: 1%)')
    .option('--max-in-flight <n>', 'in-flight cap; drops fail the step (default: 100000)')
    .option('--weight <scenario=n>', 'weight of a scenario in the mix, repeatable', collect, [])
    .option('--seed <n>', 'seed of the mix PRNG, a whole number (default: 1)')
    .option('--ack-only', 'async requests end at the acknowledgement');
  addJobOptions(command).action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('capacity', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) => runCapacity(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }));
  });
}
