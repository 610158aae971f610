/**
 * droidcheck's public programmatic API: named exports only. Every CLI command calls a function
 * exported here (STYLE.md, "A thin CLI over a library").
 *
 * - Jobs: `run`, `runLoad`, `runCapacity` (one pipeline: config, preflight, target, engine,
 *   accounting, redaction, report) with `resolveConfig` (flags > environment > `.env` > config
 *   file > defaults); `doctor` (the target's checklist) with `resolveDoctorConfig`.
 * - Parts: `createEmulator` (the whole service, for tests and `droidcheck emulate`),
 *   `createReceiver` (webhooks by requestId), `DroidClient` (one method per endpoint),
 *   `runEngine` (plan or mix, closed or open model), the scenario loader and matchers,
 *   `LatencyRecorder` and thresholds, the report builders and renderers.
 * - Errors: classes with stable codes (`err.code`, DROIDCHECK_ERR_*) and exit codes (`EXIT`).
 */
export {
  EXIT,
  DroidcheckError,
  ScenarioError,
  UsageError,
  ConfigError,
  ApiError,
  TransportError,
  TimeoutError,
  ContractError,
  AbortedError,
  ThresholdError,
  SetupError,
  InternalError,
  isDroidcheckError,
  type ExitCode,
  type SourceLocation,
} from './errors.js';
export { OUTCOMES, type Outcome } from './outcomes.js';
export { systemClock, type Clock } from './clock.js';

export { run, runLoad, runCapacity, startReceive, type JobIO, type JobSummary, type ReceiveService } from './jobs/index.js';
export { doctor, renderDoctorReport, measureRoundTrip, type DoctorIO, type DoctorResult, type DoctorCheck, type NetworkEstimate } from './jobs/index.js';
export {
  resolveConfig,
  resolveDoctorConfig,
  loadConfigFile,
  fileFlags,
  withDotenv,
  resolveReceiveConfig,
  type ReceiveFlags,
  type ResolvedReceiveConfig,
  type JobFlags,
  type JobKind,
  type ResolvedConfig,
} from './config/index.js';

export { createEmulator, type Emulator, type EmulatorOptions } from './emulator/index.js';
export { createReceiver, createStreamReceiver, type DeliverySource, type Receiver, type ReceiverOptions, type ReceiverStats, type WebhookMatch } from './receiver/index.js';
export { DroidClient, type DroidClientOptions, type ClientResponse } from './client/index.js';
export {
  checkContract,
  answerPayloadSchema,
  errorPayloadSchema,
  asyncAckSchema,
  messageForwardingSchema,
  intentWebhookRequestSchema,
  type AnswerPayload,
  type ErrorPayload,
  type AsyncAck,
  type MessageForwarding,
  type IntentWebhookRequest,
  type ContractCheck,
} from './contract/index.js';

export { loadSuites, parseSuite, evaluateExpectations, type Suite, type Scenario, type Expectation, type ExpectationFailure, type AnswerMode } from './scenario/index.js';
export {
  runEngine,
  executeRequest,
  PlanSource,
  MixSource,
  type EngineOptions,
  type EngineResult,
  type RecordSink,
  type RequestRecord,
  type PlannedRequest,
  type RequestSource,
} from './runner/index.js';
export { LatencyRecorder, LIMITS_MS, parseThreshold, evaluateThresholds, type ThresholdResult } from './metrics/index.js';
export {
  buildReport,
  renderConsoleSummary,
  renderJUnit,
  renderHtmlReport,
  renderMarkdownSummary,
  mergeReports,
  compareReports,
  readReportFile,
  reportDocumentSchema,
  createReporter,
  type ReportDocument,
  type ReportKind,
  type Reporter,
} from './report/index.js';
