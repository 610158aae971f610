/**
 * `droidcheck webhook-policy`'s configuration, shaped from the values of the one resolution
 * (resolve.ts `resolveWebhookPolicyConfig(flags, env)`: its flags and the environment with `.env`
 * under it, through the table of options, options.ts). No config file: the command is run by
 * hand, once per service, and every figure it needs is on its command line.
 *
 * Throws UsageError (exit 2) for a bad value, ConfigError (exit 2) for a real target without a
 * droid id or token.
 */
import { emulatedRetry, type EmulatedRetry } from './emulate.js';
import type { JobFlags, TargetFlagKey } from './flags.js';
import { envValue, targetOf } from './target.js';
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

type WebhookPolicyTarget =
  | { kind: 'emulator'; retry: EmulatedRetry }
  | { kind: 'remote'; baseUrl: string; droidId: string; token: string };

export interface ResolvedWebhookPolicyConfig {
  target: WebhookPolicyTarget;
  /** DROID_WEBHOOK_SECRET (a random one against the embedded emulator); never printed. */
  webhookSecret: string | null;
  receiverHost: string;
  receiverPort: number;
  publicUrl: string | undefined;
  /** The bound of the whole wait, ms. */
  timeoutMs: number;
  /** The least quiet period after a probe's last attempt that means "gave up", ms. */
  quietMs: number;
  probes: ProbeName[];
  reportDir: string;
}

/** Webhook-policy's shaping: the embedded emulator with its retry policy, or a real service with its token. */
export function webhookPolicyConfig(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedWebhookPolicyConfig {
  const v = o.values;
  const target = targetOf(o, env);
  return {
    target: target.kind === 'emulator' ? { kind: 'emulator', retry: emulatedRetry(o) } : target,
    webhookSecret: envValue(env, 'DROID_WEBHOOK_SECRET') ?? null,
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    timeoutMs: v.timeout,
    quietMs: v.quiet,
    probes: v.probes,
    reportDir: v.reportDir,
  };
}
