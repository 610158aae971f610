/**
 * The shaping of `load` and `capacity` (resolve.ts): the load model, the in-flight cap, a shard's
 * part, the capacity search, from resolved values (values.ts). The in-flight cap derived from the
 * load asked (in-flight.ts) is the one default that is not the table's: it depends on other options.
 * Throws UsageError (exit 2) for options that contradict each other, naming where each came from.
 */
import { UsageError } from '../errors.js';
import { constantRate, drainTimeoutFor, shareOf, type Segment, type Stage } from '../runner/index.js';
import { defaultInFlightCap } from './in-flight.js';
import type { OptionKey } from './options.js';
import type { CommandOptions, ResolvedOptions } from './values.js';

type LoadModel =
  | { kind: 'open'; startRate: number; stages: Stage[] }
  | { kind: 'closed'; concurrency: number; durationMs: number };

export interface ResolvedLoadSettings {
  model: LoadModel;
  warmupMs: number;
  /** Open model: arrivals beyond this many in flight are dropped and counted. */
  maxInFlight: number;
  /** True when `maxInFlight` was derived from the load asked (in-flight.ts), not given. */
  maxInFlightDerived: boolean;
  maxRequests: number | undefined;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
  /** Progress line interval, ms; 0: none. */
  progressMs: number;
  /** After sending ends, in-flight requests get this long before they are cancelled, ms. */
  drainTimeoutMs: number;
  /**
   * `--shard i/n`: this process's execution segment (runner/segments.ts). The model above is
   * already this shard's part: its arrivals of the stages (open), its virtual users (closed); the
   * request budget and the seed (seed + i - 1) too.
   */
  segment: Segment | undefined;
  /** `--start-at`: the instant sending starts, ISO 8601 UTC; undefined: at once. */
  startAt: string | undefined;
}

export interface ResolvedCapacitySettings {
  strategy: 'step' | 'bisect';
  /** req/s */
  startRate: number;
  stepRate: number;
  maxRate: number;
  precision: number | undefined;
  maxSteps: number;
  stepDurationMs: number;
  warmupMs: number;
  /** ms */
  ackP99Ms: number;
  answerP99Ms: number | undefined;
  /** 0..1 */
  maxErrorRate: number;
  /** Lowest share of answers right at a passing rate, 0..1 (metrics/pass-share.ts); 0: latency only. */
  minPassRate: number;
  /** `--min-capacity`: the knee a CI gate requires, req/s (exit 99 below it); undefined: none. */
  minCapacity: number | undefined;
  maxInFlight: number;
  /** True when `maxInFlight` was derived from `--max-rate` and the timeout (in-flight.ts). */
  maxInFlightDerived: boolean;
  weights: Record<string, number>;
  seed: number;
  ackOnly: boolean;
}

/** The segment's part of a count (virtual users, a request budget); UsageError when it is none. */
function segmentShare(count: number, segment: Segment | undefined, what: string): number {
  if (!segment) return count;
  const share = shareOf(count, segment);
  if (share === 0)
    throw new UsageError(
      `--shard ${segment.index}/${segment.total}: ${what} ${count} leaves this shard nothing; use at most ${count} shards`,
    );
  return share;
}

/**
 * The load model from whichever source says most: a flag beats the file, so `--rate` or
 * `--stages` on the command line replace a `load.concurrency` of the config file (and `-c`
 * replaces a file's `load.rate`). Two models, or --rate and --stages, from one level are a
 * mistake, reported with where each came from (the file's keys at their line:col).
 */
function loadModel(o: ResolvedOptions, durationMs: number, segment: Segment | undefined): LoadModel {
  const level = (k: OptionKey): number => (o.given(k) ? o.sources[k]!.level : 0);
  const [rate, stages, closed] = [level('rate'), level('stages'), level('concurrency')];
  if (rate > 0 && rate === stages)
    throw new UsageError(
      `give either ${o.name('rate')} (constant arrival rate) or ${o.name('stages')} (ramps), not both`,
    );
  const open = Math.max(rate, stages);
  if (open > 0 && open === closed) {
    const openName = o.name(rate >= stages ? 'rate' : 'stages');
    throw new UsageError(
      `${o.name('concurrency')} sets the closed model and ${openName} the open model: keep one (with the open model, cap requests in flight with --max-in-flight)`,
    );
  }
  const { values: v } = o;
  if (open > closed && stages > rate) return { kind: 'open', startRate: v.startRate, stages: v.stages! };
  if (open > closed) return { kind: 'open', ...constantRate(v.rate!, durationMs) };
  return { kind: 'closed', concurrency: segmentShare(v.concurrency, segment, '--concurrency'), durationMs };
}

/** Highest arrival rate of a model, req/s (0 for the closed model). */
const peakRate = (m: LoadModel): number =>
  m.kind === 'open' ? Math.max(m.startRate, ...m.stages.map((s) => s.target)) : 0;

export function resolveLoad(o: ResolvedOptions, timeoutMs: number, segment: Segment | undefined): ResolvedLoadSettings {
  const v = o.values;
  const model = loadModel(o, v.duration, segment);
  const maxRequests = v.maxRequests === undefined ? undefined : segmentShare(v.maxRequests, segment, '--max-requests');
  // This shard sends its share of the arrivals: its cap is its share of the in-flight requests.
  const share = segment ? segment.total : 1;
  return {
    model,
    warmupMs: v.warmup,
    maxInFlight: v.maxInFlight ?? defaultInFlightCap(peakRate(model) / share, timeoutMs),
    maxInFlightDerived: v.maxInFlight === undefined,
    maxRequests,
    weights: v.weights,
    // Each shard draws its own mix (the same seed would send the same sequence n times).
    seed: segment ? (v.seed + segment.index - 1) % 2 ** 32 : v.seed,
    ackOnly: v.ackOnly,
    progressMs: v.progress,
    drainTimeoutMs: drainTimeoutFor(timeoutMs),
    segment,
    startAt: v.startAt,
  };
}

export function resolveCapacity(o: CommandOptions<'capacity'>, timeoutMs: number): ResolvedCapacitySettings {
  const v = o.values;
  if (v.maxRate < v.startRate)
    throw new UsageError(
      `${o.name('maxRate')} (${v.maxRate} req/s) must be >= ${o.name('startRate')} (${v.startRate} req/s)`,
    );
  if (v.minCapacity !== undefined && v.minCapacity > v.maxRate)
    throw new UsageError(
      `${o.name('minCapacity')} (${v.minCapacity} req/s) is above ${o.name('maxRate')} (${v.maxRate} req/s): the search could never find it; raise ${o.name('maxRate')}`,
    );
  return {
    strategy: v.strategy,
    startRate: v.startRate,
    stepRate: v.step ?? v.startRate,
    maxRate: v.maxRate,
    precision: v.precision,
    maxSteps: v.maxSteps,
    stepDurationMs: v.stepDuration,
    warmupMs: v.warmup,
    ackP99Ms: v.ackP99,
    answerP99Ms: v.answerP99,
    maxErrorRate: v.maxErrorRate,
    minPassRate: v.minPassRate,
    minCapacity: v.minCapacity,
    maxInFlight: v.maxInFlight ?? defaultInFlightCap(v.maxRate, timeoutMs),
    maxInFlightDerived: v.maxInFlight === undefined,
    weights: v.weights,
    seed: v.seed,
    ackOnly: v.ackOnly,
  };
}
