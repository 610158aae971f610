/**
 * The one job pipeline: every job is a spec (job-spec.ts) run through the same steps, so
 * selection, the target, redaction, accounting, reports and exit codes behave the same in all:
 *
 * 1. select: the suites the spec reads (select.ts: a path that holds no scenario is exit 2),
 *    filtered and dealt to this shard; none for a job that reads none;
 * 2. preflight: what needs no network checked as `droidcheck validate` checks it (pre-send.ts:
 *    thresholds, models, a receiver the service can reach), baseline read, reporters built;
 *    against a remote target the doctor's cheap checks (preflight.ts: reachable, JSON, token,
 *    droid, the async endpoint's 400s; exit 2 before anything is sent);
 * 3. target: openTarget (target.ts) with the spec's target options: the embedded emulator
 *    (default) or the real service, and the receiver; connections warmed up with a read-only
 *    call; against a remote target the network round trip measured (network.ts), so each
 *    acknowledgement also records `ackServer` and the report judges the acknowledgement limit on it;
 * 4. send: the spec's traffic (one or more engine runs, or a driver of its own);
 * 5. close the target (late deliveries and orphans counted), check the accounting invariant
 *    (requests = outcomes; received = the sum of the receiver's classifications);
 * 6. one report document (report/build-report.ts) of the spec's `kind`, judged as the spec says,
 *    redacted once where it leaves the process, rendered by the same reporters for every job.
 * A job whose every request failed the same set-up way stops early and throws SetupError (exit
 * 2, one line); so does one whose answer webhooks arrive but cannot be matched (wrong secret, not
 * answers, another droid's: runner/wiring-stop.ts), after writing its partial report. An
 * interrupt (SIGINT) still writes the partial report; the exit code is 130.
 */
import { basename, dirname, sep } from 'node:path';
import { wrapLine } from '../../text-table.js';
import { systemClock } from '../../clock.js';
import { EXIT, SetupError, UsageError } from '../../errors.js';
import { budgetReport, estimateLine, estimateModelCalls, suiteModelCalls } from './budget.js';
import { jobSecrets } from './job-secrets.js';
import { createRedactor, redactValue } from '../../redact.js';
import {
  buildReport,
  createReporter,
  endReporters,
  loadBaseline,
  type Reporter,
  type StreamSection,
} from '../../report/index.js';
import { retryPolicyFor } from '../../client/retry.js';
import { checkAccounting, headerTracer, type ProgressSnapshot, type RecordSink } from '../../runner/index.js';
import {
  createGrader,
  discoverModels,
  formatLlmUsage,
  llmSettings,
  ModelBudget,
  openModelEndpoint,
  type Grader,
  type ModelEndpoint,
} from '../../llm/index.js';
import type { JobTelemetry } from '../../telemetry/index.js';
import { CoverageRecorder } from '../../coverage/index.js';
import { demoCanariesOf, loadPolicy, PolicyJudge, policyApplies, type Policy } from '../../policy/index.js';
import type { Suite } from '../../scenario/index.js';
import { announceTarget, setupMessage } from './announce.js';
import type { JobConfig, JobContext, JobIO, JobOutput, JobSpec, JobResult } from './job-spec.js';
import type { NetworkEstimate } from './network.js';
import { checkBeforeSending } from './pre-send.js';
import { preflight } from './preflight.js';
import { selectSuites } from './select.js';
import { startJobMetrics, webhookTotals, type JobMetrics } from './live-metrics.js';
import { emulatorShop } from './shop.js';
import { openTarget, type Target } from './target.js';

/** The reporters of `config` (the live progress bar first when none is named), as `spec` keeps answers and paces progress. */
function createReporters(
  spec: Pick<JobSpec, 'ndjsonAnswers' | 'progressMs'>,
  config: JobConfig,
  io: JobIO,
  redact: (text: string) => string,
): Reporter[] {
  const names = [...config.reporters];
  if (config.defaultReporters && !names.includes('progress')) names.unshift('progress');
  const reporters = names.map((name) =>
    createReporter(name, {
      outDir: config.reportDir,
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env ?? process.env,
      color: io.color ?? false,
      verbose: config.verbose,
      redact,
      ndjsonAnswers: spec.ndjsonAnswers ?? 'failed',
      ...(spec.progressMs !== undefined && { progressIntervalMs: spec.progressMs }),
      ...(config.outputFile && { outputFile: config.outputFile }),
    }),
  );
  // The progress display stops (and clears its bar) before anything else prints at the end.
  return [...reporters.filter((r) => r.name === 'progress'), ...reporters.filter((r) => r.name !== 'progress')];
}

