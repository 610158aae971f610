/**
 * A job is a spec (docs/architecture.md, "One pipeline, many modes"). Every command that sends
 * (`run`, `load`, `capacity`, `redteam`, `webhook-policy`) is a JobSpec given to the one pipeline
 * (pipeline.ts `runJob(spec, config, io)`), which opens the one target (target.ts `openTarget`)
 * and reads the spec's fields, never the command's name: what it reads (`reads`), what it sends
 * and when (`send`: a request source and a scheduler given to the engine through `ctx.engine`,
 * or a driver of its own through `ctx.target`), how it judges (`judges`), what its report adds
 * (`kind`, `settings`, the sections `send` returns) and its target options (`target`).
 */
import type { Writable } from 'node:stream';
import type { Clock } from '../../clock.js';
import type { RunConfig } from '../../config/index.js';
import type { Grader, ModelBudget, ModelEndpoint } from '../../llm/index.js';
import type { Policy } from '../../policy/index.js';
import { LatencyRecorder } from '../../metrics/index.js';
import type { ReportDocument, ReportInput, ReportKind } from '../../report/index.js';
import {
  Tally,
  type ContractNotes,
  type EngineOptions,
  type EngineResult,
  type RequestOptions,
  type SetupFailure,
  type Shard,
} from '../../runner/index.js';
import type { Suite } from '../../scenario/index.js';
import type { PlannedModelCalls } from './budget.js';
import type { Target, TargetOptions } from './target.js';

/**
 * What the pipeline reads of a job's configuration: all a resolved job configuration holds but
 * its command (the spec says what the job is). Each command's own part (`load`, `capacity`,
 * `redteam`) is read by its spec only.
 */
export type JobConfig = Omit<RunConfig, 'command'>;

/**
 * Which suites a job reads and how `--shard i/n` deals them: whole scenarios (`run`,
 * `capacity`: a customer's stateful scenarios together), or only the state lanes (`load`: its
 * execution segment splits the arrivals, every shard runs every stateless scenario). `none`:
 * the job reads no suite (redteam, webhook-policy).
 */
export type SuiteSelection = { deal: 'scenarios' | 'lanes'; shard: Shard | undefined } | { deal: 'none' };

/** How a job judges what it sent; a field left out takes the default it names. */
interface JobJudging {
  /** The spec's limits (metrics/thresholds.ts) judged beside `--threshold` (unless `--no-default-thresholds`). Default true. */
  defaultThresholds?: boolean;
  /**
   * Who gets a grader (src/llm): `expectations`, the suites' `judge` and `similar` (run);
   * `oracles`, the red team's judged categories, when a judge model is named. Default none
   * (load, capacity: one model call per request would be the load).
   */
  grader?: 'expectations' | 'oracles';
  /** `simulate:` scenarios may run (run only: under load each arrival would be a model conversation). Default false. */
  simulates?: boolean;
  /** Async requests end at the acknowledgement (`--ack-only`): no answer webhook is awaited, no expectation judged. Default false. */
  ackOnly?: boolean;
}

/**
 * What every job is given beside its configuration (`run`, `runLoad`, `runCapacity`, `redteam`,
 * `webhookPolicy`, `doctor`): where it writes, the signals that stop it, its environment and
 * its clock. The CLI passes the terminal's (cli/job-options.ts `jobAction`); a script its own.
 */
export interface JobIO {
  /** The console summary (or doctor's checklist) and the list of files written. */
  stdout: Writable;
  /** Progress lines (redacted), above a live progress bar when one is drawn. */
  stderr: Writable & { isTTY?: boolean };
  /** Aborted: send no new requests, stop waiting (first SIGINT); the partial report is written (exit 130). */
  stopSignal?: AbortSignal | undefined;
  /** Aborted: cancel in-flight requests (grace over, or second SIGINT). */
  abortSignal?: AbortSignal | undefined;
  color?: boolean;
  /**
   * The environment with `.env` under it: every secret in it is redacted from what the job
   * writes; reporters read CI and GITHUB_STEP_SUMMARY. Default process.env.
   */
  env?: Record<string, string | undefined>;
  /** The job's time source (default systemClock): send times, latencies, the timeline, every deadline and wait. */
  clock?: Clock;
}

/**
 * What every job resolves to: its report (`R`: a ReportDocument for every job that sends, the
 * checklist for `doctor`), its exit code (docs/exit-codes.md) and the files it wrote.
 */
export interface JobResult<R = ReportDocument> {
  report: R;
  exitCode: number;
  /** Files written (report.json, junit.xml, ...); none for doctor. */
  files: string[];
}

/** @deprecated The name of {@link JobResult} before every job shared it. */
export type JobSummary = JobResult;

