/**
 * Run configuration: what the user gave (`RunFlags`, from flags or the API) resolved against
 * the environment and defaults into a `ResolvedRunConfig` (DESIGN.md, Conventions:
 * flags > environment > defaults). Tokens and secrets come from the environment only.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError, UsageError } from './errors.js';
import type { ModeOverride } from './runner/plan.js';
import { parseShard, type Shard } from './runner/shard.js';
import { parseOutputFiles } from './report/reporter.js';

export interface RunFlags {
  /** Scenario files or directories. Default `scenarios/`. */
  paths?: string[];
  concurrency?: number | string;
  mode?: string;
  reportDir?: string;
  /** Deadline per request: "180s", "500ms", "3m"; a bare number is seconds. Default 180 s (spec: Limits). */
  timeout?: string | number;
  baseUrl?: string;
  droidId?: string | number;
  receiverHost?: string;
  receiverPort?: number | string;
  /** Public URL of the receiver when a tunnel is in front (the URL to configure in the service). */
  publicUrl?: string;
  thresholds?: string[];
  /** Grace period for in-flight requests after an interrupt. Default 5 s. */
  grace?: string | number;
  /** Reporter names (console, json, junit, html, markdown, ndjson). Default: all of them. */
  reporters?: string[];
  /** Run only scenarios with at least one of these tags (`--tag`, repeatable). */
  tags?: string[];
  /** Run only scenarios whose "suite scenario" name matches: text (case-insensitive) or "/re/flags". */
  grep?: string;
  /** Where the embedded emulator runs. Default `worker`. */
  emulatorThread?: 'worker' | 'inline';
  /** Default true; `--no-warm-up` turns it off. */
  warmUp?: boolean;
  /** Retries of a 429/5xx answer submit (`--retries N`, 0..10). Default 0: no retry. */
  retries?: number | string;
  /** `--shard i/n`: run only this shard's scenarios (runner/shard.ts). */
  shard?: string;
  /** `--baseline FILE`: a report.json to compare the run with (exit 1 on a regression). */
  baseline?: string;
  /** `--output-file name=path` values (repeatable): per-reporter output paths. */
  outputFiles?: string[];
}

/** Reporters a run uses when none are named: files land in the report directory. */
export const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown', 'ndjson'] as const;

export type ResolvedTarget =
  | { kind: 'emulator' }
  | { kind: 'remote'; baseUrl: string; droidId: string; token: string };

export interface ResolvedRunConfig {
  paths: string[];
  concurrency: number;
  mode: ModeOverride | undefined;
  reportDir: string;
  timeoutMs: number;
  graceMs: number;
  target: ResolvedTarget;
  /** Webhook secret: `DROID_WEBHOOK_SECRET`, or a random one for the emulator. Never printed. */
  webhookSecret: string | null;
  receiverHost: string;
  receiverPort: number;
  publicUrl: string | undefined;
  thresholds: string[];
  reporters: string[];
  /** True when no reporter was named (the defaults are in use). */
  defaultReporters: boolean;
  tags: string[];
  /** A case-insensitive substring, or a RegExp from "/re/flags". */
  grep: string | RegExp | undefined;
  /** Where the embedded emulator runs: its own worker thread (default) or this event loop. */
  emulatorThread: 'worker' | 'inline';
  /** Open the connections with a read-only call before measuring. Default true. */
  warmUp: boolean;
  /** Retries of a 429/5xx answer submit (client/retry.ts); 0 = off. */
  retries: number;
  /** This machine's shard of the scenarios; undefined: all of them. */
  shard?: Shard;
  /** Path of the baseline report.json. */
  baseline?: string;
  /** Reporter name -> output path (ReporterOptions.outputFile). */
  outputFile?: Record<string, string>;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration: "250ms", "30s", "2.5m", "1h"; a bare number is seconds.
 * Throws UsageError (DROIDCHECK_ERR_USAGE) naming the flag.
 */
export function parseDurationMs(value: string | number, flag: string): number {
  if (typeof value === 'number') return value * 1000;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!m) throw new UsageError(`${flag}: "${value}" is not a duration; write e.g. 500ms, 30s, 3m`);
  return Number(m[1]) * (m[2] ? UNIT_MS[m[2]]! : 1000);
}

