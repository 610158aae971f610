/** `droidcheck capacity [paths...]`: thin wrapper over `runCapacity()` (src/load/capacity-run.ts). */
import type { Command } from 'commander';
import { resolveCapacityConfig, runCapacity, type CapacityFlags } from '../load/capacity-run.js';
import { addTargetOptions, collect, defined, withInterrupts, type CliContext } from './shared.js';

interface CapacityCommandFlags extends Omit<CapacityFlags, 'paths' | 'weights'> {
  weight?: string[];
}

export function registerCapacityCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('capacity')
    .description('find the highest arrival rate at which ack p99 (and optionally answer p99) stays under its limit')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('--strategy <name>', 'step or bisect', 'step')
    .option('--start-rate <req/s>', 'first rate (step) or lower bound (bisect)', '50')
    .option('--step <req/s>', 'increment of the step strategy (default: the start rate)')
    .option('--max-rate <req/s>', 'highest rate tried', '2000')
    .option('--precision <req/s>', 'bisect stops when the interval is this narrow (default 5% of max)')
    .option('--max-steps <n>', 'most rates measured', '20')
    .option('--step-duration <duration>', 'measured length of each rate', '10s')
    .option('--warmup <duration>', 'warm-up before each rate, excluded', '2s')
    .option('--ack-p99 <duration>', 'ack p99 limit (spec: under 100 ms)', '100ms')
    .option('--answer-p99 <duration>', 'answer p99 limit (not judged when absent)')
    .option('--max-error-rate <rate>', 'highest accepted error rate, e.g. 1% or 0.01', '1%')
    .option('--max-in-flight <n>', 'in-flight cap; drops fail the step', '100000')
    .option('-m, --mode <mode>', "override the scenarios' modes: sync, async or both")
    .option('--weight <scenario=n>', 'weight of a scenario in the mix, repeatable', collect, [])
    .option('--seed <n>', 'seed of the mix PRNG', '1')
    .option('--ack-only', 'async requests end at the acknowledgement')
    .option('-o, --report-dir <dir>', 'where capacity.json is written', 'reports')
    .option('-t, --timeout <duration>', 'deadline per request', '180s');
  addTargetOptions(command)
    .action(async (paths: string[], flags: CapacityCommandFlags) => {
      const { weight, ...rest } = flags;
      const config = resolveCapacityConfig({ ...(defined(rest) as CapacityFlags), paths, weights: weight ?? [] }, ctx.env);
      await withInterrupts(ctx, config.graceMs, (signals) => runCapacity(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals }));
    });
}
