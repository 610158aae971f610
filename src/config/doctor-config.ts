/**
 * `droidcheck doctor`'s configuration, shaped from the values of the one resolution (resolve.ts
 * `resolveDoctorConfig(flags, env, file)`: its flags, the environment with `.env` under it and
 * the config file's top-level keys, through the table of options, options.ts).
 *
 * Unlike resolveConfig, a missing token and secrets of any length are taken as they are: the
 * doctor reports them as checklist lines (jobs/doctor/checks.ts) instead of refusing to start.
 * Throws UsageError / ConfigError (exit 2) for what leaves nothing to check: a bad URL or
 * duration, a real target without a droid id; ConfigFileError for a bad file value (file:line:col).
 */
import type { JobFlags, TargetFlagKey } from './flags.js';
import { envValue, remoteOf, sharedSecret } from './target.js';
import type { ResolvedOptions } from './values.js';

/** What the user gave `doctor` (the table's keys). */
export type DoctorFlags = Pick<
  JobFlags,
  TargetFlagKey | 'roundTrip' | 'timeout' | 'maxClockSkew' | 'messageWebhookCheck'
>;

type DoctorTarget =
  | { kind: 'emulator' }
  | { kind: 'remote'; baseUrl: string; droidId: string; token: string | undefined };

export interface ResolvedDoctorConfig {
  target: DoctorTarget;
  /** The environment's secrets as set (undefined when unset, any length), never printed: the checks report lengths. */
  secretsSet: { webhookSecret: string | undefined; verifyToken: string | undefined; intentSecret: string | undefined };
  /** What the target's webhooks carry and the receiver checks (target.ts sharedSecret): as set, else random for the embedded emulator. */
  webhookSecret: string | null;
  verifyToken: string | null;
  receiverHost: string;
  receiverPort: number;
  publicUrl: string | undefined;
  roundTrip: boolean;
  /** ms */
  timeoutMs: number;
  /** ms */
  maxClockSkewMs: number;
  /** `--message-webhook-check`: how long --round-trip waits for any forwarded message, ms. */
  messageWebhookCheckMs: number;
}

/** Doctor's shaping: the target's token and the secrets as set (the checks report what is wrong with them). */
export function doctorConfig(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedDoctorConfig {
  const v = o.values;
  const remote = remoteOf(o);
  const target: DoctorTarget = remote
    ? { kind: 'remote', ...remote, token: envValue(env, 'DROID_API_TOKEN') }
    : { kind: 'emulator' };
  const secretsSet = {
    webhookSecret: envValue(env, 'DROID_WEBHOOK_SECRET'),
    verifyToken: envValue(env, 'DROID_VERIFY_TOKEN'),
    intentSecret: envValue(env, 'DROID_INTENT_SECRET'),
  };
  return {
    target,
    secretsSet,
    webhookSecret: sharedSecret(secretsSet.webhookSecret, target),
    verifyToken: sharedSecret(secretsSet.verifyToken, target),
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    roundTrip: v.roundTrip,
    timeoutMs: v.timeout,
    maxClockSkewMs: v.maxClockSkew,
    messageWebhookCheckMs: v.messageWebhookCheck,
  };
}
