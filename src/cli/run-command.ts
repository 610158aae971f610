/** `droidcheck run [paths...]`: thin wrapper over `run()` (src/jobs/run.ts); options from the table (config/options.ts). */
import type { Command } from 'commander';
import { run } from '../jobs/index.js';
import { addOptions, jobConfig } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerRunCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('run scenario suites against the embedded emulator (default) or a real service')
    .argument('[paths...]', 'scenario files or directories (default: scenarios)');
  addOptions(command, 'run').action(async (_paths: string[], _flags: unknown, cmd: Command) => {
    const config = await jobConfig('run', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) =>
      run(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }),
    );
  });
}