/** The stream section of a shard that read `--deliveries`: the stream, and the clock skew measured. */
function streamSection(target: Target): StreamSection | undefined {
  const d = target.deliveries;
  const skew = target.receiver.clockSkew();
  if (!d || !skew) return undefined;
  return {
    stream: d.stream,
    redis: d.redis,
    shards: [
      {
        shardId: d.shardId,
        redisMinusLocalUs: skew.redisMinusLocalUs,
        rttUs: skew.rttUs,
        measuredAt: skew.measuredAt,
        receivers: skew.receivers,
      },
    ],
  };
}

/**
 * Runs job `spec` with `config` through the pipeline (see the module docs). Throws
 * ScenarioError / UsageError / ConfigError / ThresholdError before anything is sent (exit 2),
 * SetupError when every request failed the same set-up way (exit 2), InternalError when the
 * accounting does not add up (exit 70). With `--metrics-port`, serves live metrics
 * (live-metrics.ts) from before the target opens until `--metrics-linger` after the report.
 */
export async function runJob<C extends JobConfig>(spec: JobSpec<C>, config: C, io: JobIO): Promise<JobResult> {
  const live = config.metrics ? await startJobMetrics(spec.kind, { ...config, metrics: config.metrics }) : undefined;
  const telemetry = config.telemetry ? await startTelemetry(spec.kind, config, io) : undefined;
  let summary: JobResult | undefined;
  try {
    summary = await runPipeline(spec, config, io, live, telemetry);
    return summary;
  } finally {
    // The last export holds the final counts (the figures were final before the reports).
    await telemetry?.shutdown();
    await live?.close(summary ? config.metrics?.lingerMs : 0, io.stopSignal);
  }
}

/**
 * OpenTelemetry export of the job (src/telemetry, docs/telemetry.md), loaded only now that it is
 * asked for: a run without export loads no OpenTelemetry package.
 */
async function startTelemetry(kind: string, config: JobConfig, io: JobIO): Promise<JobTelemetry> {
  const { startJobTelemetry } = await import('../../telemetry/index.js');
  return startJobTelemetry(config.telemetry!, {
    job: kind,
    shard: config.shard && `${config.shard.index}/${config.shard.total}`,
    clock: io.clock ?? systemClock,
    warn: (line) => void io.stderr.write(`droidcheck: ${line}\n`),
  });
}

/** What the steps before the traffic prepare: suites, reporters, redaction, the log line. */
interface Prepared<C extends JobConfig> {
  /** The configuration the job runs with: the given one, with the judge models the endpoint named (llm/discover.ts). */
  config: C;
  suites: Suite[];
  /** How many expectations the suites grade (judge, similar). */
  graded: number;
  baseline: Awaited<ReturnType<typeof loadBaseline>> | undefined;
  reporters: Reporter[];
  /** Redacts every known secret (the emulator's token too, once the target is open). */
  redact: (text: string) => string;
  /** Adds the secrets only known once the target is open. */
  addSecrets(more: (string | null | undefined)[]): void;
  log(line: string): void;
  settings: Record<string, unknown> & { defaultThresholds: boolean };
  startedAt: string;
  /** The shop's policy (`--policy`, droidcheck.policy.yaml) as it applies to this target, read once; undefined: none. */
  shop: Policy | undefined;
  /** It, judging every answer with its counts for the report; undefined: none. */
  policy: PolicyJudge | undefined;
  /** What the job covers, against the policy's shop (or the embedded emulator's demo shop): docs/coverage.md. */
  coverage: CoverageRecorder;
}

