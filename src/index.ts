/**
 * droidcheck's public programmatic API. Every CLI command calls a function exported here.
 */
export * from './errors.js';
export * from './contract/index.js';
export { DroidClient } from './client/index.js';
export type { DroidClientOptions, ClientResponse } from './client/index.js';
export { createEmulator } from './emulator/index.js';
export type { Emulator, EmulatorOptions } from './emulator/index.js';
export { createReceiver } from './receiver/index.js';
export type { Receiver, ReceiverOptions, ReceiverStats, WebhookMatch } from './receiver/index.js';
export { loadSuites, parseSuite, evaluateExpectations } from './scenario/index.js';
export type { Suite, Scenario, Expectation, ExpectationFailure, AnswerMode } from './scenario/index.js';
export * from './runner/index.js';
export { LatencyRecorder, LIMITS_MS, parseThreshold } from './metrics/index.js';
export { buildReport, renderConsoleSummary, writeJsonReport } from './report/index.js';
export type { ReportDocument } from './report/index.js';
export { resolveRunConfig, parseDurationMs, publicSettings } from './config.js';
export type { RunFlags, ResolvedRunConfig, ResolvedTarget } from './config.js';
export { openTarget } from './target.js';
export type { Target } from './target.js';
export { run } from './run.js';
export type { RunIO, RunSummary } from './run.js';
export * from './load/index.js';
