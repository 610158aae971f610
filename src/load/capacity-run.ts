/**
 * `runCapacity(config, io)`: the capacity search as a library call (`droidcheck capacity`
 * wraps it). Opens the target once, measures each rate with a constant-rate open-model run of
 * `stepDurationMs` (after `warmupMs`), and writes `<reportDir>/capacity.json` (the curve and
 * the verdict). Exit code: 0 when some rate passed, 99 (threshold breached) when none did.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDurationMs, publicSettings, resolveRunConfig, type ResolvedRunConfig, type RunFlags } from '../config.js';
import { EXIT, UsageError } from '../errors.js';
import { loadSuites } from '../scenario/index.js';
import { openTarget } from '../target.js';
import { renderCapacity, searchCapacity, type CapacityCriteria, type CapacityResult, type CapacitySearchOptions, type RateMeasurement } from './capacity.js';
import { runLoadEngine } from './load-engine.js';
import type { LoadIO } from './load-run.js';
import { createMix, parseWeights } from './mix.js';
import { generatorVerdict } from './send-delay.js';

export const CAPACITY_FILE = 'capacity.json';

export interface CapacityFlags extends RunFlags {
  strategy?: string;
  startRate?: number | string;
  step?: number | string;
  maxRate?: number | string;
  precision?: number | string;
  maxSteps?: number | string;
  /** Measured length of each rate. Default 10 s. */
  stepDuration?: string | number;
  /** Warm-up before each rate's measurement. Default 2 s. */
  warmup?: string | number;
  /** ack p99 limit. Default 100ms (spec: Limits). */
  ackP99?: string | number;
  /** answer p99 limit; not judged when absent. */
  answerP99?: string | number;
  /** Highest accepted error rate, `1%` or `0.01`. Default 1%. */
  maxErrorRate?: string | number;
  maxInFlight?: number | string;
  weights?: string[];
  seed?: number | string;
  ackOnly?: boolean;
}

export interface ResolvedCapacityConfig extends ResolvedRunConfig {
  capacity: {
    search: CapacitySearchOptions;
    criteria: CapacityCriteria;
    stepDurationMs: number;
    warmupMs: number;
    maxInFlight: number;
    weights: Record<string, number>;
    seed: number;
    ackOnly: boolean;
  };
}

function num(value: number | string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag}: "${value}" must be a number > 0`);
  return n;
}

function rate01(value: string | number | undefined): number {
  if (value === undefined) return 0.01;
  const text = String(value).trim();
  const n = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--max-error-rate: "${value}" must be 0..1 or a percentage like 1%`);
  return n;
}

/** Resolves capacity flags. Throws UsageError (DROIDCHECK_ERR_USAGE). */
export function resolveCapacityConfig(flags: CapacityFlags, env: NodeJS.ProcessEnv = process.env): ResolvedCapacityConfig {
  const base = resolveRunConfig(flags, env);
  const strategy = flags.strategy ?? 'step';
  if (strategy !== 'step' && strategy !== 'bisect') throw new UsageError(`--strategy: "${strategy}" must be step or bisect`);
  const startRate = num(flags.startRate, 50, '--start-rate');
  const maxRate = num(flags.maxRate, 2000, '--max-rate');
  const search: CapacitySearchOptions = {
    strategy,
    startRate,
    stepRate: num(flags.step, startRate, '--step'),
    maxRate,
    maxSteps: num(flags.maxSteps, 20, '--max-steps'),
    ...(flags.precision !== undefined ? { precision: num(flags.precision, 1, '--precision') } : {}),
  };
  return {
    ...base,
    capacity: {
      search,
      criteria: {
        ackP99Ms: parseDurationMs(flags.ackP99 ?? '100ms', '--ack-p99'),
        ...(flags.answerP99 !== undefined ? { answerP99Ms: parseDurationMs(flags.answerP99, '--answer-p99') } : {}),
        maxErrorRate: rate01(flags.maxErrorRate),
      },
      stepDurationMs: parseDurationMs(flags.stepDuration ?? '10s', '--step-duration'),
      warmupMs: parseDurationMs(flags.warmup ?? '2s', '--warmup'),
      maxInFlight: num(flags.maxInFlight, 100_000, '--max-in-flight'),
      weights: parseWeights(flags.weights ?? []),
      seed: flags.seed === undefined ? 1 : Number(flags.seed),
      ackOnly: flags.ackOnly ?? false,
    },
  };
}

export interface CapacitySummary {
  result: CapacityResult;
  exitCode: number;
  files: string[];
}

/** Throws ScenarioError / UsageError before anything is sent. */
export async function runCapacity(config: ResolvedCapacityConfig, io: LoadIO): Promise<CapacitySummary> {
  const suites = await loadSuites(config.paths);
  const c = config.capacity;
  const target = await openTarget(config);
  try {
    io.stderr.write(`droidcheck capacity: target ${target.baseUrl}, ${c.search.strategy} search ${c.search.startRate}..${c.search.maxRate} req/s\n`);
    const measure = async (rate: number): Promise<RateMeasurement> => {
      if (io.stopSignal?.aborted) throw new UsageError('capacity search interrupted');
      const mix = createMix(suites, { mode: config.mode, weights: c.weights, seed: c.seed });
      const { session, model } = await runLoadEngine({
        client: target.client,
        receiver: target.receiver,
        mix,
        model: { kind: 'open', startRate: rate, stages: [{ durationMs: c.warmupMs + c.stepDurationMs, target: rate }] },
        timeoutMs: config.timeoutMs,
        warmupMs: c.warmupMs,
        maxInFlight: c.maxInFlight,
        ackOnly: c.ackOnly,
        stopSignal: io.stopSignal,
        abortSignal: io.abortSignal,
      });
      const lat = session.ctx.latency;
      const pick = (m: 'ack' | 'answer' | 'sync') => {
        const s = lat.summary(m);
        return { count: s.count, p50: s.p50, p99: s.p99 };
      };
      const verdict = generatorVerdict(session.sendDelay.summary());
      const seconds = model.measuredMs / 1000;
      return {
        rate,
        achievedRate: seconds > 0 ? Math.round((session.stats.sent / seconds) * 10) / 10 : 0,
        sent: session.stats.sent,
        dropped: session.stats.dropped,
        errors: session.stats.errors,
        ack: pick('ack'),
        answer: pick('answer'),
        sync: pick('sync'),
        generatorBound: verdict.generatorBound,
        sendDelayP99Ms: verdict.p99Ms,
      };
    };
    const result = await searchCapacity(measure, c.search, c.criteria, (p) =>
      io.stderr.write(`  ${p.rate} req/s: ack p99 ${p.ack.p99} ms, answer p99 ${p.answer.p99} ms, errors ${p.errors}, dropped ${p.dropped} -> ${p.passed ? 'pass' : `FAIL (${p.reasons.join('; ')})`}\n`),
    );
    await mkdir(config.reportDir, { recursive: true });
    const file = join(config.reportDir, CAPACITY_FILE);
    const doc = { version: 1, tool: 'droidcheck', kind: 'capacity', settings: { ...publicSettings(config), capacity: c }, result };
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`, 'utf8');
    io.stdout.write(renderCapacity(result));
    io.stdout.write(`report: ${file}\n`);
    return { result, exitCode: result.maxRate === null ? EXIT.THRESHOLD_BREACHED : EXIT.OK, files: [file] };
  } finally {
    await target.close().catch(() => undefined);
  }
}
