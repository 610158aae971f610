/**
 * `redteam(config, io)`: `droidcheck redteam` as a library call. Sends the red team's attacks
 * (src/redteam: seeded, per category, each decided by its oracle) through the answer endpoints of
 * the target the other jobs open (jobs/target.ts: the embedded emulator by default, or
 * `--base-url`; the receiver for async), and writes one report of kind `redteam` with the
 * reporters of every job.
 *
 * Each turn of an attack goes through the runner's per-request path (runner/execute.ts): its
 * latency lands in the report's histograms, its webhook is matched by the receiver, and the
 * accounting invariant (requests = outcomes; webhooks received = classified) is checked as for
 * any job. A judge model (`--judge-model`) grades the judged categories; `--rephrase` rewords
 * the attacks with it.
 *
 * Exit: 0 no category above `--max-success-rate` and every attempt answered and decided; 1
 * otherwise (redteam/section.ts `redteamVerdict`); 130 interrupted (the attempts decided so far
 * are reported). Usage mistakes (an unknown category or weakness, `--rephrase` without a model,
 * weaknesses against a real service) throw UsageError (exit 2) before anything is sent.
 */
import type { RedteamConfig } from '../config/index.js';
import { publicSettings } from '../config/index.js';
import { resolveEmulatorProfile, WEAKNESSES, type Weakness } from '../emulator/index.js';
import { SetupError, UsageError } from '../errors.js';
import {
  createDiskCache,
  createGrader,
  createOpenAiProvider,
  createRephraser,
  formatLlmUsage,
  llmSettings,
  NO_CACHE,
  type Grader,
  type LlmProvider,
  type Rephraser,
} from '../llm/index.js';
import { LatencyRecorder } from '../metrics/index.js';
import { createRedactor, redactValue } from '../redact.js';
import {
  buildRedteamSection,
  CATEGORY_IDS,
  executeRedteam,
  isCategoryId,
  type CategoryId,
  type RedteamAsk,
} from '../redteam/index.js';
import { buildReport } from '../report/index.js';
import {
  checkAccounting,
  ContractNotes,
  executeRequest,
  SetupBreaker,
  Tally,
  type ExecuteContext,
  type RequestRecord,
} from '../runner/index.js';
import type { Scenario } from '../scenario/index.js';
import { didYouMean } from '../suggest.js';
import { systemClock } from '../clock.js';
import { jobSecrets } from './job-secrets.js';
import { announceTarget, createReporters, setupMessage, type JobIO, type JobSummary } from './pipeline.js';
import { preflight } from './preflight.js';
import { openTarget, type Target } from './target.js';

/** `--category` values as category ids; UsageError (exit 2) with a did-you-mean for an unknown one. */
function parseCategories(given: readonly string[]): CategoryId[] | undefined {
  if (given.length === 0) return undefined;
  return given.map((id) => {
    if (isCategoryId(id)) return id;
    const near = didYouMean(id, CATEGORY_IDS);
    throw new UsageError(
      `--category: unknown category "${id}"${near ? ` — did you mean "${near}"?` : ''}; the categories are ${CATEGORY_IDS.join(', ')}`,
    );
  });
}

/** `--emulator-weaknesses` as weaknesses; UsageError (exit 2) for an unknown one, or for a real target. */
function parseWeaknesses(given: readonly string[] | undefined, config: RedteamConfig): Weakness[] | undefined {
  if (given === undefined) return undefined;
  if (config.target.kind === 'remote')
    throw new UsageError(
      '--emulator-weaknesses plants flaws in the embedded emulator; against a real service (--base-url) leave it out',
    );
  return given.map((w) => {
    if ((WEAKNESSES as readonly string[]).includes(w)) return w as Weakness;
    const near = didYouMean(w, WEAKNESSES);
    throw new UsageError(
      `--emulator-weaknesses: unknown weakness "${w}"${near ? ` — did you mean "${near}"?` : ''}; the weaknesses are ${WEAKNESSES.join(', ')}`,
    );
  });
}

