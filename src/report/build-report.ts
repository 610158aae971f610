/**
 * `buildReport(input)`: computes the ReportDocument of any job (run, load, capacity): compute
 * first, render second. Outcomes are counted for every outcome name, thresholds judged (the
 * spec's limits by default, metrics/thresholds.ts), the per-request sections (scenarios, pass
 * rates, parity, accuracy) computed from the kept records (run), and the exit code decided
 * (docs/exit-codes.md).
 */
import { EXIT } from '../errors.js';
import { LATENCY_METRICS, LIMITS_MS, evaluateThresholds, minSamplesForStat, perLatencyMetric, type AckBasis, type LatencyMetric, type LatencyRecorder, type ThresholdResult } from '../metrics/index.js';
import { computeAccuracy } from './accuracy.js';
import { compareReports, type CompareOptions } from './compare.js';
import { computeParity } from './parity.js';
import { computePassRates } from './pass-rates.js';
import type { CapacitySection, FailedStep, JudgeSection, LatencyEntry, LoadSection, NetworkSection, ReportDocument, ReportKind, ReportSummary, ScenarioEntry } from './report-document.js';
import type { Accounting, ContractNote, Outcome, ReceiverStats, RequestRecord, Suite, TallySnapshot, Timeline } from './run-types.js';

export interface ReportInput {
  kind: ReportKind;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Settings of the job (config/settings.ts publicSettings: no secrets). */
  settings: Record<string, unknown>;
  tally: TallySnapshot;
  /** Every record of a run (plan order); gives the scenario entries, pass rates, parity and accuracy. */
  records?: readonly RequestRecord[];
  latency: LatencyRecorder;
  receiver: ReceiverStats;
  accounting?: Accounting;
  /** User thresholds, e.g. `["ack.p99 < 100ms"]`. */
  thresholds?: readonly string[];
  /** Judge the spec's limits too. Default true (false for capacity, which has its own criteria). */
  defaultThresholds?: boolean;
  /** The suites that were planned: pass-rate requirements and expected intents. */
  suites?: readonly Suite[];
  /** A baseline report (`--baseline`): the result is compared with it. */
  baseline?: ReportDocument;
  compare?: CompareOptions;
  notes?: readonly ContractNote[];
  interrupted: boolean;
  load?: LoadSection;
  timeline?: Timeline;
  capacity?: CapacitySection;
  judge?: JudgeSection;
  /** Flaky scenarios (passed some repeats, failed others) fail the pass-rate verdict (`--fail-on-flaky`). */
  failOnFlaky?: boolean;
  /**
   * A remote target's network round trip (jobs/network.ts). Present: the acknowledgement limit is
   * judged on `ackServer` (ack minus the round trip), the raw `ack` shown beside it.
   */
  network?: NetworkSection;
}

/** The summary of a tally (runner/tally.ts). */
export function summaryOfTally(t: TallySnapshot): ReportSummary {
  const scenarios = t.passed + t.failed + t.judgeErrors;
  return {
    requests: t.requests,
    sent: t.sent,
    outcomes: { ...t.outcomes },
    scenarios,
    passed: t.passed,
    failed: t.failed,
    passRate: scenarios === 0 ? 1 : t.passed / scenarios,
    retries: t.retries,
    ...(t.judgeErrors > 0 && { judgeErrors: t.judgeErrors }),
  };
}

/**
 * The statistic each metric's spec limit is judged on, as the default thresholds do
 * (metrics/thresholds.ts): ack p99 < 100 ms (needs 100 samples), answer and sync max < 180 s.
 */
export const LIMIT_STATS: Readonly<Record<LatencyMetric, 'p99' | 'max'>> = { ack: 'p99', answer: 'max', sync: 'max', reply: 'max', ackServer: 'p99' };

