/**
 * `droidcheck webhook-policy`: thin wrapper over `webhookPolicy()` (src/jobs/webhook-policy/webhook-policy.ts).
 * Measures the service's webhook retry policy on the receiving side and writes report.json,
 * summary.md and report.html. Exit 0 when measured, 2 for a usage mistake or a target that
 * refuses every probe, 130 interrupted (the partial report is written).
 */
import type { Command } from 'commander';
import { webhookPolicy } from '../jobs/index.js';
import { jobAction, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerWebhookPolicyCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'webhook-policy',
    "measure the service's webhook retry policy (attempts, delays, attempt timeout, what is retried) by having the receiver fail on purpose; exit 0 when measured",
  ).action(jobAction('webhook-policy', ctx, webhookPolicy));
}
