/**
 * `runCapacity(config, io)`: the capacity search as a library call (`droidcheck capacity`
 * wraps it): for each rate of the search (capacity-search.ts), one open-model engine run of
 * `--warmup` + `--step-duration` at that constant rate (longer when the rate is too low for the
 * samples its latency criteria need: capacity-search.ts stepLength), judged on its own figures:
 * latency, errors, drops and the share of its requests whose outcome passed (`--min-pass-rate`).
 * Its spec through the pipeline and reporters of every job (pipeline.ts): accounting over every
 * step, redaction, every report format, exit 130 on SIGINT with the curve measured so far. Exit
 * code: 0 when some rate passed (and, with `--min-capacity`, the knee is at least that), 99
 * otherwise (98 when a latency `--threshold` was not judged: the combined steps' generator was
 * bound, metrics/thresholds-trust.ts).
 */
import { PENDING_REQUEST_BYTES, publicSettings, type CapacityConfig } from '../../config/index.js';
import { InternalError, UsageError } from '../../errors.js';
import { burstShares } from '../../metrics/index.js';
import {
  MixSource,
  combineResults,
  drainTimeoutFor,
  generatorVerdict,
  runEngine,
  type EngineResult,
} from '../../runner/index.js';
import { pauseBudgetMs } from '../../scenario/index.js';
import { formatRate } from '../../units.js';
import { pointLine, searchCapacity, stepLength, type RateMeasurement, type StepNeeds } from './capacity-search.js';
import { inFlightLine, loadSection } from './load.js';
import type { JobContext, JobIO, JobOutput, JobSpec, JobResult } from '../pipeline/job-spec.js';
import { runJob } from '../pipeline/pipeline.js';

/**
 * One step's figures. Against a remote target the ack criterion is judged on `ackServer` (the
 * acknowledgement minus the network round trip: the 100 ms limit is the server's promise), as
 * the default thresholds of run and load are.
 */
function measurement(
  rate: number,
  engine: EngineResult,
  judgesAck: boolean,
  remote: boolean,
  length: { ms: number; lengthened?: string },
): RateMeasurement {
  const pick = (m: 'ack' | 'answer' | 'sync' | 'ackServer') => {
    const s = engine.latency.summary(m);
    return { count: s.count, p50: s.p50, p99: s.p99 };
  };
  const sendDelay = engine.sendDelay?.summary();
  const verdict = sendDelay ? generatorVerdict(sendDelay) : undefined;
  const seconds = engine.measuredMs / 1000;
  const bursts = engine.tally.bursts && burstShares(engine.tally.bursts);
  return {
    rate,
    achievedRate: seconds > 0 ? Math.round((engine.counts.sent / seconds) * 10) / 10 : 0,
    sent: engine.counts.sent,
    dropped: engine.counts.dropped,
    errors: engine.tally.requests - engine.tally.outcomes.answered - engine.tally.outcomes['not-sent'],
    ack: pick(remote ? 'ackServer' : 'ack'),
    answer: pick('answer'),
    sync: pick('sync'),
    generatorBound: verdict?.generatorBound ?? false,
    sendDelayP99Ms: verdict?.p99Ms ?? 0,
    stepMs: length.ms,
    ...(length.lengthened && { lengthened: length.lengthened }),
    ...(verdict?.offBy && { sendDelayOffByMs: verdict.offBy.ms }),
    judgesAck,
    // Answered right: the request's outcome passed (whatever fails an outcome fails it here too).
    answers: { passed: engine.tally.passed, judged: engine.tally.passed + engine.tally.failed },
    ...(bursts && { bursts }),
  };
}

/**
 * Throws like `run` (exit 2 before anything is sent). Its spec: reads the suites (`--shard` deals
 * whole scenarios), sends the mix at each rate of the search, leaves `judge`/`similar` ungraded,
 * judges its own criteria instead of the spec's limits, adds the load and capacity sections.
 */
export function runCapacity(config: CapacityConfig, io: JobIO): Promise<JobResult> {
  const spec: JobSpec<CapacityConfig> = {
    kind: 'capacity',
    reads: { deal: 'scenarios', shard: config.shard },
    judges: { defaultThresholds: false, ackOnly: config.capacity.ackOnly },
    settings: publicSettings,
    send: (ctx) => search(config, ctx),
  };
  return runJob(spec, config, io);
}

/** A step longer than this is refused, not run: a search of such steps would not end today. */
const LONGEST_STEP_MS = 3_600_000;

