/**
 * `resolveDoctorConfig(flags, env, file)`: what `droidcheck doctor` checks, from its flags, the
 * environment (with `.env` under it) and the config file's shared keys, in the jobs' order of
 * precedence (flags > environment > config file > defaults; DESIGN.md, Conventions).
 *
 * Unlike resolveConfig, a missing token and secrets of any length are taken as they are: the
 * doctor reports them as checklist lines (jobs/doctor-checks.ts) instead of refusing to start.
 * Throws UsageError / ConfigError (exit 2) for what leaves nothing to check: a bad URL or
 * duration, a real target without a droid id.
 */
import { ConfigError } from '../errors.js';
import type { CommonFlags } from './flags.js';
import { parseDuration, parseInteger, parseUrl } from './parse.js';

export interface DoctorFlags {
  baseUrl?: string;
  droidId?: string | number;
  receiverHost?: string;
  receiverPort?: string | number;
  publicUrl?: string;
  /** Send one real async request and wait for its webhook. */
  roundTrip?: boolean;
  /** Deadline of the round trip's webhook, e.g. "180s" (spec: Limits, answers in 10 to 180 s). */
  timeout?: string | number;
  /** Clock skew past which the clock check warns, e.g. "5s". */
  maxClockSkew?: string | number;
  /** How long --round-trip waits for any forwarded message, e.g. "15s". */
  messageWebhookCheck?: string | number;
}

export type DoctorTarget = { kind: 'emulator' } | { kind: 'remote'; baseUrl: string; droidId: string; token: string | undefined };

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

const env = (e: NodeJS.ProcessEnv, name: string): string | undefined => (e[name] === undefined || e[name] === '' ? undefined : e[name]);

/**
 * Resolves `cli` over `file` (the config file's shared flags: baseUrl, droidId, receiverHost,
 * receiverPort, publicUrl) against `environment` (process env with `.env` under it).
 */
export function resolveDoctorConfig(cli: DoctorFlags, environment: NodeJS.ProcessEnv = process.env, file: CommonFlags = {}): ResolvedDoctorConfig {
  const raw = cli.baseUrl ?? env(environment, 'DROID_BASE_URL') ?? file.baseUrl;
  let target: DoctorTarget = { kind: 'emulator' };
  if (raw !== undefined) {
    const baseUrl = parseUrl(raw, cli.baseUrl !== undefined ? '--base-url' : env(environment, 'DROID_BASE_URL') !== undefined ? 'DROID_BASE_URL' : 'baseUrl (config file)');
    const droidId = cli.droidId ?? env(environment, 'DROID_ID') ?? file.droidId;
    if (droidId === undefined || String(droidId).trim() === '') throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
    // A droid id is a whole number (spec: the webhook payload's droidId is a number), as for run.
    parseInteger(droidId, cli.droidId !== undefined ? '--droid-id' : env(environment, 'DROID_ID') !== undefined ? 'DROID_ID' : 'droidId (config file)', 1);
    target = { kind: 'remote', baseUrl, droidId: String(droidId), token: env(environment, 'DROID_API_TOKEN') };
  }
  const timeoutMs = parseDuration(cli.timeout ?? '180s', '--timeout');
  if (timeoutMs <= 0) throw new ConfigError('--timeout: must be > 0, e.g. 180s');
  const messageWebhookCheckMs = parseDuration(cli.messageWebhookCheck ?? '15s', '--message-webhook-check');
  if (messageWebhookCheckMs <= 0) throw new ConfigError('--message-webhook-check: must be > 0, e.g. 15s');
  return {
    target,
    webhookSecret: env(environment, 'DROID_WEBHOOK_SECRET'),
    verifyToken: env(environment, 'DROID_VERIFY_TOKEN'),
    intentSecret: env(environment, 'DROID_INTENT_SECRET'),
    receiverHost: cli.receiverHost ?? file.receiverHost ?? '127.0.0.1',
    receiverPort: parseInteger(cli.receiverPort ?? file.receiverPort ?? 0, '--receiver-port', 0, 65_535),
    publicUrl: (cli.publicUrl ?? file.publicUrl) === undefined ? undefined : parseUrl((cli.publicUrl ?? file.publicUrl)!, '--public-url'),
    roundTrip: cli.roundTrip ?? false,
    timeoutMs,
    maxClockSkewMs: parseDuration(cli.maxClockSkew ?? '5s', '--max-clock-skew'),
    messageWebhookCheckMs,
  };
}