function parseIntFlag(value: string | number, flag: string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: "${value}" must be an integer from ${min} to ${max}`);
  }
  return n;
}

/** `--grep`: "/re/flags" is a RegExp (UsageError when invalid), other text a substring. */
export function parseGrep(value: string | undefined): string | RegExp | undefined {
  if (value === undefined || value === '') return undefined;
  const m = /^\/(.+)\/([a-z]*)$/.exec(value);
  if (!m) return value;
  try {
    return new RegExp(m[1]!, m[2]);
  } catch (err) {
    throw new UsageError(`--grep: bad regular expression ${value}: ${(err as Error).message}`);
  }
}

function parseMode(value: string | undefined): ModeOverride | undefined {
  if (value === undefined) return undefined;
  if (value === 'sync' || value === 'async' || value === 'both') return value;
  throw new UsageError(`--mode: "${value}" must be sync, async or both`);
}

/** Resolves flags against the environment and the config file. Throws UsageError / ConfigError (exit 2). */
export function resolveRunConfig(
  cli: RunFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: RunFlags = {},
): ResolvedRunConfig {
  // flags > environment > config file > defaults (DESIGN.md, Conventions).
  const flags: RunFlags = { ...file };
  for (const [k, v] of Object.entries(cli)) if (v !== undefined) (flags as Record<string, unknown>)[k] = v;
  const baseUrl = cli.baseUrl ?? env.DROID_BASE_URL ?? file.baseUrl;
  let target: ResolvedTarget = { kind: 'emulator' };
  if (baseUrl) {
    try {
      new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url: "${baseUrl}" is not a URL`);
    }
    const droidId = cli.droidId ?? env.DROID_ID ?? file.droidId;
    if (droidId === undefined || String(droidId).trim() === '') {
      throw new ConfigError('a real target needs a droid id: pass --droid-id N or set DROID_ID');
    }
    const token = env.DROID_API_TOKEN;
    if (!token) {
      throw new ConfigError(
        'a real target needs its API token in the environment: export DROID_API_TOKEN=... (never put it in a file or a flag)',
      );
    }
    target = { kind: 'remote', baseUrl: baseUrl.replace(/\/+$/, ''), droidId: String(droidId), token };
  }
  const secretFromEnv = env.DROID_WEBHOOK_SECRET;
  const webhookSecret =
    secretFromEnv && secretFromEnv.length > 0
      ? secretFromEnv
      : target.kind === 'emulator'
        ? randomBytes(24).toString('base64url')
        : null;
  const publicUrl = flags.publicUrl;
  if (publicUrl !== undefined) {
    try {
      new URL(publicUrl);
    } catch {
      throw new UsageError(`--public-url: "${publicUrl}" is not a URL`);
    }
  }
  return {
    paths: flags.paths && flags.paths.length > 0 ? flags.paths : ['scenarios'],
    concurrency: parseIntFlag(flags.concurrency ?? 8, '--concurrency', 1, 100_000),
    mode: parseMode(flags.mode),
    reportDir: flags.reportDir ?? 'reports',
    timeoutMs: parseDurationMs(flags.timeout ?? '180s', '--timeout'),
    graceMs: parseDurationMs(flags.grace ?? '5s', '--grace'),
    target,
    webhookSecret,
    receiverHost: flags.receiverHost ?? '127.0.0.1',
    receiverPort: parseIntFlag(flags.receiverPort ?? 0, '--receiver-port', 0, 65_535),
    publicUrl,
    thresholds: flags.thresholds ?? [],
    reporters: flags.reporters && flags.reporters.length > 0 ? flags.reporters : [...DEFAULT_REPORTERS],
    defaultReporters: !(flags.reporters && flags.reporters.length > 0),
    emulatorThread: flags.emulatorThread ?? 'worker',
    warmUp: flags.warmUp ?? true,
    retries: parseIntFlag(flags.retries ?? 0, '--retries', 0, 10),
    tags: flags.tags ?? [],
    grep: parseGrep(flags.grep),
    ...(flags.shard !== undefined && { shard: parseShard(flags.shard) }),
    ...(flags.baseline !== undefined && { baseline: flags.baseline }),
    ...(flags.outputFiles && flags.outputFiles.length > 0 && { outputFile: parseOutputFiles(flags.outputFiles) }),
  };
}

/** The settings a report may show: no token, no secret. */
export function publicSettings(config: ResolvedRunConfig): Record<string, unknown> {
  return {
    paths: config.paths,
    concurrency: config.concurrency,
    mode: config.mode ?? 'scenario',
    timeoutMs: config.timeoutMs,
    target: config.target.kind === 'remote' ? { kind: 'remote', baseUrl: config.target.baseUrl, droidId: config.target.droidId } : { kind: 'emulator' },
    webhookSecretSet: config.webhookSecret !== null,
    thresholds: config.thresholds,
    ...(config.retries > 0 && { retries: config.retries }),
    ...(config.tags.length > 0 && { tags: config.tags }),
    ...(config.grep !== undefined && { grep: String(config.grep) }),
    ...(config.shard && { shard: `${config.shard.index}/${config.shard.total}` }),
    ...(config.baseline !== undefined && { baseline: config.baseline }),
  };
}
