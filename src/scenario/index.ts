/**
 * scenario/: the scenario language (docs/architecture.md, Layout). YAML loading with
 * file:line:col for every problem (ScenarioError, DROIDCHECK_ERR_SCENARIO), expectation
 * matchers, tag/grep filters, JSON Schema export. No network.
 */
export type {
  AnswerMode,
  Expectation,
  ExpectationFailure,
  Scenario,
  Suite,
  SourceLocation,
  Step,
  SayStep,
  CallStep,
  BurstStep,
  BurstFinal,
  CallName,
  ReplyWait,
  ThinkTime,
} from './types.js';
export { isAnswerStep, MAX_THINK_MS } from './types.js';
export { pauseBudgetMs, withoutThink } from './think.js';
export { withBursts } from './bursts.js';
export { needsSimulator } from './simulate.js';
export { renderTemplate, renderText, renderExpectations } from './templates.js';
export { parseSuite } from './parse-suite.js';
export type { CodeCheck, CodeCheckContext, CodeCheckResult } from './code.js';
export { loadSuites } from './load-suites.js';
export {
  evaluateExpectations,
  evaluatePlainExpectations,
  valueAtPath,
  type Evaluation,
  type EvaluationContext,
  type ExpectationGrader,
  type GradeScope,
  type GradeEntry,
  type JudgeErrorEntry,
} from './evaluate.js';
export { needsGrader } from './matchers/graded.js';
export { filterScenarios } from './filter.js';
export { exportScenarioJsonSchema } from './json-schema.js';
export { MATCHER_NAMES } from './matchers/registry.js';
export { MAX_SUITE_BYTES } from './yaml-source.js';
export { initProject, STARTER_SUITE, type InitResult } from './starter.js';
