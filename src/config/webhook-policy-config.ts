/**
 * `resolveWebhookPolicyConfig(flags, env)`: what `droidcheck webhook-policy` probes, from its
 * flags and the environment (with `.env` under it), through the table of options (options.ts:
 * the options whose commands include `webhook-policy`). No config file: the command is run by
 * hand, once per service, and every figure it needs is on its command line.
 *
 * Throws UsageError (exit 2) for a bad value, ConfigError (exit 2) for a real target without a
 * droid id or token.
 */
import { ConfigError } from '../errors.js';
import type { JobFlags } from './flags.js';
import { resolveOptions } from './values.js';

/** What the user gave `webhook-policy` (the table's keys). */
export type WebhookPolicyFlags = Pick<
  JobFlags,
  | 'baseUrl'
  | 'droidId'
  | 'receiverHost'
  | 'receiverPort'
  | 'publicUrl'
  | 'timeout'
  | 'reportDir'
  | 'probes'
  | 'quiet'
  | 'webhookAttempts'
  | 'webhookBackoff'
  | 'webhookTimeout'
  | 'webhookJitter'
>;

export type ProbeName = 'fail' | 'recover' | 'stall' | 'slow';

/** The embedded emulator's retry policy (its delivery options). */
interface EmulatedRetry {
  attempts: number;
  /** ms */
  backoffMs: number;
  /** ms */
  timeoutMs: number;
  /** 0..1 */
  jitter: number;
}

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

const env = (e: NodeJS.ProcessEnv, name: string): string | undefined =>
  e[name] === undefined || e[name] === '' ? undefined : e[name];

export function resolveWebhookPolicyConfig(
  cli: WebhookPolicyFlags,
  environment: NodeJS.ProcessEnv = process.env,
): ResolvedWebhookPolicyConfig {
  const { values: v } = resolveOptions('webhook-policy', cli, environment, {});
  let target: WebhookPolicyTarget = {
    kind: 'emulator',
    retry: {
      attempts: v.webhookAttempts,
      backoffMs: v.webhookBackoff,
      timeoutMs: v.webhookTimeout,
      jitter: v.webhookJitter,
    },
  };
  if (v.baseUrl !== undefined) {
    if (v.droidId === undefined)
      throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
    const token = env(environment, 'DROID_API_TOKEN');
    if (token === undefined)
      throw new ConfigError(
        'a real target needs its token: set DROID_API_TOKEN (never a flag: it would show in the process list)',
      );
    target = { kind: 'remote', baseUrl: v.baseUrl, droidId: v.droidId, token };
  }
  return {
    target,
    webhookSecret: env(environment, 'DROID_WEBHOOK_SECRET') ?? null,
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    timeoutMs: v.timeout,
    quietMs: v.quiet,
    probes: v.probes,
    reportDir: v.reportDir,
  };
}
