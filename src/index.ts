/**
 * droidcheck's public programmatic API: named exports only, each listed below with what it is
 * (the definitions' docstrings give shapes, units and errors). Every CLI command calls a
 * function exported here (STYLE.md, "A thin CLI over a library"); nothing inside src/ imports
 * this file (.dependency-cruiser.cjs).
 */

// ---- errors and shared vocabulary --------------------------------------------------------------
export {
  /** Exit codes: 0 passed, 1 expectation failed, 2 usage or scenario error, 70 internal, 99 threshold, 130 interrupted. */
  EXIT,
  /** Base class of every droidcheck error: a stable `code` (DROIDCHECK_ERR_*) and an `exitCode`. */
  DroidcheckError,
  /** A scenario or config file is wrong; says where (file:line:col) and how to fix it (exit 2). */
  ScenarioError,
  /** A flag or argument is wrong (exit 2). */
  UsageError,
  /** The configuration is wrong or incomplete (exit 2). */
  ConfigError,
  /** The service answered with a non-2xx status (`status`, `error`, `apiMessage`, `retryAfterS`). */
  ApiError,
  /** No HTTP answer (connection refused, reset...). */
  TransportError,
  /** No answer within the deadline. */
  TimeoutError,
  /** A 2xx body that is not JSON, or breaks the contract where the runner needs it. */
  ContractError,
  /** Cancelled by the run's abort (second SIGINT, grace over). */
  AbortedError,
  /** A threshold (SLO) expression is malformed or names an unknown metric (exit 2). */
  ThresholdError,
  /** Every request failed the same set-up way before any was answered (exit 2). */
  SetupError,
  /** A droidcheck bug, e.g. the accounting invariant broken (exit 70). */
  InternalError,
  /** True for any error of the classes above (by code). */
  isDroidcheckError,
  type ExitCode,
  type SourceLocation,
} from './errors.js';
/** The outcomes a request can end in (answered, failed, rejected, timeout, ...), in report order. */
export { OUTCOMES, type Outcome } from './outcomes.js';
/** The injected time source: `now()` monotonic ms, `wallNow()` a Date. */
export { systemClock, type Clock } from './clock.js';

// ---- jobs: one pipeline each (config, preflight, target, engine, accounting, redaction, report) --
export {
  /** `run(config, io)`: every planned scenario once per mode and repeat; resolves the report and the exit code. */
  run,
  redteam,
  /** `runLoad(config, io)`: a weighted mix at an arrival rate (open model) or N in flight (closed model). */
  runLoad,
  /** `runCapacity(config, io)`: the highest arrival rate that meets the criteria (step search). */
  runCapacity,
  /** `startReceive(config, io)`: `droidcheck receive`, the webhooks published to a Redis Stream (docs/scale.md). */
  startReceive,
  /** `doctor(config, io)`: the target's checklist (reachable, JSON, token, droid, test customer, webhook, secrets, clock, network). */
  doctor,
  /** `renderDoctorReport(result)`: doctor's checklist as text, each failure with its fix. */
  renderDoctorReport,
  /** `measureRoundTrip(baseUrl, opts)`: the network round trip to a target, ms (fastest of N TCP connects). */
  measureRoundTrip,
  type JobIO,
  type JobSummary,
  type ReceiveService,
  type DoctorIO,
  type DoctorResult,
  type DoctorCheck,
  type NetworkEstimate,
} from './jobs/index.js';
export {
  /** `resolveConfig(command, flags, env, fileFlags)`: flags > environment > .env > config file > defaults. */
  resolveConfig,
  /** `loadConfigFile(path, required)`: the config file's content (a missing default file is `{}`). */
  loadConfigFile,
  /** `fileFlags(file, command)`: the flags a config file gives a command (its section over the shared keys). */
  fileFlags,
  /** `withDotenv(env, dir)`: the environment over the `.env` of `dir` (what is set wins). */
  withDotenv,
  /** `resolveDoctorConfig(flags, env, fileFlags)`: doctor's configuration (same precedence). */
  resolveDoctorConfig,
  /** `resolveReceiveConfig(flags, env)`: `droidcheck receive`'s configuration (Redis URL, stream, listen address). */
  resolveReceiveConfig,
  type ReceiveFlags,
  type ResolvedReceiveConfig,
  type JobFlags,
  type JobKind,
  type ResolvedConfig,
} from './config/index.js';