/** Steps 1 and 2: select, check what must hold before sending, build the reporters, preflight. */
async function prepare<C extends JobConfig>(
  spec: JobSpec<C>,
  given: C,
  io: JobIO,
  live: JobMetrics | undefined,
): Promise<Prepared<C>> {
  const suites = await selectSuites(given, spec.reads);
  // What must hold before sending, the one check `droidcheck validate` runs too (pre-send.ts);
  // a model nobody named is the one the endpoint serves (llm/discover.ts).
  const { config, graded } = await checkBeforeSending(given, suites, spec, { discover: discoverModels });
  const baseline = config.baseline !== undefined ? await loadBaseline(config.baseline) : undefined;
  // A malformed policy file is the user's to fix before anything is sent (PolicyError, exit 2).
  const file = config.policy !== undefined ? loadPolicy(config.policy) : undefined;
  const shop = file && policyApplies(file, config.target.kind) ? file : undefined;
  const policy = shop && new PolicyJudge(shop);
  // Coverage counts against the policy's shop; without a policy file, the embedded emulator's demo shop.
  const coverage = new CoverageRecorder({
    shop: shop ?? (file === undefined && config.target.kind === 'emulator' ? emulatorShop() : undefined),
    rules: policy !== undefined,
  });
  let secrets = jobSecrets(config, io.env ?? process.env);
  let redactor = createRedactor(secrets);
  const redact = (text: string): string => redactor(text);
  const reporters = createReporters(spec, config, io, redact);
  const progress = reporters.find((r) => r.name === 'progress') as
    | (Reporter & { log?(line: string): void })
    | undefined;
  const log = (line: string): void =>
    progress?.log ? progress.log(redact(line)) : void io.stderr.write(`${redact(line)}\n`);
  // Whether the spec's limits are judged, as the report's settings say it (merge judges them again so).
  const settings = {
    ...spec.settings(config, { policy: shop }),
    defaultThresholds: config.defaultThresholds && spec.judges.defaultThresholds !== false,
  };
  const startedAt = (io.clock ?? systemClock).wallNow().toISOString();
  // A job that reads no suite says nothing of which endpoint it uses: every one is checked.
  await preflight(config, log, io.stopSignal, spec.reads.deal === 'none' ? undefined : suites, io.clock);
  if (live) log(`droidcheck: metrics at ${live.url}`);
  if (file && !shop)
    log(
      `droidcheck: ${file.file} describes the embedded emulator's demo shop (appliesTo: embedded-emulator): not checked against a real service; describe your shop in it and remove appliesTo`,
    );
  // The demo's canaries are lines of the emulator's instructions: no real droid can leak them.
  const demoCanaries = shop && config.target.kind === 'remote' ? demoCanariesOf(shop.canaries) : [];
  if (shop && demoCanaries.length > 0)
    log(
      `droidcheck: ${shop.file}: canaries ${demoCanaries.map((c) => `"${c}"`).join(', ')} are the demo shop's (droidcheck init wrote them), lines of the embedded emulator's instructions: your droid's cannot leak them, so the canary rule and prompt-leak find nothing; list lines of your droid's own instructions under canaries:`,
    );
  const addSecrets = (more: (string | null | undefined)[]): void => {
    secrets = [...secrets, ...more];
    redactor = createRedactor(secrets);
  };
  return {
    config,
    suites,
    graded: graded.length,
    baseline,
    reporters,
    redact,
    addSecrets,
    log,
    settings,
    startedAt,
    shop,
    policy,
    coverage,
  };
}

/** The models a job's context carries: the grader `judges.grader` asked for, and the endpoint of the other model calls. */
interface Models {
  grader: Grader | undefined;
  endpoint: ModelEndpoint | undefined;
}

/** Step 4's context: the reporters as engine sinks, the engine options every job passes alike. */
function jobContext<C extends JobConfig>(
  spec: JobSpec<C>,
  p: Prepared<C>,
  target: Target,
  io: JobIO,
  live: JobMetrics | undefined,
  models: Models,
  network: NetworkEstimate | undefined,
  telemetry: JobTelemetry | undefined,
  budget: ModelBudget,
): JobContext<C> {
  const { config } = p;
  const sinks: RecordSink[] = p.reporters
    .filter((r) => r.onResult)
    .map((r) => ({
      onRecord: (record, warmup) => r.onResult!(record, warmup),
      ...(r.drained && { drained: () => r.drained!() }),
    }));
  if (live) sinks.push(live.sink);
  sinks.push({ onRecord: (record) => p.coverage.ended(record) });
  if (telemetry) sinks.push(telemetry.sink);
  const onTick = (s: ProgressSnapshot): void => {
    for (const r of p.reporters) r.onProgress?.(s);
    live?.onTick(s);
    telemetry?.onTick(s);
  };
  // Spans when traces are exported; the headers alone otherwise (runner/trace.ts).
  const tracer = telemetry?.tracerFor(target.baseUrl) ?? (config.traceContext ? headerTracer() : undefined);
  return {
    config,
    suites: p.suites,
    target,
    begin: async (planned) => {
      for (const r of p.reporters)
        await r.onRunStart?.({ startedAt: p.startedAt, kind: spec.kind, planned, settings: p.settings });
    },
    log: p.log,
    grader: models.grader,
    budget,
    models: models.endpoint,
    policy: p.shop,
    engine: {
      client: target.client,
      receiver: target.receiver,
      timeoutMs: config.timeoutMs,
      retry: retryPolicyFor(config.retries),
      sinks,
      onTick,
      stopSignal: io.stopSignal,
      abortSignal: io.abortSignal,
      rttMs: network?.rttMs,
      messageWebhookCheckMs: config.messageWebhookCheckMs,
      firstAnswerTimeoutMs: config.firstAnswerTimeoutMs,
      log: p.log,
      // How the spec judges, said once (job-spec.ts JobJudging): its engine runs read it from here.
      ackOnly: spec.judges.ackOnly ?? false,
      skipGraded: spec.judges.grader !== 'expectations',
      ...(tracer && { tracer, traceContext: config.traceContext }),
      ...(p.policy && { policy: p.policy }),
      coverage: p.coverage,
      ...(io.clock && { clock: io.clock }),
      ...(config.target.kind === 'remote' && {
        webhooks: {
          answer:
            target.webhookUrl ?? `\`droidcheck receive\` (the receivers of stream ${target.deliveries?.stream ?? ''})`,
          messages: target.messagesUrl ?? "`droidcheck receive`'s /messages",
          droidId: config.target.droidId,
          relay: target.deliveries !== undefined,
        },
      }),
    },
  };
}

