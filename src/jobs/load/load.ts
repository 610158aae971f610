/**
 * `runLoad(config, io)`: a load test as a library call (`droidcheck load` wraps it). A weighted,
 * seeded mix of the selected scenarios (steps scenarios included), open model (`--rate` or
 * `--stages`: arrival rate, latency from the intended start) or closed model (`--concurrency`),
 * its spec (loadSpec) through the same pipeline and reporters as `run` (pipeline.ts), with the load section
 * (achieved rates, dropped arrivals, send delay and the generator-bound verdict) and the timeline.
 * Coordinated shards (docs/scale.md): `--shard i/n` runs execution segment i of n of the whole load
 * (runner/segments.ts: its arrivals of every stage, its virtual users), `--start-at` sleeps until
 * the instant every shard starts at (start-at.ts), so `merge` describes one load.
 */
import { systemClock, type Clock } from '../../clock.js';
import { getHeapStatistics } from 'node:v8';
import {
  heapAdvice,
  inFlightMemory,
  PENDING_REQUEST_BYTES,
  publicSettings,
  type LoadConfig,
  type ResolvedLoadSettings,
} from '../../config/index.js';
import type { LoadSection } from '../../report/index.js';
import { MixSource, generatorVerdict, runEngine, stateKeys, type EngineResult } from '../../runner/index.js';
import { pauseBudgetMs } from '../../scenario/index.js';
import { formatMs } from '../../units.js';
import type { JobIO, JobSpec, JobResult } from '../pipeline/job-spec.js';
import { runJob } from '../pipeline/pipeline.js';
import { checkStartAt, sleepUntil } from '../pipeline/start-at.js';

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The generator's verdict: the send delay (generatorVerdict), and dropped arrivals, which the
 * send delay cannot show (a dropped arrival is never sent): a load that dropped some did not
 * keep up, whatever its send delay.
 */
function generatorOf(
  engine: EngineResult,
  sendDelay: NonNullable<ReturnType<NonNullable<EngineResult['sendDelay']>['summary']>>,
  maxInFlight: number | undefined,
): ReturnType<typeof generatorVerdict> {
  const verdict = generatorVerdict(sendDelay);
  const { sent, dropped } = engine.counts;
  if (dropped === 0) return verdict;
  const share = `${((dropped / Math.max(1, sent + dropped)) * 100).toFixed(1)}%`;
  const cap =
    maxInFlight !== undefined
      ? ` at the in-flight cap of ${maxInFlight} requests (raise it with --max-in-flight; each pending request holds ~${PENDING_REQUEST_BYTES / 1000} KB of heap)`
      : '';
  return {
    ...verdict,
    message: `${dropped} arrivals (${share}) were dropped${cap}: the generator did not keep up with the arrival rate; send delay p99 ${sendDelay.p99} ms`,
  };
}

/** The load section of an engine result (rates in req/s, times in ms); `maxInFlight` names the cap in the verdict. */
export function loadSection(engine: EngineResult, maxInFlight?: number): LoadSection {
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
    ...(sendDelay &&
      engine.sendDelay && {
        sendDelay: { ...sendDelay, histogram: engine.sendDelay.encode() },
        generator: generatorOf(engine, sendDelay, maxInFlight),
      }),
  };
}

/**
 * `in-flight cap 144000 (derived: 1000 req/s × 120 s × 1.2); up to ~101 MB of heap at ~0.7 KB per
 * pending request (measured)`, and, when that many would not fit in this Node's heap, the heap
 * setting that holds them (heapAdvice; `heap`: V8's figures now, injected by tests).
 */
export function inFlightLine(
  s: Pick<ResolvedLoadSettings, 'maxInFlight' | 'maxInFlightDerived'>,
  timeoutMs: number,
  command = 'load',
  heap: { used_heap_size: number; heap_size_limit: number } = getHeapStatistics(),
): string {
  const how = s.maxInFlightDerived
    ? `derived from the peak arrival rate × --timeout ${formatMs(timeoutMs)} × 1.2, at least 1000`
    : 'from --max-in-flight';
  const advice = heapAdvice(s.maxInFlight, heap.used_heap_size, heap.heap_size_limit);
  return `droidcheck ${command}: in-flight cap ${s.maxInFlight} requests (${how}); up to ${inFlightMemory(s.maxInFlight)} of heap at ~${PENDING_REQUEST_BYTES / 1000} KB per pending request (measured); arrivals beyond it are dropped${advice ? `; ${advice}` : ''}`;
}

