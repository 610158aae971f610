/**
 * Load-run configuration: `LoadFlags` (as the user gave them) resolved into a
 * `ResolvedLoadConfig` = the run's config (target, receiver, thresholds; src/config.ts) plus
 * the load settings. Open model with `--rate` (+ `--duration`) or `--stages`; closed model
 * with `--concurrency` alone. Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2).
 */
import { parseDurationMs, resolveRunConfig, type ResolvedRunConfig, type RunFlags } from '../config.js';
import { UsageError } from '../errors.js';
import { constantRate, parseStages, type Stage } from './arrival-schedule.js';
import { parseWeights } from './mix.js';

export interface LoadFlags extends RunFlags {
  /** Constant arrival rate, req/s (open model). */
  rate?: number | string;
  /** Length of a constant-rate or closed run. Default 30 s. */
  duration?: string | number;
  /** k6-style stages `10s:100,30s:100,10s:0` (open model, ramping arrival rate). */
  stages?: string;
  /** Rate at the start of the first stage, req/s. Default 0. */
  startRate?: number | string;
  /** Excluded from the figures, from the start. Default 0. */
  warmup?: string | number;
  /** In-flight cap; arrivals beyond it are dropped and counted. Default 100_000. */
  maxInFlight?: number | string;
  /** Requests sent at most (warm-up included). Default unbounded. */
  maxRequests?: number | string;
  /** `<scenario>=<weight>` items. */
  weights?: string[];
  seed?: number | string;
  ackOnly?: boolean;
  /** Progress line interval; "0" disables. Default 5 s. */
  progress?: string | number;
}

export type LoadModel =
  | { kind: 'open'; startRate: number; stages: Stage[] }
  | { kind: 'closed'; concurrency: number; durationMs: number };

export interface ResolvedLoadSettings {
  model: LoadModel;
  warmupMs: number;
  maxInFlight: number;
  maxRequests: number | undefined;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
  progressMs: number;
  /** After sending ends, in-flight requests get this long before they are cancelled, ms. */
  drainTimeoutMs: number;
}

export interface ResolvedLoadConfig extends ResolvedRunConfig {
  load: ResolvedLoadSettings;
}

function positive(value: number | string, flag: string, integer: boolean): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`${flag}: "${value}" must be a ${integer ? 'whole ' : ''}number > 0`);
  }
  return n;
}

/** Resolves load flags (flags > environment > defaults). */
export function resolveLoadConfig(flags: LoadFlags, env: NodeJS.ProcessEnv = process.env): ResolvedLoadConfig {
  const base = resolveRunConfig(flags, env);
  const durationMs = parseDurationMs(flags.duration ?? '30s', '--duration');
  if (durationMs <= 0) throw new UsageError('--duration: must be > 0, e.g. 30s');
  const open = flags.rate !== undefined || flags.stages !== undefined;
  if (flags.rate !== undefined && flags.stages !== undefined) {
    throw new UsageError('give either --rate (constant arrival rate) or --stages (ramps), not both');
  }
  if (open && flags.concurrency !== undefined) {
    throw new UsageError('--concurrency sets the closed model; with --rate or --stages (open model) use --max-in-flight');
  }
  let model: LoadModel;
  if (flags.stages !== undefined) {
    const startRate = flags.startRate === undefined ? 0 : Number(flags.startRate);
    if (!Number.isFinite(startRate) || startRate < 0) throw new UsageError(`--start-rate: "${flags.startRate}" must be a rate >= 0 (req/s)`);
    model = { kind: 'open', startRate, stages: parseStages(flags.stages) };
  } else if (flags.rate !== undefined) {
    model = { kind: 'open', ...constantRate(positive(flags.rate, '--rate', false), durationMs) };
  } else {
    model = { kind: 'closed', concurrency: base.concurrency, durationMs };
  }
  const warmupMs = parseDurationMs(flags.warmup ?? 0, '--warmup');
  const seed = flags.seed === undefined ? 1 : Number(flags.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed: "${flags.seed}" must be an integer`);
  return {
    ...base,
    load: {
      model,
      warmupMs,
      maxInFlight: positive(flags.maxInFlight ?? 100_000, '--max-in-flight', true),
      maxRequests: flags.maxRequests === undefined ? undefined : positive(flags.maxRequests, '--max-requests', true),
      weights: parseWeights(flags.weights ?? []),
      seed,
      ackOnly: flags.ackOnly ?? false,
      progressMs: parseDurationMs(flags.progress ?? '5s', '--progress'),
      drainTimeoutMs: base.timeoutMs + 5_000,
    },
  };
}

/** The load settings a report shows (plain data, no secrets). */
export function publicLoadSettings(s: ResolvedLoadSettings): Record<string, unknown> {
  return {
    model: s.model,
    warmupMs: s.warmupMs,
    maxInFlight: s.maxInFlight,
    maxRequests: s.maxRequests ?? null,
    weights: s.weights,
    seed: s.seed,
    ackOnly: s.ackOnly,
  };
}
