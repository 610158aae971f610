/**
 * droidcheck's public programmatic API: named exports only, each listed below with what it is
 * (the definitions' docstrings give shapes, units and errors). Every CLI command is a thin
 * wrapper over a function exported here, so a script can do whatever the command line does and
 * the command line has no behaviour a script cannot reach. The parameter and result types of
 * every exported function are exported too (test/api.test.ts checks it; test/exports.test.ts
 * pins the list). Engine parts (scheduler, request sources, histograms, reporters) are not: they
 * change with the implementation, and the jobs below are how they are used. Nothing inside src/
 * imports this file (.dependency-cruiser.cjs).
 */

// Importing this module changes no process-wide state: the CLI's process tuning (tick-shape.ts,
// v8-flags.ts) is a script's to opt into (docs/architecture.md, Design rules).

// ---- errors and shared vocabulary --------------------------------------------------------------
export {
  /** Exit codes: 0 passed, 1 expectation failed, 2 usage or scenario error, 70 internal, 98 latency thresholds not judged (figures not trusted), 99 threshold, 130 interrupted (docs/exit-codes.md). */
  EXIT,
  /** Every `DROIDCHECK_ERR_*` code that reaches a user or a report, with its meaning (docs/errors.md). */
  ERROR_CODES,
  /** Base class of every droidcheck error: a stable `code` (DROIDCHECK_ERR_*) and an `exitCode`. */
  DroidcheckError,
  /** A scenario suite or a profile is wrong; says where (file:line:col) and how to fix it (exit 2). */
  ScenarioError,
  /** The config file is wrong; every problem at file:line:col, `issues` (DROIDCHECK_ERR_CONFIG_FILE, exit 2). */
  ConfigFileError,
  /** The shop policy file is wrong; every problem at file:line:col, `issues` (DROIDCHECK_ERR_POLICY, exit 2; docs/policy.md). */
  PolicyError,
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
  /** The language model behind a `judge` or `similar` matcher gave no verdict (a judge error, never a pass). */
  JudgeError,
  /** A droidcheck bug, e.g. the accounting invariant broken (exit 70). */
  InternalError,
  /** True for any error of the classes above. */
  isDroidcheckError,
  type ErrorCode,
  type ExitCode,
  type FileIssue,
  type SourceLocation,
} from './errors.js';
/** The outcomes a request can end in (answered, failed, rejected, timeout, ...), in report order. */
export { OUTCOMES, type Outcome } from './outcomes.js';
/** The injected time source: `now()` monotonic ms, `wallNow()` a Date, `sleep(ms, signal)` on that clock. */
export { systemClock, type Clock } from './clock.js';
/**
 * `tuneHeapForPendingRequests()`: V8's heap flags `droidcheck load` and `capacity` set (about half
 * the memory per pending request for a few percent more CPU; bench/rss.js). Process-wide: call it
 * only in a process of your own; a flag given to node is left as given.
 */
export { tuneHeapForPendingRequests } from './v8-flags.js';