/**
 * Summary (ms) of each metric with the spec's limit and its verdict, judged like the default
 * thresholds: `too-few-samples` when the count cannot support the statistic (p99: 100),
 * `no-samples` when empty; `withinLimit` is false only for a `breach`. With `ackBasis`
 * `ackServer` (a remote target) the `ack` entry takes ackServer's verdict and says so (`judgedOn`).
 */
export function latencyEntries(recorder: LatencyRecorder, ackBasis: AckBasis = 'ack'): Record<LatencyMetric, LatencyEntry> {
  const entry = (m: LatencyMetric): LatencyEntry => {
    const s = recorder.summary(m);
    const stat = LIMIT_STATS[m];
    const limitVerdict: LatencyEntry['limitVerdict'] =
      s.count === 0 ? 'no-samples' : s.count < minSamplesForStat(stat) ? 'too-few-samples' : s[stat] < LIMITS_MS[m] ? 'ok' : 'breach';
    return { ...s, limitMs: LIMITS_MS[m], limitStat: stat, limitVerdict, withinLimit: limitVerdict !== 'breach' };
  };
  const entries = perLatencyMetric(entry);
  // A remote target: the acknowledgement's limit is the server's (ackServer); ack keeps its figures.
  if (ackBasis === 'ackServer') entries.ack = { ...entries.ack, limitVerdict: entries.ackServer.limitVerdict!, withinLimit: entries.ackServer.withinLimit, judgedOn: 'ackServer' };
  return entries;
}

const MAX_ANSWER_CHARS = 2000;

function failedStep(r: RequestRecord): FailedStep | undefined {
  const s = r.steps?.find((x) => !x.passed);
  return s ? { index: s.index, kind: s.kind, endpoint: s.endpoint } : undefined;
}

/** A scenario of calls only (no answer turn): the sum of its steps' response times, ms. */
function stepsMs(r: RequestRecord): number | undefined {
  let sum: number | undefined;
  for (const s of r.steps ?? []) if (s.latencyMs !== undefined) sum = (sum ?? 0) + s.latencyMs;
  return sum;
}

