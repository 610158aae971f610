/**
 * The one job pipeline of `run`, `load` and `capacity` (one pipeline, many modes: each job differs
 * only in its engine step, so selection, reports and exit codes behave the same in all three):
 *
 * 1. select: load the suites (a path that holds no scenario is exit 2), filter (`--tag`,
 *    `--grep`), shard (`--shard i/n`);
 * 2. preflight: what needs no network checked as `droidcheck validate` checks it (pre-send.ts:
 *    thresholds, models, a receiver the service can reach), baseline read, reporters built;
 *    against a remote target the doctor's cheap checks (preflight.ts: reachable, JSON, token, droid, the async endpoint's
 *    400s; exit 2 before anything is sent);
 * 3. target: the embedded emulator (default) or the real service, and the receiver; connections
 *    warmed up with a read-only call; against a remote target the network round trip measured
 *    (network.ts), so each acknowledgement also records `ackServer` and the report judges the
 *    acknowledgement limit on it;
 * 4. the job's body: one or more engine runs (runner/engine.ts);
 * 5. close the target (late deliveries and orphans counted), check the accounting invariant
 *    (requests = outcomes; received = the sum of the receiver's classifications);
 * 6. one report document (report/build-report.ts) with the job's `kind`, redacted once where it
 *    leaves the process, rendered by the same reporters for every job.
 * A job whose every request failed the same set-up way stops early and throws SetupError (exit
 * 2, one line); so does one whose answer webhooks arrive but cannot be matched (wrong secret, not
 * answers, another droid's: runner/wiring-stop.ts), after writing its partial report. An
 * interrupt (SIGINT) still writes the partial report; the exit code is 130.
 */
import type { Writable } from 'node:stream';
import type { Clock } from '../clock.js';
import { publicSettings, type ResolvedConfig } from '../config/index.js';
import { EXIT, SetupError, UsageError } from '../errors.js';
import { formatMs } from '../units.js';
import { jobSecrets } from './job-secrets.js';
import { createRedactor, redactValue } from '../redact.js';
import {
  buildReport,
  createReporter,
  endReporters,
  loadBaseline,
  type LoadSection,
  type CapacitySection,
  type Reporter,
  type ReportDocument,
  type StreamSection,
} from '../report/index.js';
import { retryPolicyFor } from '../client/retry.js';
import {
  checkAccounting,
  laneSuites,
  shardSuites,
  warmUpConnections,
  type EngineOptions,
  type EngineResult,
  type ProgressSnapshot,
  type RecordSink,
  type SetupFailure,
} from '../runner/index.js';
import { createGrader, discoverModels, formatLlmUsage, llmSettings, type Grader } from '../llm/index.js';
import { filterScenarios, loadSuites, withoutThink, type Suite } from '../scenario/index.js';
import { measureRoundTrip, type NetworkEstimate } from './network.js';
import { checkBeforeSending, type PreSendResult } from './pre-send.js';
import { preflight } from './preflight.js';
import { startJobMetrics, type JobMetrics } from './live-metrics.js';
import { openTarget, type Target } from './target.js';

export interface JobIO {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  /** Aborted: send no new requests (first SIGINT). */
  stopSignal?: AbortSignal;
  /** Aborted: cancel in-flight requests (grace over, or second SIGINT). */
  abortSignal?: AbortSignal;
  color?: boolean;
  /** For reporters: CI, GITHUB_STEP_SUMMARY. Default process.env. */
  env?: Record<string, string | undefined>;
  /** The engines' time source (default systemClock): send times, latencies, the timeline. */
  clock?: Clock;
}

export interface JobSummary {
  report: ReportDocument;
  exitCode: number;
  /** Files written (report.json, junit.xml, ...). */
  files: string[];
}

/** What a job's body works with. */
export interface JobContext {
  config: ResolvedConfig;
  suites: Suite[];
  target: Target;
  /** Reporters as engine sinks (onResult, backpressure). */
  sinks: RecordSink[];
  /** Reporters' onProgress. */
  onTick(snapshot: ProgressSnapshot): void;
  /** Tells the reporters the job started; `planned` when the job knows it. */
  begin(planned: number | undefined): Promise<void>;
  /** One line to stderr, redacted, above a live progress bar. */
  log(line: string): void;
  stopSignal: AbortSignal | undefined;
  abortSignal: AbortSignal | undefined;
  /** Grades `similar`/`judge` expectations (run); undefined when no suite uses them or the job does not grade. */
  grader: Grader | undefined;
  /** A remote target's network round trip, ms (network.ts): engines record `ackServer` with it. Undefined for the emulator. */
  rttMs: number | undefined;
  /** The engine options every job passes alike: target, deadline, retries, sinks, progress, signals, round trip. */
  engine: Pick<
    EngineOptions,
    | 'client'
    | 'receiver'
    | 'timeoutMs'
    | 'retry'
    | 'sinks'
    | 'onTick'
    | 'stopSignal'
    | 'abortSignal'
    | 'rttMs'
    | 'webhooks'
    | 'messageWebhookCheckMs'
    | 'clock'
  >;
}