// ---- parts -------------------------------------------------------------------------------------
export {
  /** `createEmulator(options)`: the whole service in-process (not listening until `listen()`). */
  createEmulator,
  /** `startEmulatorStandalone(options)`: what `droidcheck emulate` runs (listening, echo webhook). */
  startEmulatorStandalone,
  type Emulator,
  type EmulatorOptions,
  type EmulatorStats,
} from './emulator/index.js';
/** `createReceiver(options)`: the webhook receiver (answers by requestId, messages, intents). */
export {
  createReceiver,
  /** `createStreamReceiver(options)`: the same matching, fed from the Redis Stream `droidcheck receive` fills (`--deliveries`). */
  createStreamReceiver,
  type DeliverySource,
  type Receiver,
  type ReceiverOptions,
  type ReceiverStats,
  type WebhookMatch,
} from './receiver/index.js';
/** `new DroidClient(options)`: one typed method per endpoint over an injected undici Dispatcher. */
export { DroidClient, type DroidClientOptions, type ClientResponse } from './client/index.js';
export {
  /** `checkContract(contract or schema, body)`: violations of the documented shape (findings), choice-tier differences and unknown fields (notes). */
  checkContract,
  /** zod schemas of the documented shapes (spec: Answer payload fields; Error payload; 9; the docs' webhooks). */
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

// ---- scenarios ---------------------------------------------------------------------------------
export {
  /** `loadSuites(paths)`: YAML suites from files and directories; ScenarioError with file:line:col. */
  loadSuites,
  /** `parseSuite(text, file)`: one suite from YAML text. */
  parseSuite,
  /** `evaluateExpectations(expect, payload, ctx)`: failures (and judge errors) of a body. */
  evaluateExpectations,
  type Suite,
  type Scenario,
  type Expectation,
  type ExpectationFailure,
  type AnswerMode,
} from './scenario/index.js';

// ---- the engine --------------------------------------------------------------------------------
export {
  /** `runEngine(options)`: a request source through a scheduler (closed or open model); every request ends in one outcome. */
  runEngine,
  /** `executeRequest(planned, ctx)`: the one per-request path (an answer turn or a scenario's steps). */
  executeRequest,
  /** Request sources: a plan (scenario x mode x repeat, in chains) or a weighted, seeded mix. */
  PlanSource,
  MixSource,
  type EngineOptions,
  type EngineResult,
  type SchedulerSpec,
  type ProgressSnapshot,
  type RecordSink,
  type RequestRecord,
  type PlannedRequest,
  type RequestSource,
} from './runner/index.js';
export {
  /** HDR histograms of ack, answer, sync, reply and ackServer latency (record ms, stored in us). */
  LatencyRecorder,
  /** The service's limits in ms (ack < 100 ms, answer and sync < 180 s). */
  LIMITS_MS,
  /** `parseThreshold("ack.p99 < 100ms")`; ThresholdError for a wrong expression. */
  parseThreshold,
  /** Judges thresholds on a report's figures (a percentile only with enough samples). */
  evaluateThresholds,
  type ThresholdResult,
} from './metrics/index.js';

// ---- reports -----------------------------------------------------------------------------------
export {
  /** One ReportDocument (kind run, load or capacity) from a job's figures; compute first, render second. */
  buildReport,
  /** Renderers of a ReportDocument: text, JUnit XML, self-contained HTML, Markdown. */
  renderConsoleSummary,
  renderJUnit,
  renderHtmlReport,
  renderMarkdownSummary,
  /** Shards' reports merged into one (histograms merged exactly). */
  mergeReports,
  /** A report against a baseline, on noise-aware rules (docs/statistics.md). */
  compareReports,
  /** `readReportFile(path)`: reads and validates a report.json; UsageError naming the file otherwise. */
  readReportFile,
  /** The zod schema of report.json (shipped as report.schema.json). */
  reportDocumentSchema,
  /** A reporter by name (console, json, junit, html, markdown, ndjson, progress). */
  createReporter,
  /** Streams records as NDJSON, one serialisation and redaction per record; a RecordSink with backpressure. */
  NdjsonWriter,
  type ReportDocument,
  type ReportKind,
  type Reporter,
} from './report/index.js';