/**
 * Before sending: the estimate of the model calls the plan makes and what they cost (budget.ts),
 * one line: the spec's own plan (`modelCalls`: the red team's attempts), else the suites' graded
 * expectations of a job that grades them. A `--max-cost` without a price for a model the plan
 * calls is the user's to fix (UsageError, exit 2): a budget in dollars cannot be kept on calls of
 * unknown cost.
 */
function announceModelCalls<C extends JobConfig>(
  spec: JobSpec<C>,
  config: C,
  p: Prepared<C>,
  budget: ModelBudget,
): void {
  const planned =
    spec.modelCalls?.(config, { policy: p.shop }) ??
    (spec.judges.grader === 'expectations' ? suiteModelCalls(p.suites, config.mode, config.llm) : undefined);
  const estimate = planned && estimateModelCalls(planned, budget);
  if (!estimate) return;
  if (config.budget.maxCostUsd !== undefined && estimate.unpriced.length > 0)
    throw new UsageError(
      `--max-cost $${config.budget.maxCostUsd}: no price for ${estimate.unpriced.join(', ')}; give it with --model-price ${estimate.unpriced[0]}=IN/OUT (USD per million input and output tokens) or modelPrices: in the config file`,
    );
  p.log(estimateLine(estimate, config.budget));
}

/** Steps 5 and 6: set-up failure, accounting, the one report, every reporter. */
async function finish<C extends JobConfig>(
  spec: JobSpec<C>,
  p: Prepared<C>,
  target: Target,
  io: JobIO,
  live: JobMetrics | undefined,
  output: JobOutput,
  grader: Grader | undefined,
  network: NetworkEstimate | undefined,
  telemetry: JobTelemetry | undefined,
  budget: ModelBudget,
): Promise<JobResult> {
  const { config } = p;
  const { traffic } = output;
  // A run stopped while its requests waited (a wiring fault, the first-answer timeout) keeps its partial report.
  const wiring = traffic.setupFailure?.partial && !traffic.interrupted ? traffic.setupFailure : undefined;
  if (traffic.setupFailure && !traffic.interrupted && !wiring) {
    for (const r of p.reporters) await r.onAbort?.();
    throw new SetupError(p.redact(setupMessage(traffic.setupFailure, target, config)));
  }
  const receiver = target.receiver.stats();
  const spent = budgetReport(budget.snapshot());
  const accounting = checkAccounting({
    outcomes: traffic.tally.outcomes,
    requests: traffic.tally.requests,
    notSent: traffic.counts.notSent,
    receiver,
    parked: target.receiver.parkedCount(),
    inbound: target.receiver.inboundStats(),
  });
  const report = buildReport({
    kind: spec.kind,
    startedAt: traffic.startedAt,
    finishedAt: traffic.finishedAt,
    durationMs: traffic.durationMs,
    settings: p.settings,
    tally: traffic.tally,
    ...(traffic.records && { records: traffic.records }),
    latency: traffic.latency,
    receiver,
    accounting,
    thresholds: config.thresholds,
    defaultThresholds: p.settings.defaultThresholds,
    suites: p.suites,
    ...(p.baseline && { baseline: p.baseline }),
    notes: traffic.notes,
    failOnFlaky: config.failOnFlaky,
    keepAnswers: config.keepAnswers,
    interrupted: traffic.interrupted || Boolean(io.stopSignal?.aborted),
    ...(traffic.timeline && { timeline: traffic.timeline }),
    ...output.sections,
    ...(grader && config.llm && { judge: { settings: llmSettings(config.llm), usage: grader.usage() } }),
    ...(spent && { budget: spent }),
    ...(network && { network }),
    ...(p.policy && { policy: p.policy.snapshot() }),
    // A job that sent no request of its own (webhook-policy's probes) covered nothing to tell.
    ...(traffic.tally.requests > 0 && { coverage: p.coverage.snapshot() }),
  });
  if (grader) p.log(`droidcheck: judge ${formatLlmUsage(grader.usage())}`);
  const stream = streamSection(target);
  const judged = wiring ? { ...report, exitCode: EXIT.USAGE } : report;
  const safe = redactValue(stream ? { ...judged, stream } : judged, p.redact);
  await endReporters(p.reporters, safe); // a file-system error on a report file: exit 2, naming it
  // After the reports are on disk, so a scraper that sees job_finished=1 can read them.
  live?.finish(traffic);
  telemetry?.finish(traffic.counts.dropped);
  const files = p.reporters.flatMap((r) => r.files ?? []);
  if (files.length > 0) io.stdout.write(`${reportsLine(files).join('\n')}\n`);
  if (wiring) throw new SetupError(p.redact(setupMessage(wiring, target, config)));
  return { report: safe, exitCode: safe.exitCode, files };
}