/**
 * `load` as a spec: reads the suites (`--shard` deals only the state lanes: its execution
 * segment splits the arrivals), sends the seeded mix through the open or closed model, leaves
 * `judge`/`similar` ungraded, judges the spec's limits, keeps the answers of failed requests, and
 * adds the load section. `startAtMs`: `--start-at` checked (ms since the epoch on `clock`'s wall clock).
 */
export function loadSpec(config: LoadConfig, startAtMs?: number, clock: Clock = systemClock): JobSpec<LoadConfig> {
  const s = config.load;
  return {
    kind: 'load',
    reads: { deal: 'lanes', shard: s.segment },
    judges: { ackOnly: s.ackOnly },
    settings: publicSettings,
    progressMs: s.progressMs,
    async send(ctx) {
      const source = MixSource.of(ctx.suites, { mode: config.mode, weights: s.weights, seed: s.seed });
      await ctx.begin(undefined);
      const m = s.model;
      const shard = s.segment ? `shard ${s.segment.index}/${s.segment.total} of ` : '';
      ctx.log(
        `droidcheck load: ${shard}${m.kind === 'open' ? `open model, ${m.stages.map((st) => `${st.durationMs / 1000} s to ${st.target} req/s`).join(', ')}` : `closed model, ${m.concurrency} in flight for ${m.durationMs / 1000} s`}${s.segment && m.kind === 'open' ? ` (this shard: arrival ${s.segment.index} of every ${s.segment.total})` : ''}`,
      );
      if (m.kind === 'open') ctx.log(inFlightLine(s, config.timeoutMs));
      if (s.segment && s.segment.total > 1) {
        const stateful = ctx.suites.flatMap((suite) => suite.scenarios).filter((sc) => stateKeys(sc).length > 0);
        if (stateful.length > 0)
          ctx.log(
            `droidcheck load: scenarios that act on a customer's state run in one shard each; this shard runs ${stateful.length}: ${stateful.map((sc) => `${sc.suite} › ${sc.name}`).join('; ')}`,
          );
      }
      let startLagMs: number | undefined;
      if (startAtMs !== undefined) {
        ctx.log(
          `droidcheck load: waiting until ${s.startAt} (${formatMs(Math.max(0, startAtMs - clock.wallNow().getTime()))})`,
        );
        startLagMs = await sleepUntil(startAtMs, clock, ctx.engine.stopSignal);
        if (startLagMs > 100)
          ctx.log(
            `droidcheck load: started ${formatMs(startLagMs)} after --start-at (the set-up took longer): this shard's timeline is shifted by that much`,
          );
      }
      const traffic = await runEngine({
        ...ctx.engine,
        source,
        scheduler:
          m.kind === 'open'
            ? {
                kind: 'open',
                startRate: m.startRate,
                stages: m.stages,
                maxInFlight: s.maxInFlight,
                maxRequests: s.maxRequests,
                segment: s.segment,
              }
            : { kind: 'closed', concurrency: m.concurrency, durationMs: m.durationMs, maxRequests: s.maxRequests },
        warmupMs: s.warmupMs,
        // A conversation that arrived near the end also waits out its pauses (think:) before its last turn.
        drainTimeoutMs: s.drainTimeoutMs + pauseBudgetMs(ctx.suites),
      });
      const load: LoadSection = {
        ...loadSection(traffic, m.kind === 'open' ? s.maxInFlight : undefined),
        ...(s.segment && { shards: [`${s.segment.index}/${s.segment.total}`] }),
        ...(s.startAt !== undefined && { startAt: s.startAt }),
        ...(startLagMs !== undefined && { startLagMs: Math.round(startLagMs * 1000) / 1000 }),
      };
      return { traffic, sections: { load } };
    },
  };
}

/**
 * Throws like `run` (exit 2 before anything is sent), and UsageError when `--start-at` is more
 * than 1 s in the past or more than 24 h ahead (on `io.clock`'s wall clock).
 */
export async function runLoad(config: LoadConfig, io: JobIO): Promise<JobResult> {
  const clock = io.clock ?? systemClock;
  const startAt = config.load.startAt;
  const startAtMs = startAt === undefined ? undefined : checkStartAt(startAt, clock.wallNow().getTime());
  return runJob(loadSpec(config, startAtMs, clock), config, io);
}
