/**
 * The package's public surface (src/index.ts) is a promise to its users: a name that appears or
 * disappears here is an API change to make on purpose, with the snapshot updated in the same
 * commit. Runtime exports are pinned by the inline snapshot; types leave no trace at run time, so
 * the type-level check below names every exported type and `npm run typecheck` (part of npm test)
 * fails when one disappears.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type {
  AnswerMode,
  AnswerPayload,
  AsyncAck,
  CapacityFlags,
  ClientResponse,
  Clock,
  CommonFlags,
  CompareReportsOptions,
  CompareReportsResult,
  ConsoleSummaryOptions,
  ContractCheck,
  DeliverySource,
  DoctorCheck,
  DoctorFlags,
  DoctorIO,
  DoctorRenderInput,
  DoctorResult,
  DroidClientOptions,
  Emulator,
  EmulatorOptions,
  EmulatorStats,
  ErrorCode,
  ErrorPayload,
  Evaluation,
  EvaluationContext,
  ExitCode,
  Expectation,
  ExpectationFailure,
  FileIssue,
  ImportIo,
  ImportOptions,
  ImportResult,
  InitResult,
  IntentWebhookRequest,
  JobFlags,
  JobIO,
  JobKind,
  JobSummary,
  JUnitOptions,
  LoadFlags,
  MarkdownOptions,
  MergeReportsOptions,
  MergeReportsResult,
  MessageForwarding,
  Outcome,
  ReceiveFlags,
  ReceiveService,
  Receiver,
  ReceiverOptions,
  ReceiverStats,
  ReportComparison,
  ReportDocument,
  ReportKind,
  RequestRecord,
  ResolvedConfig,
  ResolvedDoctorConfig,
  ResolvedReceiveConfig,
  Scenario,
  SchemaKind,
  SourceLocation,
  StandaloneEmulator,
  StandaloneOptions,
  StreamReceiver,
  StreamReceiverOptions,
  Suite,
  Threshold,
  TieredContract,
  ValidateResult,
  WebhookMatch,
} from '../src/index.js';

/** Every exported type by name: removing or renaming one breaks `npm run typecheck`. */
export type ExportedTypes = [
  AnswerMode, AnswerPayload, AsyncAck, CapacityFlags, ClientResponse<unknown>, Clock, CommonFlags,
  CompareReportsOptions, CompareReportsResult, ConsoleSummaryOptions, ContractCheck<unknown>, DeliverySource,
  DoctorCheck, DoctorFlags, DoctorIO, DoctorRenderInput, DoctorResult, DroidClientOptions, Emulator,
  EmulatorOptions, EmulatorStats, ErrorCode, ErrorPayload, Evaluation, EvaluationContext, ExitCode,
  Expectation, ExpectationFailure, FileIssue, ImportIo, ImportOptions, ImportResult, InitResult,
  IntentWebhookRequest, JobFlags, JobIO, JobKind, JobSummary, JUnitOptions, LoadFlags,
  MarkdownOptions, MergeReportsOptions, MergeReportsResult, MessageForwarding, Outcome, ReceiveFlags,
  ReceiveService, Receiver, ReceiverOptions, ReceiverStats, ReportComparison, ReportDocument,
  ReportKind, RequestRecord, ResolvedConfig, ResolvedDoctorConfig, ResolvedReceiveConfig, Scenario,
  SchemaKind, SourceLocation, StandaloneEmulator, StandaloneOptions, StreamReceiver,
  StreamReceiverOptions, Suite, Threshold, TieredContract, ValidateResult, WebhookMatch,
];

/** Each command file and the exported function it is a thin wrapper over. */
const COMMANDS: Record<string, string> = {
  run: 'run',
  load: 'runLoad',
  capacity: 'runCapacity',
  compare: 'compareReports',
  merge: 'mergeReports',
  validate: 'validateScenarios',
  schema: 'jsonSchema',
  init: 'initProject',
  import: 'importConversations',
  emulate: 'startEmulatorStandalone',
  doctor: 'doctor',
  receive: 'startReceive',
};

describe('src/index.ts', () => {
  it('exports exactly these values', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
      [
        "AbortedError",
        "ApiError",
        "ConfigError",
        "ContractError",
        "DroidClient",
        "DroidcheckError",
        "ERROR_CODES",
        "EXIT",
        "InternalError",
        "JudgeError",
        "LIMITS_MS",
        "OUTCOMES",
        "ScenarioError",
        "SetupError",
        "ThresholdError",
        "TimeoutError",
        "TransportError",
        "UsageError",
        "answerPayloadSchema",
        "asyncAckSchema",
        "checkContract",
        "compareReports",
        "createEmulator",
        "createReceiver",
        "createStreamReceiver",
        "doctor",
        "errorPayloadSchema",
        "evaluateExpectations",
        "fileFlags",
        "importConversations",
        "initProject",
        "intentWebhookRequestSchema",
        "isDroidcheckError",
        "jsonSchema",
        "loadConfigFile",
        "loadSuites",
        "mergeReports",
        "messageForwardingSchema",
        "parseSuite",
        "parseThreshold",
        "readReportFile",
        "renderConsoleSummary",
        "renderDoctorReport",
        "renderHtmlReport",
        "renderJUnit",
        "renderMarkdownSummary",
        "reportDocumentSchema",
        "resolveConfig",
        "resolveDoctorConfig",
        "resolveReceiveConfig",
        "run",
        "runCapacity",
        "runLoad",
        "startEmulatorStandalone",
        "startReceive",
        "systemClock",
        "validateScenarios",
        "withDotenv",
      ]
    `);
  });

  it('gives every CLI command an exported function it calls', async () => {
    const api = (await import('../src/index.js')) as Record<string, unknown>;
    for (const [command, fn] of Object.entries(COMMANDS)) {
      expect(typeof api[fn], `${fn} (droidcheck ${command})`).toBe('function');
      const source = await readFile(new URL(`../src/cli/${command}-command.ts`, import.meta.url), 'utf8');
      expect(source, `src/cli/${command}-command.ts calls ${fn}`).toMatch(new RegExp(`\\b${fn}\\(`));
    }
  });
});
