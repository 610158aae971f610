/**
 * scenario/: the scenario language (docs/architecture.md, Layout). YAML loading with
 * file:line:col for every problem (ScenarioError, DROIDCHECK_ERR_SCENARIO), expectation
 * matchers, tag/grep filters, JSON Schema export. No network.
 */
export type { SimulateSpec } from './types.js';
export type { AnswerMode, Expectation, ExpectationFailure, Scenario, Suite, SourceLocation, Step, SayStep, CallStep, CallName, Capture, PassRequirement, ReplySender, ReplyWait, IntentWebhookExpectation, ThinkTime } from './types.js';
export { MAX_THINK_MS } from './types.js';
export { pauseBudgetMs, withoutThink } from './think.js';
export type { UserSuite, UserScenario, UserChatTurn, UserStep, UserSimulate } from './schema.js';
export { needsSimulator, simulatedPathProblem, SIMULATION_FIELDS, DEFAULT_SIMULATE_MAX_TURNS } from './simulate.js';
export { userSuiteSchema, userScenarioSchema, stepSchema, CALL_NAMES, REPLY_SENDERS } from './schema.js';
export { renderTemplate, renderText, renderDeep, renderExpectations, templateNames, type Vars } from './templates.js';
export { CALL_REQUIRES } from './step-rules.js';
export { parseSuite } from './parse-suite.js';
export { loadSuites } from './load-suites.js';
export {
  evaluateExpectations,
  evaluatePlainExpectations,
  valueAtPath,
  type Evaluation,
  type EvaluationContext,
  type ExpectationGrader,
  type GradeOutcome,
  type GradeEntry,
  type JudgeErrorEntry,
  type GroundingContext,
} from './evaluate.js';
export {
  needsGrader,
  isGradedMatcher,
  GRADED_MATCHERS,
  DEFAULT_SIMILAR_THRESHOLD,
  DEFAULT_JUDGE_THRESHOLD,
  type GraderUse,
  type SimilarExpected,
  type JudgeExpected,
} from './matchers/graded.js';
export { filterScenarios, type ScenarioFilter } from './filter.js';
export { exportScenarioJsonSchema } from './json-schema.js';
export { parseLatency } from './normalise.js';
export { MATCHER_NAMES } from './matchers/registry.js';
export { MAX_SUITE_BYTES, MAX_ALIAS_COUNT, MAX_DEPTH } from './yaml-source.js';
export { initProject, STARTER_SUITE, type InitResult } from './starter.js';