// ---- jobs: one per command ---------------------------------------------------------------------
export {
  /** `run(config, io)`: every planned scenario once per mode and repeat; resolves the report and the exit code. */
  run,
  /** `redteam(config, io)`: attacks on a sales bot, each judged by its category's oracle (docs/redteam.md). */
  redteam,
  /** `runLoad(config, io)`: a weighted mix at an arrival rate (open model) or N in flight (closed model). */
  runLoad,
  /** `runCapacity(config, io)`: the highest arrival rate that meets the criteria (step search). */
  runCapacity,
  /** `startReceive(config, io)`: `droidcheck receive`, the webhooks published to a Redis Stream (docs/scale.md). */
  startReceive,
  /** `doctor(config, io)`: the target's checklist (reachable, JSON, token, droid, test customer, webhook, secrets, clock, network), printed and resolved as its report. */
  doctor,
  /** `renderDoctorReport(result)`: doctor's checklist as text, each failure with its fix. */
  renderDoctorReport,
  /** What every job is given (streams, signals, environment, clock): one shape for run, load, capacity, redteam, webhook-policy and doctor. */
  type JobIO,
  /** What every job resolves to: `{ report, exitCode, files }` (doctor's report is its checklist). */
  type JobResult,
  type JobSummary,
  type ReceiveService,
  type DoctorReport,
  type DoctorCheck,
  /** `webhookPolicy(config, io)`: `droidcheck webhook-policy`, the service's webhook retry policy measured on the receiving side (the report's `webhookPolicy`). */
  webhookPolicy,
} from './jobs/index.js';
export type { DoctorRenderInput } from './jobs/doctor/render.js';
/** `compareReports(base, current, options)`: `droidcheck compare`; paths or ReportDocuments, noise-aware rules (docs/statistics.md). */
export { compareReports, type CompareReportsOptions, type CompareReportsResult } from './jobs/reports/compare.js';
/** `mergeReports(paths, options)`: `droidcheck merge`; shards' reports merged (histograms exactly), written, judged again. */
export { mergeReports, type MergeReportsOptions, type MergeReportsResult } from './jobs/reports/merge.js';
/**
 * `coverageGaps(report, options)`: `droidcheck coverage`; what a report's run covered, and with
 * `scenarios` the scenario table that covers the products it missed (docs/coverage.md).
 */
export { coverageGaps, type CoverageGapsOptions, type CoverageGapsResult } from './jobs/index.js';
/** `importConversations(options, io)`: `droidcheck import`; real conversations become a regression suite. */
export {
  importConversations,
  type ImportIo,
  type ImportOptions,
  type ImportResult,
} from './jobs/import/conversations.js';
/** `validateScenarios(paths, options)`: `droidcheck validate`; loads and checks suites and the config file without sending anything, and throws what `run` would throw before its first request. */
export { validateScenarios, type ValidateOptions, type ValidateResult } from './jobs/suites/validate.js';
/** `jsonSchema(kind)`: `droidcheck schema`; the JSON Schema of a scenario suite or of report.json. */
export { jsonSchema, type SchemaKind } from './jobs/suites/schema.js';
/** `initProject(dir, { force })`: `droidcheck init`; a starter suite, the scenario JSON Schema and .env.example. */
export { initProject, type InitResult } from './scenario/index.js';
/**
 * The shop's policy (docs/policy.md): `loadPolicy(file)` reads droidcheck.policy.yaml (PolicyError,
 * exit 2, for a malformed one); `checkAnswer(policy, payload, context)` gives the violations of one
 * answer payload, each with its rule id and evidence; a `CustomerRegistry` in the context lets
 * other-customer-data compare conversations.
 */
export {
  checkAnswer,
  CustomerRegistry,
  loadPolicy,
  parsePolicy,
  RULE_IDS,
  type CheckContext,
  type Policy,
  type PolicyFinding,
  type PolicyRuleId,
} from './policy/index.js';

