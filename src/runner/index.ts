/**
 * runner/: the one engine (docs/architecture.md, Layout): request sources (plan, mix), schedulers
 * (closed, open), `executeRequest`, sinks, the tally, the timeline and the accounting invariant.
 */
export * from './types.js';
export type { ExecuteContext, RequestOptions } from './context.js';
export { ContractNotes } from './contract-notes.js';
export { executeRequest } from './execute.js';
export type { CustomerSimulator } from './simulator-types.js';
export { modesFor, planRequests, stateKeys, type ModeOverride } from './plan.js';
export { PlanSource, MixSource } from './source.js';
export { createMix, parseWeights } from './mix.js';
export { constantRate, parseStages, type Stage } from './arrival-schedule.js';
export {
  SendDelayRecorder,
  generatorVerdict,
  type GeneratorVerdict,
  type SendDelaySummary,
} from './send-delay.js';
export { drainTimeoutFor, runEngine } from './engine.js';
export type { EngineOptions, EngineResult, ProgressSnapshot, RecordSink } from './engine-types.js';
export {
  Tally,
  verdictOf,
  type ScenarioTally,
  type TallySnapshot,
} from './tally.js';
export type {
  Timeline,
  TimelinePoint,
} from './timeline.js';
export { countBurst } from './burst-tally.js';
export { SetupBreaker, type SetupFailure } from './setup-breaker.js';
export { checkAccounting, type Accounting } from './accounting.js';
export { warmUpConnections } from './warm-up.js';
export { laneSuites, parseShard, shardSuites, type Shard } from './shard.js';
export {
  shareOf,
  type Segment,
} from './segments.js';
export { combineResults } from './combine.js';
export {
  headerTracer,
  newTraceparent,
  traceOf,
  type CallTrace,
  type ConversationTrace,
  type RequestTracer,
  type TurnTrace,
} from './trace.js';
