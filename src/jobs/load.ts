/**
 * `runLoad(config, io)`: a load test as a library call (`droidcheck load` wraps it). A weighted,
 * seeded mix of the selected scenarios (steps scenarios included), open model (`--rate` or
 * `--stages`: arrival rate, latency from the intended start) or closed model (`--concurrency`),
 * through the same pipeline and reporters as `run` (pipeline.ts), with the load section
 * (achieved rates, dropped arrivals, send delay and the generator-bound verdict) and the timeline.
 */
import { retryPolicyFor } from '../client/retry.js';
import type { ResolvedConfig } from '../config/index.js';
import { InternalError } from '../errors.js';
import type { LoadSection } from '../report/index.js';
import { MixSource, generatorVerdict, runEngine, type EngineResult } from '../runner/index.js';
import { runJob, type JobIO, type JobSummary } from './pipeline.js';

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** The load section of an engine result (rates in req/s, times in ms). */
export function loadSection(engine: EngineResult): LoadSection {
  const seconds = engine.measuredMs / 1000;
  const sendDelay = engine.sendDelay?.summary();
  return {
    model: engine.model,
    sent: engine.counts.sent,
    warmupSent: engine.counts.warmupSent,
    dropped: engine.counts.dropped,
    measuredMs: round3(engine.measuredMs),
    achievedRate: seconds > 0 ? round3(engine.counts.sent / seconds) : 0,
    answeredRate: seconds > 0 ? round3(engine.tally.outcomes.answered / seconds) : 0,
    ...(sendDelay && engine.sendDelay && { sendDelay: { ...sendDelay, histogram: engine.sendDelay.encode() }, generator: generatorVerdict(sendDelay) }),
  };
}

/** Throws like `run` (exit 2 before anything is sent). */
export function runLoad(config: ResolvedConfig, io: JobIO): Promise<JobSummary> {
  const s = config.load;
  if (!s) throw new InternalError('runLoad: the configuration has no load settings (resolveConfig("load", ...))');
  return runJob({ ...config, command: 'load' }, io, async (ctx) => {
    const source = MixSource.of(ctx.suites, { mode: config.mode, weights: s.weights, seed: s.seed });
    await ctx.begin(undefined);
    const m = s.model;
    ctx.log(`droidcheck load: ${m.kind === 'open' ? `open model, ${m.stages.map((st) => `${st.durationMs / 1000} s to ${st.target} req/s`).join(', ')}` : `closed model, ${m.concurrency} in flight for ${m.durationMs / 1000} s`}`);
    const engine = await runEngine({
      source,
      scheduler:
        m.kind === 'open'
          ? { kind: 'open', startRate: m.startRate, stages: m.stages, maxInFlight: s.maxInFlight, maxRequests: s.maxRequests }
          : { kind: 'closed', concurrency: m.concurrency, durationMs: m.durationMs, maxRequests: s.maxRequests },
      client: ctx.target.client,
      receiver: ctx.target.receiver,
      timeoutMs: config.timeoutMs,
      retry: retryPolicyFor(config.retries),
      ackOnly: s.ackOnly,
      warmupMs: s.warmupMs,
      drainTimeoutMs: s.drainTimeoutMs,
      skipGraded: true,
      sinks: ctx.sinks,
      onTick: ctx.onTick,
      stopSignal: ctx.stopSignal,
      abortSignal: ctx.abortSignal,
      rttMs: ctx.rttMs,
    });
    return { engine, load: loadSection(engine) };
  });
}