// ---- configuration -----------------------------------------------------------------------------
export {
  /** `resolveConfig(command, flags, env, fileFlags)`: any command's configuration; flags > environment > .env > config file > defaults. */
  resolveConfig,
  /** `loadConfigFile(path, required)`: the config file's content (a missing default file is `{}`); ConfigFileError listing every problem. */
  loadConfigFile,
  /** `fileFlags(file, command)`: the flags a config file gives a command (its section over the shared keys). */
  fileFlags,
  /** `withDotenv(env, dir)`: the environment over the `.env` of `dir` (what is set wins). */
  withDotenv,
  type WebhookPolicyFlags,
  type WebhookPolicyConfig,
  type CommonFlags,
  type LoadFlags,
  type CapacityFlags,
  type DoctorFlags,
  type ResolvedDoctorConfig,
  type CoverageFlags,
  type ResolvedCoverageConfig,
  type ReceiveFlags,
  type ResolvedReceiveConfig,
  type JobFlags,
  type JobKind,
  type ResolvedConfig,
  type RunConfig,
  type LoadConfig,
  type CapacityConfig,
  type RedteamConfig,
  type ConfigOf,
  type UserConfig,
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
  type StandaloneEmulator,
  type StandaloneOptions,
} from './emulator/index.js';
export {
  /** `createReceiver(options)`: the webhook receiver (answers by requestId, messages, intents). */
  createReceiver,
  /** `createStreamReceiver(options)`: the same matching, fed from the Redis Stream `droidcheck receive` fills (`--deliveries`). */
  createStreamReceiver,
  type DeliverySource,
  type Receiver,
  type ReceiverOptions,
  type ReceiverStats,
  type StreamReceiver,
  type StreamReceiverOptions,
  type WebhookMatch,
} from './receiver/index.js';
/** `new DroidClient(options)`: one typed method per endpoint over an injected undici Dispatcher. */
export { DroidClient, type DroidClientOptions, type ClientResponse } from './client/index.js';
export {
  /** `checkContract(contract or schema, body)`: violations of the documented shape (findings), choice-tier differences and unknown fields (notes). */
  checkContract,
  /** The contract of every endpoint and webhook by name (documented tier, droidcheck's choice, and the source of each). */
  CONTRACTS,
  /** `unverifiedNote(endpoint, check, body)`: the one-line "unverified shape" note of a check, or undefined. */
  unverifiedNote,
  /** zod schemas of the documented shapes (docs/service-reference.md: answer payload, error payload, async ack, the webhooks). */
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
  type ContractName,
  type TieredContract,
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
  type Evaluation,
  type EvaluationContext,
  type AnswerMode,
  /** A `code:` assertion (docs/tables-and-code.md): `(value, ctx: CodeCheckContext) => CodeCheckResult | Promise<CodeCheckResult>`. */
  type CodeCheck,
  /** What a `code:` assertion is given beside the value: `{ payload, vars, scenario: { name, suite }, mode, turn }`. */
  type CodeCheckContext,
  /** What a `code:` assertion returns: `true`/`false` or `{ pass, message? }`. */
  type CodeCheckResult,
} from './scenario/index.js';

// ---- thresholds --------------------------------------------------------------------------------
export {
  /** The service's limits in ms (ack < 100 ms, answer and sync < 180 s). */
  LIMITS_MS,
  /** `parseThreshold("ack.p99 < 100ms")`; ThresholdError for a wrong expression. */
  parseThreshold,
  type Threshold,
} from './metrics/index.js';

// ---- reports -----------------------------------------------------------------------------------
import type {
  renderConsoleSummary as consoleRenderer,
  renderJUnit as junitRenderer,
  renderMarkdownSummary as markdownRenderer,
} from './report/index.js';
export {
  /** Renderers of a ReportDocument (e.g. one read back with readReportFile): text, JUnit XML, self-contained HTML, Markdown. */
  renderConsoleSummary,
  renderJUnit,
  renderHtmlReport,
  renderMarkdownSummary,
  /** `readReportFile(path)`: reads and validates a report.json; UsageError naming the file otherwise. */
  readReportFile,
  /** The zod schema of report.json (shipped as report.schema.json). */
  reportDocumentSchema,
  type ReportComparison,
  type ReportDocument,
  type ReportKind,
} from './report/index.js';
/** One line of results.ndjson: a request, its outcome, latencies (ms) and error code. */
export type { RequestRecord } from './runner/index.js';
/** Options of renderConsoleSummary (colour, width). */
export type ConsoleSummaryOptions = NonNullable<Parameters<typeof consoleRenderer>[1]>;
/** Options of renderJUnit. */
export type JUnitOptions = NonNullable<Parameters<typeof junitRenderer>[1]>;
/** Options of renderMarkdownSummary. */
export type MarkdownOptions = NonNullable<Parameters<typeof markdownRenderer>[1]>;
