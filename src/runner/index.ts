/**
 * runner/: the one engine (docs/architecture.md, Layout): request sources (plan, mix), schedulers
 * (closed, open), `executeRequest`, sinks, the tally, the timeline and the accounting invariant.
 */
export * from './types.js';
export type { ExecuteContext, LatencySink, WebhookSetup } from './context.js';
export { ContractNotes, addContract } from './contract-notes.js';
export { executeRequest, newRecord, notSentRecord } from './execute.js';
export type { CustomerAsk, CustomerSimulation, CustomerSimulator, CustomerTurn } from './simulator-types.js';
export { modesFor, planRequests, chainPlan, stateKeys, type ModeOverride } from './plan.js';
export { PlanSource, MixSource, type RequestSource } from './source.js';
export { createMix, parseWeights, ScenarioMix, type MixEntry, type MixOptions } from './mix.js';
export { ArrivalSchedule, constantRate, expectedArrivals, parseStages, type Stage } from './arrival-schedule.js';
export { SendDelayRecorder, generatorVerdict, GENERATOR_BOUND_P99_MS, type GeneratorVerdict, type SendDelaySummary } from './send-delay.js';
export { runEngine, rateAtFn } from './engine.js';
export type { EngineOptions, EngineResult, ProgressSnapshot, RecordSink, SchedulerSpec } from './engine-types.js';
export { Tally, verdictOf, EXAMPLES_PER_SCENARIO, type ScenarioTally, type ScenarioExample, type TallySnapshot } from './tally.js';
export { MeasuredLatency, TimelineBuilder, type Timeline, type TimelinePoint, type IntervalLatency } from './timeline.js';
export { SetupBreaker, setupSignature, type SetupFailure } from './setup-breaker.js';
export { checkAccounting, assertRequestsAddUp, assertReceiverAddsUp, type Accounting } from './accounting.js';
export { warmUpConnections } from './warm-up.js';
export { laneSuites, parseShard, shardSuites, type Shard } from './shard.js';
export { WHOLE, takes, shareOf, shareBetween, shareOfRate, wholeIndex, segmentNotation, type Segment } from './segments.js';
export { combineResults } from './combine.js';