/** What the attacks order: `--product`, else the embedded emulator's catalogue, else none (those categories are skipped). */
function productsOf(config: RedteamConfig): string[] {
  if (config.redteam.products.length > 0) return config.redteam.products;
  if (config.target.kind === 'remote') return [];
  const catalogue = resolveEmulatorProfile(undefined).catalogue;
  return catalogue ? catalogue.products.map((p) => p.name) : [];
}

/** The scenario every attack turn is recorded under (the report's tallies name it). */
function attackScenario(turn: { humanMessage: string; chatHistory: Scenario['chatHistory'] }): Scenario {
  return {
    suite: 'redteam',
    name: 'attack turns',
    file: '',
    location: { file: '', line: 1, col: 1 },
    tags: [],
    modes: undefined,
    chatHistory: turn.chatHistory,
    humanMessage: turn.humanMessage,
    expect: [],
  };
}

interface TurnLog {
  tally: Tally;
  latency: LatencyRecorder;
  notes: ContractNotes;
  breaker: SetupBreaker;
  onRecord(record: RequestRecord): void;
}

/**
 * The red team's `ask`: one answer turn through the runner (sync, or async + webhook), counted
 * in `log`; rejects with the turn's error when it got no answer (the attempt is then an error).
 */
function askThrough(target: Target, config: RedteamConfig, io: JobIO, log: TurnLog): RedteamAsk {
  const ctx: ExecuteContext = {
    client: target.client,
    receiver: target.receiver,
    clock: systemClock,
    timeoutMs: config.timeoutMs,
    latency: log.latency,
    abortSignal: io.abortSignal,
    notes: log.notes,
  };
  let seq = 0;
  return async (turn) => {
    const record = await executeRequest({ seq: seq++, scenario: attackScenario(turn), mode: config.redteam.mode }, ctx);
    log.tally.add(record);
    log.breaker.observe(record);
    log.onRecord(record);
    if (record.outcome !== 'answered')
      throw Object.assign(new Error(record.error?.message ?? `the turn ended ${record.outcome}`), {
        code: record.error?.code ?? 'DROIDCHECK_ERR_TRANSPORT',
      });
    return {
      payload: record.answer,
      latencyMs: (config.redteam.mode === 'sync' ? record.syncMs : record.answerMs) ?? 0,
    };
  };
}

/** The judge and the rephraser of the configuration (`--judge-model`, `--rephrase`), and their closing. */
function models(config: RedteamConfig): {
  grader: Grader | undefined;
  rephrase: Rephraser | undefined;
  provider: LlmProvider | undefined;
} {
  const llm = config.llm;
  if (config.redteam.rephrase && llm?.judgeModel === undefined)
    throw new UsageError('--rephrase has the judge model reword the attacks: give --judge-model too (docs/llm.md)');
  const grader = llm?.judgeModel !== undefined ? createGrader(llm) : undefined;
  if (!config.redteam.rephrase || !llm?.judgeModel) return { grader, rephrase: undefined, provider: undefined };
  const provider = createOpenAiProvider(llm);
  const cache = llm.cacheDir !== undefined ? createDiskCache(llm.cacheDir) : NO_CACHE;
  return { grader, provider, rephrase: createRephraser({ provider, model: llm.judgeModel, cache }) };
}

/** The report's settings: the target's and the attacks' (no scenario selection: the red team reads no suite). */
function redteamSettings(config: RedteamConfig): Record<string, unknown> & { redteam: { products: string[] } } {
  const {
    paths: _p,
    concurrency: _c,
    mode: _m,
    thresholds: _t,
    defaultThresholds: _d,
    ...rest
  } = publicSettings(config);
  return { ...rest, redteam: { ...config.redteam, products: productsOf(config) } };
}

