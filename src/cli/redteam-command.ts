/**
 * `droidcheck redteam`: thin wrapper over `redteam()` (src/jobs/redteam.ts); options from the
 * table (config/options.ts). It reads no scenario files: the attacks are generated from the
 * categories' templates, the products and the canaries (docs/redteam.md).
 */
import type { Command } from 'commander';
import { redteam } from '../jobs/index.js';
import { addOptions, jobConfig } from './job-options.js';
import { withInterrupts, type CliContext } from './shared.js';

export function registerRedteamCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('redteam')
    .description(
      'send seeded attacks (discounts, leaks, prompt extraction, cart tampering...) through the answer endpoints; exit 1 on a finding',
    );
  addOptions(command, 'redteam').action(async (_flags: unknown, cmd: Command) => {
    const config = await jobConfig('redteam', cmd, ctx);
    await withInterrupts(ctx, config.graceMs, (signals) =>
      redteam(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env: ctx.env }),
    );
  });
}