/**
 * Refuses (UsageError, DROIDCHECK_ERR_USAGE, exit 2) before anything is sent a search whose
 * criteria no step could judge: `--answer-p99` with no async answer in the mix (or with
 * `--ack-only`), or a start rate so low that a step would need more than an hour for the
 * samples of a p99.
 */
function refuseUnjudgeable(config: CapacityConfig, needs: StepNeeds): void {
  const c = config.capacity;
  if (c.answerP99Ms !== undefined && (c.ackOnly || needs.asyncShare === 0))
    throw new UsageError(
      `--answer-p99: ${c.ackOnly ? '--ack-only awaits no answer' : 'the mix sends no async request (--mode sync, or sync scenarios only)'}, so no step could judge an answer p99; drop --answer-p99${c.ackOnly ? ' or --ack-only' : ' or send async requests (--mode async)'}`,
    );
  const first = stepLength(c.startRate, needs);
  if (first.ms > LONGEST_STEP_MS)
    throw new UsageError(
      `--start-rate ${c.startRate} req/s: a step would be ${first.lengthened ?? ''}; more than an hour per rate: raise --start-rate`,
    );
}

/** The search (module docs): one engine run per rate, combined into one traffic. */
async function search(config: CapacityConfig, ctx: JobContext<CapacityConfig>): Promise<JobOutput> {
  const c = config.capacity;
  const mix = MixSource.of(ctx.suites, { mode: config.mode, weights: c.weights, seed: c.seed });
  const needs: StepNeeds = {
    stepDurationMs: c.stepDurationMs,
    asyncShare: mix.mix.asyncAnswerShare(),
    judgesLatency: mix.hasAsync(),
    maxErrorRate: c.maxErrorRate,
  };
  refuseUnjudgeable(config, needs);
  await ctx.begin(undefined);
  ctx.log(inFlightLine(c, config.timeoutMs, 'capacity'));
  ctx.log(
    `droidcheck capacity: ${c.strategy} search from ${formatRate(c.startRate)} to ${formatRate(c.maxRate)}, ${c.stepDurationMs / 1000} s per rate after ${c.warmupMs / 1000} s of warm-up`,
  );
  const results: EngineResult[] = [];
  const measure = async (rate: number): Promise<RateMeasurement | undefined> => {
    if (ctx.engine.stopSignal?.aborted) return undefined;
    const source = MixSource.of(ctx.suites, { mode: config.mode, weights: c.weights, seed: c.seed });
    const length = stepLength(rate, needs);
    if (length.lengthened) ctx.log(`droidcheck capacity: ${formatRate(rate)} ${length.lengthened}`);
    const engine = await runEngine({
      ...ctx.engine,
      source,
      scheduler: {
        kind: 'open',
        startRate: rate,
        stages: [{ durationMs: c.warmupMs + length.ms, target: rate }],
        maxInFlight: c.maxInFlight,
      },
      warmupMs: c.warmupMs,
      // The engine's default drain, plus the pauses of the longest conversation.
      drainTimeoutMs: drainTimeoutFor(config.timeoutMs) + pauseBudgetMs(ctx.suites),
    });
    results.push(engine);
    if (engine.interrupted || engine.setupFailure) return undefined;
    return measurement(rate, engine, source.hasAsync(), ctx.engine.rttMs !== undefined, length);
  };
  const capacity = await searchCapacity(
    measure,
    {
      strategy: c.strategy,
      startRate: c.startRate,
      stepRate: c.stepRate,
      maxRate: c.maxRate,
      precision: c.precision,
      maxSteps: c.maxSteps,
    },
    {
      ackP99Ms: c.ackP99Ms,
      answerP99Ms: c.answerP99Ms,
      maxErrorRate: c.maxErrorRate,
      minPassRate: c.minPassRate,
      minCapacity: c.minCapacity,
    },
    (p) => ctx.log(pointLine(p)),
  );
  if (results.length === 0) throw new InternalError('capacity: no rate was measured');
  const dropping = capacity.curve.find((p) => p.dropped > 0);
  if (dropping)
    ctx.log(
      `droidcheck capacity: arrivals were dropped at the in-flight cap of ${c.maxInFlight} requests (first at ${formatRate(dropping.rate)}): a rate that drops does not pass; raise the cap with --max-in-flight (~${PENDING_REQUEST_BYTES / 1000} KB of heap per pending request)`,
    );
  const traffic = combineResults(results);
  return { traffic, sections: { load: loadSection(traffic, c.maxInFlight), capacity } };
}
