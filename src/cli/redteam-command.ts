/**
 * `droidcheck redteam`: thin wrapper over `redteam()` (src/jobs/redteam/redteam.ts); options from the
 * table (config/options.ts). It reads no scenario files: the attacks are generated from the
 * categories' templates, the products and the canaries (docs/redteam.md).
 */
import type { Command } from 'commander';
import { redteam } from '../jobs/index.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerRedteamCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'redteam',
    'send seeded attacks (discounts, leaks, prompt extraction, cart tampering...) through the answer endpoints; exit 1 on a finding',
  ).action(jobAction('redteam', ctx, redteam));
}
