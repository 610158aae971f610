/**
 * `buildReport(input)`: the ReportDocument of any job (run, load, capacity): compute first,
 * render second. Each section (sections/*.ts) computes its fields from the engine's result in
 * the registry's order; then the exit code is decided from them.
 */
import { EXIT } from '../errors.js';
import type { ThresholdResult } from '../metrics/index.js';
import type { SectionInput } from './section.js';
import { capacityFailed, capacityNotJudged, type CapacitySection } from './sections/capacity.js';
import type { CompareOptions } from './sections/comparison-schema.js';
import type { CoverageSnapshot } from '../coverage/index.js';
import { REPORT_VERSION, SECTIONS, TOOL_VERSION, type ReportDocument } from './sections/index.js';
import type { BudgetSection } from './sections/budget.js';
import type { JudgeSection } from './sections/judge.js';
import type { LoadSection } from './sections/load.js';
import type { NetworkSection } from './sections/network.js';
import type { PolicySection } from './sections/policy.js';
import { redteamReasons, type RedteamReportSection } from './sections/redteam.js';
import type { StreamSection } from './sections/stream.js';
import type { WebhookPolicyReport } from './sections/webhook-policy.js';

/** What buildReport reads: the engine's result and the job's own sections. */
export interface ReportInput extends SectionInput {
  /** A baseline report (`--baseline`): the result is compared with it. */
  baseline?: ReportDocument;
  compare?: CompareOptions;
  load?: LoadSection;
  capacity?: CapacitySection;
  judge?: JudgeSection;
  /** The run's model calls: spend per role and scenario, limits, prices (llm/budget.ts, shaped by jobs/). */
  budget?: BudgetSection;
  stream?: StreamSection;
  webhookPolicy?: WebhookPolicyReport;
  /**
   * A remote target's network round trip (jobs/pipeline/network.ts). Present: the acknowledgement limit is
   * judged on `ackServer` (ack minus the round trip), the raw `ack` shown beside it.
   */
  network?: NetworkSection;
  /** `droidcheck redteam`'s attacks and findings (jobs/redteam/redteam.ts). */
  redteam?: RedteamReportSection;
  /** The shop policy's verdict on every answer (jobs/pipeline/pipeline.ts, from the job's PolicyJudge). */
  policy?: PolicySection;
  /** What the job covered (jobs/pipeline/pipeline.ts, from the job's CoverageRecorder; docs/coverage.md). */
  coverage?: CoverageSnapshot;
  /** `--keep-answers`: `answers` keeps every turn, not only each scenario's last (sections/answers.ts). */
  keepAnswers?: boolean;
}

interface ExitCodeInput {
  interrupted: boolean;
  /** Failed records; decides exit 1 when `passRatesPassed` is not given. */
  failed: number;
  thresholds: readonly ThresholdResult[];
  /** Every scenario and suite met its pass-rate requirement (pass-rates.ts); wins over `failed`. */
  passRatesPassed?: boolean;
  regressed?: boolean;
  /**
   * The comparison with the baseline left its latency rows unjudged (either run's figures not
   * trusted), or a capacity search ended only on a step whose latency could not be judged.
   */
  latencyNotJudged?: boolean;
  /** Capacity: no rate passed, or the knee is below `--min-capacity`. */
  noCapacity?: boolean;
  /** Graded expectations without a verdict: a gate must not go green with grading unfinished. */
  judgeErrors?: number;
  /** Of judgeErrors, records left "not judged: budget spent": neither a pass nor a failure (98). */
  notJudged?: number;
  /** Red team: an attack succeeded above the allowed rate, or an attempt got no answer (sections/redteam.ts). */
  redteamFailed?: boolean;
}

/**
 * 130 interrupted; else 99 a threshold breached (or no capacity found); else 1 a pass-rate
 * requirement missed (or, without pass rates, a request failed) or a baseline regression; else
 * 98 a latency threshold or the baseline's latency rows not judged, the latency figures not
 * trusted (metrics/thresholds-trust.ts), or graded checks "not judged: budget spent" (the budget
 * of model calls ran out: llm/budget.ts; not a pass, and not a failure of the droid); else 0 (the exit codes every command shares). Judge
 * errors (graded expectations without a verdict) also give 1: they are not failures, but a gate
 * must not pass while grading is unfinished. 99 and 1 win over 98: they are verdicts on figures
 * droidcheck trusts (rates, counts, answers), so the run fails whatever its latency was.
 */
function exitCodeFor(input: ExitCodeInput): number {
  if (input.interrupted) return EXIT.INTERRUPTED;
  if (input.noCapacity || input.thresholds.some((t) => !t.passed)) return EXIT.THRESHOLD_BREACHED;
  const failed = input.passRatesPassed === undefined ? input.failed > 0 : !input.passRatesPassed;
  const judgeErrors = (input.judgeErrors ?? 0) - (input.notJudged ?? 0);
  if (failed || input.regressed || input.redteamFailed || judgeErrors > 0) return EXIT.EXPECTATION_FAILED;
  if (input.latencyNotJudged || input.thresholds.some((t) => t.status === 'not-judged') || (input.notJudged ?? 0) > 0)
    return EXIT.FIGURES_NOT_TRUSTED;
  return EXIT.OK;
}

/** What a caller may add to or override in the input: the judging options. */
export type BuildReportOptions = Partial<
  Pick<ReportInput, 'thresholds' | 'defaultThresholds' | 'suites' | 'baseline' | 'compare' | 'failOnFlaky'>
>;

/** The exit code of a report's figures (see {@link exitCodeFor}). */
export function exitCodeOf(doc: Omit<ReportDocument, 'exitCode'>, interrupted: boolean): number {
  return exitCodeFor({
    interrupted,
    // A capacity section judges the answers itself (its curve's --min-pass-rate): failed answers do not decide beside it.
    failed: doc.capacity ? 0 : doc.summary.failed,
    thresholds: doc.thresholds,
    ...(doc.passRates && { passRatesPassed: doc.passRates.passed }),
    regressed: doc.comparison?.regressed ?? false,
    noCapacity: doc.capacity !== undefined && capacityFailed(doc.capacity) && !capacityNotJudged(doc.capacity),
    latencyNotJudged:
      doc.comparison?.latencyNotJudged !== undefined || (doc.capacity !== undefined && capacityNotJudged(doc.capacity)),
    judgeErrors: doc.summary.judgeErrors ?? 0,
    notJudged:
      (doc.summary.notJudged ?? 0) + (doc.redteam?.categories.reduce((n, c) => n + (c.notJudged ?? 0), 0) ?? 0),
    redteamFailed: doc.redteam !== undefined && redteamReasons(doc.redteam).length > 0,
  });
}

/**
 * Computes the {@link ReportDocument} of `data` judged with `opts` (thresholds, suites, a
 * baseline). Throws ThresholdError (DROIDCHECK_ERR_THRESHOLD) for a bad threshold.
 */
export function buildReport(data: ReportInput, opts: BuildReportOptions = {}): ReportDocument {
  const input: ReportInput = { ...data, ...opts };
  const doc: Record<string, unknown> = {
    version: REPORT_VERSION,
    tool: 'droidcheck',
    toolVersion: TOOL_VERSION,
    kind: input.kind,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    durationMs: input.durationMs,
    settings: input.settings,
  };
  for (const section of SECTIONS) {
    for (const [key, value] of Object.entries(section.compute(input, doc))) if (value !== undefined) doc[key] = value;
  }
  const report = doc as Omit<ReportDocument, 'exitCode'>;
  return { ...report, exitCode: exitCodeOf(report, input.interrupted) };
}