/** The report's view of one record: failed ones carry the answer text and the failing step. */
export function scenarioEntry(r: RequestRecord): ScenarioEntry {
  const latencyMs = (r.mode === 'sync' ? r.syncMs : r.answerMs) ?? stepsMs(r);
  const text = r.passed ? undefined : (r.answer as { answer?: unknown } | null | undefined)?.answer;
  const step = r.passed ? undefined : failedStep(r);
  return {
    suite: r.suite,
    name: r.scenario,
    file: r.file,
    mode: r.mode,
    ...(r.repeat !== undefined && r.repeat > 0 && { repeat: r.repeat }),
    outcome: r.outcome,
    passed: r.passed,
    ...(r.requestId !== undefined && { requestId: r.requestId }),
    ...(latencyMs !== undefined && { latencyMs: Math.round(latencyMs * 1000) / 1000 }),
    ...(r.retries !== undefined && r.retries > 0 && { retries: r.retries }),
    failures: r.failures,
    contractViolations: r.contractViolations,
    ...(r.error && { error: r.error }),
    ...(r.judgeErrors && { judgeErrors: r.judgeErrors }),
    ...(r.grades && { grades: r.grades }),
    ...(typeof text === 'string' && { answerText: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS - 1)}…` : text }),
    ...(step && { failedStep: step }),
  };
}

export interface ExitCodeInput {
  interrupted: boolean;
  /** Failed records; decides exit 1 when `passRatesPassed` is not given. */
  failed: number;
  thresholds: readonly ThresholdResult[];
  /** Every scenario and suite met its pass-rate requirement (pass-rates.ts); wins over `failed`. */
  passRatesPassed?: boolean;
  regressed?: boolean;
  /** Capacity: no rate passed. */
  noCapacity?: boolean;
  /** Graded expectations without a verdict: a gate must not go green with grading unfinished. */
  judgeErrors?: number;
}

/**
 * 130 interrupted; else 99 a threshold breached (or no capacity found); else 1 a pass-rate
 * requirement missed (or, without pass rates, a request failed) or a baseline regression; else
 * 0 (docs/exit-codes.md). Judge errors (graded expectations without a verdict) also give 1:
 * they are not failures, but a gate must not pass while grading is unfinished.
 */
export function exitCodeFor(input: ExitCodeInput): number {
  if (input.interrupted) return EXIT.INTERRUPTED;
  if (input.noCapacity || input.thresholds.some((t) => !t.passed)) return EXIT.THRESHOLD_BREACHED;
  const failed = input.passRatesPassed === undefined ? input.failed > 0 : !input.passRatesPassed;
  if (failed || input.regressed || (input.judgeErrors ?? 0) > 0) return EXIT.EXPECTATION_FAILED;
  return EXIT.OK;
}

const hasVerdict = (o: Outcome): boolean => o !== 'not-sent' && o !== 'interrupted';

/** What a caller may add to or override in the input: the judging options. */
export type BuildReportOptions = Partial<Pick<ReportInput, 'thresholds' | 'defaultThresholds' | 'suites' | 'baseline' | 'compare' | 'failOnFlaky'>>;

/**
 * Computes the {@link ReportDocument} of `data` judged with `opts` (thresholds, suites, a
 * baseline). Throws ThresholdError (DROIDCHECK_ERR_THRESHOLD) for a bad threshold.
 */
export function buildReport(data: ReportInput, opts: BuildReportOptions = {}): ReportDocument {
  const input: ReportInput = { ...data, ...opts };
  const summary = summaryOfTally(input.tally);
  const ackBasis: AckBasis = input.network ? 'ackServer' : 'ack';
  const latency = latencyEntries(input.latency, ackBasis);
  const histograms = input.latency.encodeAll();
  const receiver = { ...input.receiver };
  const thresholds = evaluateThresholds(input.thresholds ?? [], { summary, latency, receiver, histograms }, { defaults: input.defaultThresholds ?? input.kind !== 'capacity', ackBasis });
  const records = input.records ?? [];
  const judged = records.filter((r) => hasVerdict(r.outcome));
  const perRequest = input.kind === 'run';
  const passRates = perRequest ? computePassRates(judged, input.suites ?? [], { failOnFlaky: input.failOnFlaky ?? false }) : undefined;
  const report: ReportDocument = {
    version: 1,
    tool: 'droidcheck',
    kind: input.kind,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    durationMs: input.durationMs,
    settings: input.settings,
    summary,
    ...(input.accounting && { accounting: input.accounting }),
    ...(input.network && { network: input.network }),
    latency,
    histograms,
    receiver,
    thresholds,
    scenarios: records.map(scenarioEntry),
    ...(!perRequest && { tallies: input.tally.scenarios }),
    ...(input.notes && input.notes.length > 0 && { notes: [...input.notes] }),
    ...(passRates && { passRates }),
    ...(perRequest && { parity: computeParity(judged) }),
    ...(perRequest && input.suites && { accuracy: computeAccuracy(judged, input.suites) }),
    ...(input.load && { load: input.load }),
    ...(input.timeline && { timeline: input.timeline }),
    ...(input.capacity && { capacity: input.capacity }),
    ...(input.judge && { judge: input.judge }),
    exitCode: 0,
  };
  if (input.baseline) report.comparison = compareReports(input.baseline, report, input.compare);
  report.exitCode = exitCodeFor({
    interrupted: input.interrupted,
    // Capacity is judged on its rate curve; answers that miss an expectation do not decide it.
    failed: input.kind === 'capacity' ? 0 : summary.failed,
    thresholds,
    ...(passRates && { passRatesPassed: passRates.passed }),
    regressed: report.comparison?.regressed ?? false,
    noCapacity: input.capacity !== undefined && input.capacity.maxRate === null,
    judgeErrors: summary.judgeErrors ?? 0,
  });
  return report;
}

export { LATENCY_METRICS };