/** What a job's body returns: its engine result (several, combined) and its own report sections. */
export interface JobOutput {
  engine: EngineResult;
  load?: LoadSection;
  capacity?: CapacitySection;
}

/** Scenarios with a `send` step that waits for the bot's reply, or for its silence, through the message webhook. */
function replyWaiters(suites: readonly Suite[]): number {
  return suites
    .flatMap((s) => s.scenarios)
    .filter((sc) =>
      sc.steps?.some((st) => st.kind === 'call' && (st.waitForReply !== undefined || st.noReplyWithin !== undefined)),
    ).length;
}

/**
 * Loads (unless given the suites `read` from `config.paths`, as validate.ts has them), filters
 * and shards the suites of `config`. Throws ScenarioError (file:line:col) and UsageError (exit 2)
 * when the paths hold no scenario or the filters match none.
 */
export async function selectSuites(config: ResolvedConfig, given?: Suite[]): Promise<Suite[]> {
  const read = given ?? (await loadSuites(config.paths));
  // --no-think: the conversations run without their pauses (think time never counts in a latency).
  const loaded = config.think ? read : withoutThink(read);
  if (loaded.every((s) => s.scenarios.length === 0)) {
    throw new UsageError(
      `no scenario found in ${config.paths.join(', ')}: give a suite file or a directory holding *.yaml suites (a suite has a "scenarios:" list; droidcheck init writes one)`,
    );
  }
  const filtering = config.tags.length > 0 || config.excludeTags.length > 0 || config.grep !== undefined;
  const filtered = filtering
    ? filterScenarios(loaded, {
        tags: config.tags,
        excludeTags: config.excludeTags,
        ...(config.grep !== undefined && { grep: config.grep }),
      })
    : loaded;
  if (filtered.length === 0) {
    const by = [
      config.tags.length > 0 ? `--tag ${config.tags.join(', ')}` : '',
      config.excludeTags.length > 0 ? `--exclude-tag ${config.excludeTags.join(', ')}` : '',
      config.grep !== undefined ? `--grep ${String(config.grep)}` : '',
    ];
    throw new UsageError(`no scenario is left after ${by.filter(Boolean).join(' and ')}`);
  }
  // load: --shard splits the arrivals (execution segments, config.load.segment); of the scenarios
  // it only deals the state lanes, each to one shard (runner/shard.ts).
  const load = config.command === 'load';
  const segment = config.command === 'load' ? config.load.segment : undefined;
  const suites = load ? laneSuites(filtered, segment) : shardSuites(filtered, config.shard);
  if (suites.length === 0) {
    const n = filtered.reduce((k, s) => k + s.scenarios.length, 0);
    const shard = load ? segment : config.shard;
    const why = load
      ? `every one of the ${n} scenarios changes a customer's state, and each customer's scenarios run in one shard only`
      : `${n} scenarios for ${shard?.total} shards, a customer's stateful scenarios together`;
    throw new UsageError(`shard ${shard?.index}/${shard?.total} holds no scenario (${why}): use fewer shards`);
  }
  return suites;
}

/** The reporters of `config` (the live progress bar first when none is named); exported for jobs outside the pipeline (redteam.ts). */
export function createReporters(config: ResolvedConfig, io: JobIO, redact: (text: string) => string): Reporter[] {
  const env = io.env ?? process.env;
  const names = [...config.reporters];
  const live = config.defaultReporters && !names.includes('progress');
  if (live) names.unshift('progress');
  const reporters = names.map((name) =>
    createReporter(name, {
      outDir: config.reportDir,
      stdout: io.stdout,
      stderr: io.stderr,
      env,
      color: io.color ?? false,
      verbose: config.verbose,
      redact,
      answers: config.command === 'run' ? 'all' : 'failed',
      ...(config.command === 'load' && { progressIntervalMs: config.load.progressMs }),
      ...(config.outputFile && { outputFile: config.outputFile }),
    }),
  );
  // The progress display stops (and clears its bar) before anything else prints at the end.
  return [...reporters.filter((r) => r.name === 'progress'), ...reporters.filter((r) => r.name !== 'progress')];
}

