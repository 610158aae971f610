/**
 * `resolveDoctorConfig(flags, env, file)`: what `droidcheck doctor` checks, from its flags, the
 * environment (with `.env` under it) and the config file's top-level keys, through the table of
 * options (options.ts: the options whose commands include `doctor`), in the jobs' order of
 * precedence (flags > environment > config file > defaults).
 *
 * Unlike resolveConfig, a missing token and secrets of any length are taken as they are: the
 * doctor reports them as checklist lines (jobs/doctor-checks.ts) instead of refusing to start.
 * Throws UsageError / ConfigError (exit 2) for what leaves nothing to check: a bad URL or
 * duration, a real target without a droid id; ConfigFileError for a bad file value (file:line:col).
 */
import { ConfigError } from '../errors.js';
import type { JobFlags } from './flags.js';
import { resolveOptions } from './values.js';

/** What the user gave `doctor` (the table's keys). */
export type DoctorFlags = Pick<
  JobFlags,
  | 'baseUrl'
  | 'droidId'
  | 'receiverHost'
  | 'receiverPort'
  | 'publicUrl'
  | 'roundTrip'
  | 'timeout'
  | 'maxClockSkew'
  | 'messageWebhookCheck'
>;

type DoctorTarget =
  | { kind: 'emulator' }
  | { kind: 'remote'; baseUrl: string; droidId: string; token: string | undefined };

export interface ResolvedDoctorConfig {
  target: DoctorTarget;
  /** The environment's values as set (undefined when unset), never printed: the checks report lengths. */
  webhookSecret: string | undefined;
  verifyToken: string | undefined;
  intentSecret: string | undefined;
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

const env = (e: NodeJS.ProcessEnv, name: string): string | undefined =>
  e[name] === undefined || e[name] === '' ? undefined : e[name];

/** Resolves `cli` over `file` (the config file's flags, `fileFlags(file, 'doctor')`) against `environment`. */
export function resolveDoctorConfig(
  cli: DoctorFlags,
  environment: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ResolvedDoctorConfig {
  const { values: v } = resolveOptions('doctor', cli, environment, file);
  let target: DoctorTarget = { kind: 'emulator' };
  if (v.baseUrl !== undefined) {
    if (v.droidId === undefined)
      throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
    target = { kind: 'remote', baseUrl: v.baseUrl, droidId: v.droidId, token: env(environment, 'DROID_API_TOKEN') };
  }
  return {
    target,
    webhookSecret: env(environment, 'DROID_WEBHOOK_SECRET'),
    verifyToken: env(environment, 'DROID_VERIFY_TOKEN'),
    intentSecret: env(environment, 'DROID_INTENT_SECRET'),
    receiverHost: v.receiverHost,
    receiverPort: v.receiverPort,
    publicUrl: v.publicUrl,
    roundTrip: v.roundTrip,
    timeoutMs: v.timeout,
    maxClockSkewMs: v.maxClockSkew,
    messageWebhookCheckMs: v.messageWebhookCheck,
  };
}
