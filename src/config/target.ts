/**
 * What several commands' shaping (resolve.ts) reads the same way: the target (the embedded
 * emulator, or a real service with its droid id and token), the secrets of the environment,
 * `--deliveries` and `--metrics-port`. Tokens and secrets come from the environment only
 * (`DROID_API_TOKEN`, `DROID_WEBHOOK_SECRET`, ...), never a flag or the config file: a flag shows
 * in the process list, a file is committed.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, UsageError } from '../errors.js';
import { MIN_SECRET_CHARS, parseRedisUrl, parseStreamKey } from './parse.js';
import type { ResolvedOptions } from './values.js';

/** `env[name]` as set; undefined when unset or empty. */
export const envValue = (env: NodeJS.ProcessEnv, name: string): string | undefined =>
  env[name] === undefined || env[name] === '' ? undefined : env[name];

/** A token or secret from `env[name]` (undefined when unset or empty). Throws ConfigError when shorter than MIN_SECRET_CHARS. */
export function secretFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = envValue(env, name);
  if (value !== undefined && value.length < MIN_SECRET_CHARS) {
    throw new ConfigError(
      `${name} is ${value.length} characters long; use at least ${MIN_SECRET_CHARS} (32 random characters advised: openssl rand -base64 32)`,
    );
  }
  return value;
}

/**
 * The secret the target and this process's receiver share: `given` (the environment's), else,
 * for the embedded emulator, a random one (droidcheck wires both ends, so nobody needs to know
 * it); null for a real service without one (its webhooks then carry none). The one rule of every
 * command that opens a target (the jobs, doctor, webhook-policy).
 */
export function sharedSecret(given: string | undefined, target: { kind: 'emulator' | 'remote' }): string | null {
  return given ?? (target.kind === 'emulator' ? randomBytes(24).toString('base64url') : null);
}

/** The real service `--base-url` names, with its droid id; undefined: the embedded emulator. ConfigError without a droid id. */
export function remoteOf(o: ResolvedOptions): { baseUrl: string; droidId: string } | undefined {
  const { baseUrl, droidId } = o.values;
  if (baseUrl === undefined) return undefined;
  if (droidId === undefined)
    throw new ConfigError(
      `a real target needs a droid id: pass --droid-id N or set DROID_ID (the target is ${o.name('baseUrl')})`,
    );
  return { baseUrl, droidId };
}

export type ResolvedTarget = { kind: 'emulator' } | { kind: 'remote'; baseUrl: string; droidId: string; token: string };

/** The target of a job (or webhook-policy): ConfigError for a real target without a droid id or its token. */
export function targetOf(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedTarget {
  const remote = remoteOf(o);
  if (!remote) return { kind: 'emulator' };
  const token = secretFrom(env, 'DROID_API_TOKEN');
  if (!token)
    throw new ConfigError(
      'a real target needs its API token in the environment: export DROID_API_TOKEN=... (or put it in .env; never in a file of the repository or a flag)',
    );
  return { kind: 'remote', ...remote, token };
}

/** `--deliveries`: a shard reads its deliveries from the Redis Stream receivers publish to. */
export interface ResolvedDeliveries {
  /** May hold a password (from DROIDCHECK_REDIS_URL only): never print it, redactRedisUrl. */
  redisUrl: string;
  stream: string;
}

/**
 * `--deliveries [url]` and `--stream` (env DROIDCHECK_REDIS_URL, DROIDCHECK_STREAM). A stream
 * needs a real target: the service's answer webhook must point at `droidcheck receive`.
 */
export function deliveriesOf(
  o: ResolvedOptions,
  env: NodeJS.ProcessEnv,
  target: ResolvedTarget,
): ResolvedDeliveries | undefined {
  const given = o.values.deliveries;
  if (given === undefined || given === false) {
    if (o.sources.stream?.kind === 'flag')
      throw new UsageError('--stream names the stream of --deliveries: give --deliveries too');
    return undefined;
  }
  let redisUrl: string;
  if (given === true || given === '') {
    const fromEnv = env.DROIDCHECK_REDIS_URL;
    if (!fromEnv)
      throw new UsageError(
        '--deliveries without a URL reads DROIDCHECK_REDIS_URL, which is not set; export it or write --deliveries redis://host:6379/0',
      );
    redisUrl = parseRedisUrl(fromEnv, 'DROIDCHECK_REDIS_URL', true);
  } else redisUrl = parseRedisUrl(given, '--deliveries');
  if (target.kind === 'emulator') {
    throw new ConfigError(
      '--deliveries reads what `droidcheck receive` publishes for a real target: give --base-url, --droid-id and DROID_API_TOKEN of the service (or of `droidcheck emulate --webhook-url <receiver>`) whose answer webhook points at the receivers',
    );
  }
  for (const key of ['receiverPort', 'receiverHost', 'publicUrl'] as const) {
    if (o.given(key))
      throw new UsageError(
        `${o.name(key)} configures a receiver of this process; with --deliveries none is started (the receivers are \`droidcheck receive\`)`,
      );
  }
  return { redisUrl, stream: parseStreamKey(o.values.stream, o.name('stream')) };
}

/** `--metrics-port`, `--metrics-host`, `--metrics-linger`. */
export interface ResolvedMetrics {
  host: string;
  /** 0: any free port (the URL is logged). */
  port: number;
  /** After the job, the metrics stay served this long, ms. */
  lingerMs: number;
}

/** `--metrics-port` / `--metrics-host` / `--metrics-linger`: UsageError for a host or linger without a port. */
export function metricsOf(o: ResolvedOptions): ResolvedMetrics | undefined {
  const { metricsPort, metricsHost, metricsLinger } = o.values;
  if (metricsPort === undefined) {
    const other = (['metricsHost', 'metricsLinger'] as const).find((k) => o.given(k));
    if (other) throw new UsageError(`${o.name(other)} needs --metrics-port`);
    return undefined;
  }
  return { host: metricsHost, port: metricsPort, lingerMs: metricsLinger };
}