/** The one line of a set-up failure: what every request got, and what to fix. */
export function setupMessage(f: SetupFailure, target: Target, config: ResolvedConfig): string {
  const where =
    config.target.kind === 'remote'
      ? `${target.baseUrl} (droid ${config.target.droidId})`
      : `the embedded emulator at ${target.baseUrl}`;
  const [kind, detail] = f.signature.split(':');
  if (f.wiring) return f.error.message; // the receiver's sentence (runner/wiring-stop.ts) says it all
  // Its record already says the whole of it: the URL to configure and the setting.
  if (kind === 'no-delivery')
    return `the first ${f.records} async answer${f.records === 1 ? '' : 's'} from ${where} passed the deadline: ${f.error.message.replace(/^no webhook for \S+ within/, 'no webhook within')}`;
  let fix = 'check the target and its configuration (droidcheck doctor checks each step)';
  if (kind === 'rejected' && detail === '401')
    fix = 'the token was refused: check DROID_API_TOKEN (a regenerated token invalidates the old one)';
  else if (kind === 'rejected' && detail === '403')
    fix = 'access denied: check --droid-id and that the token may read this droid and its customers';
  else if (kind === 'rejected' && (detail === '404' || detail === '405'))
    fix = 'no such route: check --base-url (the service root, without /api/droids/...)';
  else if (kind === 'rejected' && detail === '400')
    fix = 'the service refused the request: check its settings (answer webhook URL, test customer) as the message says';
  else if (kind === 'transport')
    fix = `no connection (${detail}): check --base-url, the host and port, and that the service is up`;
  else if (kind === 'invalid-response')
    fix =
      'the target answered with something that is not JSON (an HTML page?): check --base-url points at the service API';
  const status = f.httpStatus !== undefined ? ` (HTTP ${f.httpStatus})` : '';
  return `every request to ${where} failed the same way${status} before any was answered (${f.records} request${f.records === 1 ? '' : 's'}): ${f.error.message}; ${fix}`;
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
 * Runs one job through the pipeline (see the module docs) with `body` as its traffic step.
 * Throws ScenarioError / UsageError / ConfigError / ThresholdError before anything is sent
 * (exit 2), SetupError when every request failed the same set-up way (exit 2), InternalError
 * when the accounting does not add up (exit 70). With `--metrics-port`, serves live metrics
 * (live-metrics.ts) from before the target opens until `--metrics-linger` after the report.
 */
export async function runJob(
  config: ResolvedConfig,
  io: JobIO,
  body: (ctx: JobContext) => Promise<JobOutput>,
): Promise<JobSummary> {
  const live = config.metrics ? await startJobMetrics({ ...config, metrics: config.metrics }) : undefined;
  let summary: JobSummary | undefined;
  try {
    summary = await runPipeline(config, io, body, live);
    return summary;
  } finally {
    await live?.close(summary ? config.metrics?.lingerMs : 0, io.stopSignal);
  }
}

/** What the steps before the traffic prepare: suites, reporters, redaction, the log line. */
interface Prepared {
  /** The configuration the job runs with: the given one, with the judge models the endpoint named (llm/discover.ts). */
  config: ResolvedConfig;
  suites: Suite[];
  graded: PreSendResult['graded'];
  baseline: Awaited<ReturnType<typeof loadBaseline>> | undefined;
  reporters: Reporter[];
  /** Redacts every known secret (the emulator's token too, once the target is open). */
  redact: (text: string) => string;
  /** Adds the secrets only known once the target is open. */
  addSecrets(more: (string | null | undefined)[]): void;
  log(line: string): void;
  settings: Record<string, unknown>;
  startedAt: string;
}

/** Steps 1 and 2: select, check what must hold before sending, build the reporters, preflight. */
async function prepare(given: ResolvedConfig, io: JobIO, live: JobMetrics | undefined): Promise<Prepared> {
  const suites = await selectSuites(given);
  // What must hold before sending, the one check `droidcheck validate` runs too (pre-send.ts);
  // a model nobody named is the one the endpoint serves (llm/discover.ts).
  const { config, graded } = await checkBeforeSending(given, suites, { discover: discoverModels });
  const baseline = config.baseline !== undefined ? await loadBaseline(config.baseline) : undefined;
  let secrets = jobSecrets(config, io.env ?? process.env);
  let redactor = createRedactor(secrets);
  const redact = (text: string): string => redactor(text);
  const reporters = createReporters(config, io, redact);
  const progress = reporters.find((r) => r.name === 'progress') as
    | (Reporter & { log?(line: string): void })
    | undefined;
  const log = (line: string): void =>
    progress?.log ? progress.log(redact(line)) : void io.stderr.write(`${redact(line)}\n`);
  const settings = publicSettings(config);
  const startedAt = new Date().toISOString();
  await preflight(config, log, io.stopSignal, suites);
  if (live) log(`droidcheck: metrics at ${live.url}`);
  const addSecrets = (more: (string | null | undefined)[]): void => {
    secrets = [...secrets, ...more];
    redactor = createRedactor(secrets);
  };
  return { config, suites, graded, baseline, reporters, redact, addSecrets, log, settings, startedAt };
}

/** Step 3, once the target is open: say where it is and what it needs, warm up, measure the round trip. */
export async function announceTarget(
  config: ResolvedConfig,
  target: Target,
  suites: readonly Suite[],
  io: JobIO,
  log: (line: string) => void,
): Promise<NetworkEstimate | undefined> {
  if (config.target.kind === 'remote') {
    log(`droidcheck: target ${target.baseUrl} (droid ${config.target.droidId})`);
    if (target.deliveries)
      log(
        `droidcheck: deliveries from stream ${target.deliveries.stream} at ${target.deliveries.redis} (shard ${target.deliveries.shardId}); the service's webhooks must point at \`droidcheck receive\``,
      );
    else log(`droidcheck: configure the service's answer webhook URL as ${target.webhookUrl}`);
    const waiting = replyWaiters(suites);
    if (waiting > 0) {
      const where = target.deliveries
        ? "`droidcheck receive`'s /messages"
        : (target.messagesUrl ?? '/messages of the receiver');
      log(
        `droidcheck: ${waiting} scenario(s) wait for the bot's reply (waitForReply, noReplyWithin): the service's message webhook must point at ${where}${config.verifyToken === null ? ' (set DROID_VERIFY_TOKEN to its verify token)' : ', with DROID_VERIFY_TOKEN as its verify token'}, or those steps fail after the message-webhook check (${formatMs(config.messageWebhookCheckMs)}, --message-webhook-check)`,
      );
    }
    if (config.webhookSecret === null && !target.deliveries)
      log('droidcheck: no DROID_WEBHOOK_SECRET set: deliveries are accepted without a secret');
  } else {
    log(
      `droidcheck: embedded emulator at ${target.baseUrl} (${target.emulator?.thread ?? 'inline'} thread), receiver at ${target.webhookUrl}`,
    );
  }
  if (config.warmUp) await warmUpConnections(target.client, config.concurrency, io.stopSignal);
  if (config.target.kind !== 'remote') return undefined;
  try {
    const network = await measureRoundTrip(target.baseUrl, { signal: io.stopSignal });
    log(
      `droidcheck: network round trip ${formatMs(network.rttMs)} (fastest of ${network.samples} TCP connects): the ack limit is judged on ack minus it (ackServer)`,
    );
    return network;
  } catch (err) {
    log(
      `droidcheck: could not measure the network round trip (${(err as Error).message}): the ack limit is judged on the client-side ack`,
    );
    return undefined;
  }
}

/** Step 4's context: the reporters as engine sinks, the engine options every job passes alike. */
function jobContext(
  config: ResolvedConfig,
  p: Prepared,
  target: Target,
  io: JobIO,
  live: JobMetrics | undefined,
  grader: Grader | undefined,
  network: NetworkEstimate | undefined,
): JobContext {
  const sinks: RecordSink[] = p.reporters
    .filter((r) => r.onResult)
    .map((r) => ({
      onRecord: (record, warmup) => r.onResult!(record, warmup),
      ...(r.drained && { drained: () => r.drained!() }),
    }));
  if (live) sinks.push(live.sink);
  const onTick = (s: ProgressSnapshot): void => {
    for (const r of p.reporters) r.onProgress?.(s);
    live?.onTick(s);
  };
  const rttMs = network?.rttMs;
  return {
    config,
    suites: p.suites,
    target,
    sinks,
    onTick,
    begin: async (planned) => {
      for (const r of p.reporters)
        await r.onRunStart?.({ startedAt: p.startedAt, kind: config.command, planned, settings: p.settings });
    },
    log: p.log,
    stopSignal: io.stopSignal,
    abortSignal: io.abortSignal,
    grader,
    rttMs,
    engine: {
      client: target.client,
      receiver: target.receiver,
      timeoutMs: config.timeoutMs,
      retry: retryPolicyFor(config.retries),
      sinks,
      onTick,
      stopSignal: io.stopSignal,
      abortSignal: io.abortSignal,
      rttMs,
      messageWebhookCheckMs: config.messageWebhookCheckMs,
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

/** Steps 5 and 6: set-up failure, accounting, the one report, every reporter. */
async function finish(
  config: ResolvedConfig,
  p: Prepared,
  target: Target,
  io: JobIO,
  live: JobMetrics | undefined,
  output: JobOutput,
  grader: Grader | undefined,
  network: NetworkEstimate | undefined,
): Promise<JobSummary> {
  const { engine } = output;
  // A wiring fault (SetupFailure.wiring) stops the run too, but its partial report is kept.
  const wiring = engine.setupFailure?.wiring && !engine.interrupted ? engine.setupFailure : undefined;
  if (engine.setupFailure && !engine.interrupted && !wiring) {
    for (const r of p.reporters) await r.onAbort?.();
    throw new SetupError(p.redact(setupMessage(engine.setupFailure, target, config)));
  }
  const receiver = target.receiver.stats();
  const accounting = checkAccounting({
    outcomes: engine.tally.outcomes,
    requests: engine.tally.requests,
    notSent: engine.counts.notSent,
    receiver,
    parked: target.receiver.parkedCount(),
    inbound: target.receiver.inboundStats(),
  });
  const report = buildReport({
    kind: config.command,
    startedAt: engine.startedAt,
    finishedAt: engine.finishedAt,
    durationMs: engine.durationMs,
    settings: p.settings,
    tally: engine.tally,
    records: engine.records,
    latency: engine.latency,
    receiver,
    accounting,
    thresholds: config.thresholds,
    defaultThresholds: config.defaultThresholds && config.command !== 'capacity',
    suites: p.suites,
    ...(p.baseline && { baseline: p.baseline }),
    notes: engine.notes,
    failOnFlaky: config.failOnFlaky,
    interrupted: engine.interrupted || Boolean(io.stopSignal?.aborted),
    ...(output.load && { load: output.load }),
    timeline: engine.timeline,
    ...(output.capacity && { capacity: output.capacity }),
    ...(grader && config.llm && { judge: { settings: llmSettings(config.llm), usage: grader.usage() } }),
    ...(network && { network }),
  });
  if (grader) p.log(`droidcheck: judge ${formatLlmUsage(grader.usage())}`);
  const stream = streamSection(target);
  const judged = wiring ? { ...report, exitCode: EXIT.USAGE } : report;
  const safe = redactValue(stream ? { ...judged, stream } : judged, p.redact);
  await endReporters(p.reporters, safe); // a file-system error on a report file: exit 2, naming it
  // After the reports are on disk, so a scraper that sees job_finished=1 can read them.
  live?.finish(output.engine);
  const files = p.reporters.flatMap((r) => r.files ?? []);
  if (files.length > 0) io.stdout.write(`reports: ${files.join(', ')}\n`);
  if (wiring) throw new SetupError(p.redact(setupMessage(wiring, target, config)));
  return { report: safe, exitCode: safe.exitCode, files };
}

async function runPipeline(
  given: ResolvedConfig,
  io: JobIO,
  body: (ctx: JobContext) => Promise<JobOutput>,
  live: JobMetrics | undefined,
): Promise<JobSummary> {
  const p = await prepare(given, io, live);
  const config = p.config;
  const target = await openTarget(config, p.log);
  live?.watch(target.receiver);
  const grader = p.graded.length > 0 && config.llm ? createGrader(config.llm) : undefined;
  p.addSecrets([target.emulator?.token]);
  let output: JobOutput;
  let network: NetworkEstimate | undefined;
  try {
    network = await announceTarget(config, target, p.suites, io, p.log);
    output = await body(jobContext(config, p, target, io, live, grader, network));
  } catch (err) {
    for (const r of p.reporters) await r.onAbort?.();
    throw err;
  } finally {
    // Emulator first (no more deliveries), then the receiver (parked deliveries become orphans).
    await target.close();
    await grader?.close();
  }
  return finish(config, p, target, io, live, output, grader, network);
}
