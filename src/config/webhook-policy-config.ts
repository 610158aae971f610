/**
 * `droidcheck webhook-policy`'s part of the configuration: its probes, how long a probe is quiet
 * before it counts as given up, and the embedded emulator's webhook retry policy it measures when
 * no real target is named. The target, receiver and report folder resolve as every job's
 * (job-config.ts); the options it has no use for hold the table's defaults (values.ts). It reads
 * no config file: the command is run by hand, once per service, and every figure it needs is on
 * its command line.
 */
import { emulatedRetry, type EmulatedRetry } from './emulate.js';
import type { JobFlags, TargetFlagKey } from './flags.js';
import type { ProbeName } from './options.js';
import type { ResolvedOptions } from './values.js';

/** What the user gave `webhook-policy` (the table's keys). */
export type WebhookPolicyFlags = Pick<
  JobFlags,
  | TargetFlagKey
  | 'timeout'
  | 'reportDir'
  | 'probes'
  | 'quiet'
  | 'webhookAttempts'
  | 'webhookBackoff'
  | 'webhookTimeout'
  | 'webhookJitter'
>;

export interface ResolvedWebhookPolicySettings {
  probes: ProbeName[];
  /** The least quiet period after a probe's last attempt that means "gave up", ms. */
  quietMs: number;
  /** The embedded emulator's retry policy (`--webhook-*`): used, and reported beside the measured one, when it is the target. */
  retry: EmulatedRetry;
}

/** Webhook-policy's settings of resolved options. */
export function resolveWebhookPolicy(o: ResolvedOptions): ResolvedWebhookPolicySettings {
  return { probes: o.values.probes, quietMs: o.values.quiet, retry: emulatedRetry(o) };
}
