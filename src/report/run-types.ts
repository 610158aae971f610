/**
 * The run types reporters consume, re-exported from where they live (runner/, scenario/,
 * receiver/) so report/ modules import them from one place. Types only, but the outcome list
 * (a leaf).
 */
export type { AnswerMode, Suite } from '../scenario/index.js';
export type { ReceiverStats } from '../receiver/index.js';
export type { Outcome } from '../outcomes.js';
export type {
  Accounting,
  ContractNote,
  ContractViolationRecord,
  GeneratorVerdict,
  RequestRecord,
  ScenarioTally,
  SendDelaySummary,
  TallySnapshot,
  Timeline,
  TimelinePoint,
} from '../runner/index.js';
