/**
 * Drives the engine the way `droidcheck run` does (a plan, closed model, records kept), over a
 * client and receiver the test owns (usually the loopback rig), and builds scenarios in code.
 */
import type { RetryPolicy } from '../../src/client/retry.js';
import type { DroidClient } from '../../src/client/index.js';
import type { Receiver, ReceiverStats } from '../../src/receiver/index.js';
import { buildReport, type ReportDocument } from '../../src/report/index.js';
import { PlanSource, runEngine, type EngineResult, type ModeOverride } from '../../src/runner/index.js';
import type { AnswerMode, Scenario, Suite } from '../../src/scenario/index.js';

export interface PlanOptions {
  mode?: ModeOverride;
  concurrency?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
  stopSignal?: AbortSignal;
  abortSignal?: AbortSignal;
  /** Default true, as in jobs. */
  setupBreaker?: boolean;
}

/** Runs every scenario x mode x repeat of `suites` once (closed model), keeping the records. */
export function runPlan(
  target: { client: DroidClient; receiver?: Receiver },
  suites: readonly Suite[],
  opts: PlanOptions = {},
): Promise<EngineResult> {
  return runEngine({
    source: PlanSource.of(suites, opts.mode),
    scheduler: { kind: 'closed', concurrency: opts.concurrency ?? 8 },
    client: target.client,
    receiver: target.receiver,
    timeoutMs: opts.timeoutMs ?? 10_000,
    retry: opts.retry,
    keepRecords: true,
    stopSignal: opts.stopSignal,
    abortSignal: opts.abortSignal,
    setupBreaker: opts.setupBreaker ?? true,
  });
}

/** A plain scenario built in code (no file). */
export function scenario(
  name: string,
  opts: { suite?: string; modes?: AnswerMode[]; humanMessage?: string; repeat?: number } = {},
): Scenario {
  const suite = opts.suite ?? 'load';
  return {
    suite,
    name,
    file: `${suite}.yaml`,
    location: { file: `${suite}.yaml`, line: 1, col: 1 },
    tags: [],
    modes: opts.modes,
    chatHistory: [],
    humanMessage: opts.humanMessage ?? 'Hello there!',
    expect: [],
    ...(opts.repeat !== undefined && { repeat: opts.repeat }),
  };
}

export function suiteOf(...scenarios: Scenario[]): Suite {
  const first = scenarios[0];
  return { name: first?.suite ?? 'load', file: first?.file ?? 'load.yaml', scenarios };
}

/** The report `droidcheck run` would build from `result` (no accounting step, no redaction). */
export function reportOf(
  result: EngineResult,
  receiver: ReceiverStats,
  opts: { suites?: readonly Suite[]; thresholds?: string[] } = {},
): ReportDocument {
  return buildReport({
    kind: 'run',
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    durationMs: result.durationMs,
    settings: {},
    tally: result.tally,
    records: result.records,
    latency: result.latency,
    receiver,
    ...(opts.thresholds && { thresholds: opts.thresholds }),
    ...(opts.suites && { suites: opts.suites }),
    notes: result.notes,
    interrupted: result.interrupted,
    timeline: result.timeline,
  });
}