/** What a job's `send` works with. */
export interface JobContext<C extends JobConfig = JobConfig> {
  /** The configuration the job runs with (with the judge models the endpoint named: llm/discover.ts). */
  config: C;
  /** The suites selected (`reads`); none when the job reads none. */
  suites: Suite[];
  target: Target;
  /** Tells the reporters the job started; `planned` when the job knows it. */
  begin(planned: number | undefined): Promise<void>;
  /** One line to stderr, redacted, above a live progress bar. */
  log(line: string): void;
  /** The grader `judges.grader` asked for; undefined when none is needed or configured. */
  grader: Grader | undefined;
  /**
   * The run's budget of model calls (llm/budget.ts): the grader's calls go through it, and so
   * must every other model call the job makes (simulated customers, the red team's attacker).
   */
  budget: ModelBudget;
  /**
   * The model endpoint of the job's other model calls (the simulated customer, the rephraser, the
   * adaptive attacker: llm/endpoint.ts), opened and closed by the pipeline; undefined when no
   * model is configured. Each metres its calls through `budget`.
   */
  models: ModelEndpoint | undefined;
  /** The shop's policy as it applies to this target (`--policy`, droidcheck.policy.yaml), read once; undefined: none. */
  policy: Policy | undefined;
  /**
   * How each request is sent (target, deadline, retries, a remote target's round trip: `ackServer`;
   * from the spec's `judges`: ack-only, graded expectations left ungraded unless it grades them)
   * and what every job passes the engine alike: the reporters and live metrics as sinks, progress, signals.
   */
  engine: RequestOptions &
    Pick<EngineOptions, 'sinks' | 'onTick' | 'stopSignal' | 'clock' | 'firstAnswerTimeoutMs' | 'log'>;
}

/** What a job sent: an engine result (several, combined), or the figures of a driver of its own (drivenTraffic). */
export type JobTraffic = Pick<
  EngineResult,
  'startedAt' | 'finishedAt' | 'durationMs' | 'tally' | 'latency' | 'counts' | 'interrupted' | 'setupFailure' | 'notes'
> &
  Partial<Pick<EngineResult, 'records' | 'timeline' | 'sendDelay'>>;

/** The report sections a job adds to those every job has (build-report.ts ReportInput). */
type JobSections = Pick<ReportInput, 'load' | 'capacity' | 'redteam' | 'webhookPolicy'>;

/** What `send` returns. */
export interface JobOutput {
  traffic: JobTraffic;
  sections?: JobSections;
}

/** One job (see the module docs). `C`: its configuration. */
export interface JobSpec<C extends JobConfig = JobConfig> {
  /** The report's `kind`; the reporters' and the live metrics' name of the job. */
  kind: ReportKind;
  reads: SuiteSelection;
  judges: JobJudging;
  /**
   * The report's `settings`: never a token or secret (config/settings.ts publicSettings).
   * `prepared.policy`: the shop's policy the job reads (the same as its context's).
   */
  settings(config: C, prepared: { policy: Policy | undefined }): Record<string, unknown>;
  /** The progress reporter's line interval, ms (`load --progress`); undefined: the reporter's own. */
  progressMs?: number | undefined;
  /** What results.ndjson keeps of the answers: every one (run), or (default) those of failed requests (a load's would fill the disk). */
  ndjsonAnswers?: 'all' | 'failed';
  target?: TargetOptions;
  /**
   * The model calls its plan makes at most, per role and model, for the estimate printed before
   * sending (budget.ts; docs/llm.md, Budget). Default: a job that grades the suites'
   * expectations (`judges.grader: 'expectations'`) counts its suites' graded checks; others, none.
   */
  modelCalls?(config: C, prepared: { policy: Policy | undefined }): PlannedModelCalls[];
  send(ctx: JobContext<C>): Promise<JobOutput>;
}

/**
 * The traffic of a job that sends through a driver of its own (the red team's attacks,
 * webhook-policy's probes): every request it counted was sent, none dropped or left unsent.
 */
export function drivenTraffic(t: {
  startedAt: Date;
  finishedAt: Date;
  /** ms */
  durationMs: number;
  /** The requests it counted; none: it sent no request of its own (webhook-policy's probes are no tallied requests). */
  tally?: Tally;
  latency?: LatencyRecorder;
  notes?: ContractNotes;
  interrupted: boolean;
  setupFailure?: SetupFailure | undefined;
}): JobTraffic {
  const tally = (t.tally ?? new Tally()).snapshot();
  return {
    startedAt: t.startedAt.toISOString(),
    finishedAt: t.finishedAt.toISOString(),
    durationMs: t.durationMs,
    tally,
    latency: t.latency ?? new LatencyRecorder(),
    notes: t.notes?.list() ?? [],
    interrupted: t.interrupted,
    setupFailure: t.setupFailure,
    counts: { sent: tally.requests, warmupSent: 0, dropped: 0, notSent: 0 },
  };
}