/** Runs the red team (see module docs). Throws UsageError / ConfigError (exit 2) before anything is sent; SetupError (exit 2) when every turn failed the same set-up way. */
export async function redteam(config: RedteamConfig, io: JobIO): Promise<JobSummary> {
  const categories = parseCategories(config.redteam.categories);
  const weaknesses = parseWeaknesses(config.redteam.emulatorWeaknesses, config);
  const env = io.env ?? process.env;
  let redactor = createRedactor(jobSecrets(config, env));
  const redact = (text: string): string => redactor(text);
  const { grader, rephrase, provider } = models(config);
  const reporters = createReporters(config, io, redact);
  const log = (line: string): void => void io.stderr.write(`${redact(line)}\n`);
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const settings = redteamSettings(config);
  let target: Target | undefined;
  try {
    await preflight(config, log, io.stopSignal);
    target = await openTarget(config, log, weaknesses ? { weaknesses } : {});
    const opened = target;
    redactor = createRedactor(jobSecrets(config, env, target.emulator?.token));
    await announceTarget(config, target, [], io, log);
    if (weaknesses && weaknesses.length > 0)
      log(`droidcheck: the embedded emulator has planted weaknesses: ${weaknesses.join(', ')}`);
    for (const r of reporters) await r.onRunStart?.({ startedAt, kind: 'redteam', planned: undefined, settings });
    const turns: TurnLog = {
      tally: new Tally(),
      latency: new LatencyRecorder(),
      notes: new ContractNotes(),
      breaker: new SetupBreaker(),
      onRecord: (record) => {
        for (const r of reporters) r.onResult?.(record, false);
      },
    };
    const run = await executeRedteam({
      ask: askThrough(opened, config, io, turns),
      ...(categories && { categories }),
      attempts: config.redteam.attempts,
      seed: config.redteam.seed,
      products: settings.redteam.products,
      canaries: config.redteam.canaries,
      ...(grader && { judge: grader }),
      ...(rephrase && { rephrase }),
      ...(io.stopSignal && { signal: io.stopSignal }),
    });
    await opened.close();
    return await finish({
      config,
      io,
      reporters,
      redact,
      log,
      startedAt,
      t0,
      settings,
      target: opened,
      turns,
      run,
      grader,
    });
  } catch (err) {
    for (const r of reporters) await r.onAbort?.();
    throw err;
  } finally {
    await target?.close();
    await grader?.close();
    await provider?.close();
  }
}

interface Finish {
  config: RedteamConfig;
  io: JobIO;
  reporters: ReturnType<typeof createReporters>;
  redact: (text: string) => string;
  log: (line: string) => void;
  startedAt: string;
  t0: number;
  settings: Record<string, unknown>;
  target: Target;
  turns: TurnLog;
  run: Awaited<ReturnType<typeof executeRedteam>>;
  grader: Grader | undefined;
}

/** The accounting, the one report (kind `redteam`), every reporter. */
async function finish(f: Finish): Promise<JobSummary> {
  const { config, io, turns, target } = f;
  const interrupted = f.run.interrupted || Boolean(io.stopSignal?.aborted);
  const failure = turns.breaker.failure();
  if (failure && turns.tally.outcomes.answered === 0 && !interrupted)
    throw new SetupError(f.redact(setupMessage(failure, target, config)));
  const receiver = target.receiver.stats();
  const accounting = checkAccounting({
    outcomes: turns.tally.outcomes,
    requests: turns.tally.requests,
    notSent: 0,
    receiver,
    parked: target.receiver.parkedCount(),
    inbound: target.receiver.inboundStats(),
  });
  const durationMs = performance.now() - f.t0;
  const report = buildReport({
    kind: 'redteam',
    startedAt: f.startedAt,
    finishedAt: new Date().toISOString(),
    durationMs,
    settings: f.settings,
    tally: turns.tally.snapshot(),
    latency: turns.latency,
    receiver,
    accounting,
    thresholds: [],
    defaultThresholds: false,
    notes: turns.notes.list(),
    interrupted,
    redteam: { ...buildRedteamSection(f.run), maxSuccessRate: config.redteam.maxSuccessRate },
    ...(f.grader && config.llm && { judge: { settings: llmSettings(config.llm), usage: f.grader.usage() } }),
  });
  if (f.grader) f.log(`droidcheck: judge ${formatLlmUsage(f.grader.usage())}`);
  const safe = redactValue(report, f.redact);
  for (const r of f.reporters) await r.onRunEnd?.(safe);
  const files = f.reporters.flatMap((r) => r.files ?? []);
  if (files.length > 0) io.stdout.write(`reports: ${files.join(', ')}\n`);
  return { report: safe, exitCode: safe.exitCode, files };
}