/**
 * Where the reports are, fitting 100 columns like the console summary above it:
 * `reports: reports/ (report.json, junit.xml, report.html)` when they share a folder, else
 * every path (wrapped).
 */
function reportsLine(files: readonly string[]): string[] {
  const dirs = new Set(files.map((f) => dirname(f)));
  const [dir] = dirs;
  const line =
    dirs.size === 1 && dir !== undefined
      ? `reports: ${dir.endsWith(sep) ? dir : `${dir}${sep}`} (${files.map((f) => basename(f)).join(', ')})`
      : `reports: ${files.join(', ')}`;
  return wrapLine(line, 100);
}

async function runPipeline<C extends JobConfig>(
  spec: JobSpec<C>,
  given: C,
  io: JobIO,
  live: JobMetrics | undefined,
  telemetry: JobTelemetry | undefined,
): Promise<JobResult> {
  const p = await prepare(spec, given, io, live);
  const config = p.config;
  // The receiver's deadlines are on the job's clock, as the engine's are.
  const target = await openTarget(config, p.log, {
    ...spec.target,
    clock: spec.target?.clock ?? io.clock,
    ...(telemetry && { emulatorTracing: telemetry.emulator }),
  });
  live?.watch(target.receiver);
  telemetry?.watch(() => webhookTotals(target.receiver));
  // Duplicate deliveries as events on their delivery spans (export on only: else nothing is called).
  if (telemetry?.duplicates) target.receiver.onDuplicate(telemetry.duplicates);
  // The coverage shares while the job runs, from the recorder its report's section comes from.
  live?.watchCoverage(() => p.coverage.shares());
  telemetry?.watchCoverage(() => p.coverage.shares());
  const budget = new ModelBudget(config.budget, telemetry?.modelCalls);
  announceModelCalls(spec, config, p, budget);
  // A grader for the suites' graded expectations, or for the red team's oracles when a judge model is named.
  const { grader: grades } = spec.judges;
  const graded =
    grades === 'expectations' ? p.graded > 0 : grades === 'oracles' && config.llm?.judgeModel !== undefined;
  const grader = graded && config.llm ? createGrader(config.llm, { budget }) : undefined;
  // The models' endpoint of the simulator, the rephraser and the attacker: opened once, no connection until used.
  const endpoint = config.llm ? openModelEndpoint(config.llm) : undefined;
  p.addSecrets([target.emulator?.token]);
  let output: JobOutput;
  let network: NetworkEstimate | undefined;
  try {
    network = await announceTarget(config, target, p.suites, io.stopSignal, p.log);
    output = await spec.send(jobContext(spec, p, target, io, live, { grader, endpoint }, network, telemetry, budget));
  } catch (err) {
    for (const r of p.reporters) await r.onAbort?.();
    throw err;
  } finally {
    // Emulator first (no more deliveries), then the receiver (parked deliveries become orphans).
    await target.close();
    await grader?.close();
    await endpoint?.close();
  }
  return finish(spec, p, target, io, live, output, grader, network, telemetry, budget);
}
