/**
 * `droidcheck webhook-policy`: thin wrapper over `webhookPolicy()` (src/jobs/webhook-policy/webhook-policy.ts).
 * Measures the service's webhook retry policy on the receiving side and writes report.json,
 * summary.md and report.html. Exit 0 when measured, 2 for a usage mistake or a target that
 * refuses every probe, 130 interrupted (the partial report is written).
 */
import type { Command } from 'commander';
import { resolveWebhookPolicyConfig, withDotenv, type WebhookPolicyFlags } from '../config/index.js';
import { webhookPolicy } from '../jobs/index.js';
import { checkReportPaths } from './flag-values.js';
import { optionCommand, toFlags } from './job-options.js';
import { explicitOptions, withInterrupts, type CliContext } from './shared.js';

export function registerWebhookPolicyCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'webhook-policy',
    "measure the service's webhook retry policy (attempts, delays, attempt timeout, what is retried) by having the receiver fail on purpose; exit 0 when measured",
  ).action(async (_flags: unknown, cmd: Command) => {
    const env = withDotenv(ctx.env);
    const config = resolveWebhookPolicyConfig(
      toFlags('webhook-policy', explicitOptions<Record<string, unknown>>(cmd), undefined) as WebhookPolicyFlags,
      env,
    );
    // The report directory is checked before anything is sent: a probe costs an AI answer.
    await checkReportPaths(config.reportDir, ['json', 'markdown', 'html'], undefined, '--report-dir');
    // The files written are listed on stdout, as every job's are (jobs/pipeline/pipeline.ts).
    await withInterrupts(ctx, 0, ({ stopSignal }) =>
      webhookPolicy(config, { stderr: ctx.stderr, stdout: ctx.stdout, signal: stopSignal, env }),
    );
  });
}
