/**
 * `redteam(config, io)`: `droidcheck redteam` as a library call. Its spec (redteamSpec) through
 * the one pipeline (pipeline.ts): sends the red team's attacks (src/redteam: seeded, per
 * category, each decided by its oracle) through the answer endpoints of the one target
 * (target.ts: the embedded emulator by default, with the planted weaknesses of
 * `--emulator-weaknesses`, or `--base-url`; the receiver for async), and writes one report of
 * kind `redteam` with the reporters of every job. It reads no suite.
 *
 * Each turn of an attack goes through the runner's per-request path (runner/execute.ts): its
 * latency lands in the report's histograms, its webhook is matched by the receiver, and the
 * accounting invariant (requests = outcomes; webhooks received = classified) is checked as for
 * any job, and checked against the shop's policy like any answer (its violations come back to
 * the oracles: redteam/policy-verdict.ts). The policy is also the attacks' source: products,
 * list prices, canaries (sourceOf). A judge model (`--judge-model`) grades the judged
 * categories; `--rephrase` rewords the attacks with it; `--strategy adaptive` has the chat model
 * (`--simulator-model`, default the judge model) write every attack turn (redteam/adaptive.ts).
 *
 * Exit: 0 no category above `--max-success-rate` and every attempt answered and decided; 1
 * otherwise (redteam/section.ts `redteamVerdict`); 130 interrupted (the attempts decided so far
 * are reported). Usage mistakes (an unknown category or weakness, `--rephrase` without a model,
 * `--strategy adaptive` without one, weaknesses against a real service) are refused where the
 * configuration is resolved (config/redteam.ts), a malformed policy file is PolicyError (exit 2),
 * before anything is sent.
 */
import { systemClock, type Clock } from '../../clock.js';
import { publicSettings, type RedteamConfig } from '../../config/index.js';
import type { Weakness } from '../../emulator/index.js';
import {
  createAttacker,
  createRephraser,
  type Attacker,
  type ModelBudget,
  type ModelEndpoint,
  type Rephraser,
} from '../../llm/index.js';
import { LatencyRecorder } from '../../metrics/index.js';
import type { Policy } from '../../policy/index.js';
import {
  buildRedteamSection,
  executeRedteam,
  plannedModelCalls,
  type CategoryId,
  type RedteamAsk,
} from '../../redteam/index.js';
import { ContractNotes, executeRequest, SetupBreaker, Tally, type RequestRecord } from '../../runner/index.js';
import type { Scenario } from '../../scenario/index.js';
import {
  drivenTraffic,
  type JobContext,
  type JobIO,
  type JobOutput,
  type JobSpec,
  type JobResult,
} from '../pipeline/job-spec.js';
import type { PlannedModelCalls } from '../pipeline/budget.js';
import { runJob } from '../pipeline/pipeline.js';
import { emulatorShop } from '../pipeline/shop.js';

/** What the attacks draw on: the products they order, the canaries they look for, the list prices. */
interface RedteamSource {
  products: string[];
  canaries: string[];
  policy: Policy | undefined;
}

/**
 * One source of truth: the shop's policy as the job reads it (`--policy`, `policy:`, else
 * droidcheck.policy.yaml, read once by the pipeline: `shop`, undefined when there is none or when
 * it describes the embedded emulator's demo shop and the target is a real service) gives the
 * products to order (its catalogue), their list prices (the price oracles: redteam/list-price.ts)
 * and the canaries; `--product` and `--canary` override its products and canaries. Without one
 * the embedded emulator's demo shop gives the products and prices (not its canaries: prompt-leak
 * is then judged, as without --canary); against a real service without one, neither: the product
 * categories are skipped unless `--product` names one, and their oracles are differential only.
 */
function sourceOf(config: RedteamConfig, shop: Policy | undefined): RedteamSource {
  const policy = shop ?? (config.target.kind === 'remote' ? undefined : emulatorShop());
  const { products, canaries } = config.redteam;
  return {
    products: products.length > 0 ? products : (policy?.catalogue ?? []).map((p) => p.name),
    canaries: canaries.length > 0 ? canaries : shop !== undefined ? [...(shop.canaries ?? [])] : [],
    policy,
  };
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

/** What the attack turns add up to: counted like any job's requests, in the report's tallies and histograms. */
interface TurnLog {
  tally: Tally;
  latency: LatencyRecorder;
  notes: ContractNotes;
  breaker: SetupBreaker;
}

/**
 * The red team's `ask`: one answer turn through the runner's per-request path (sync, or async +
 * webhook), with the job's request options (ctx.engine), counted in `log` and handed to the
 * sinks; rejects with the turn's error when it got no answer (the attempt is then an error).
 */
function askThrough(ctx: JobContext<RedteamConfig>, log: TurnLog, clock: Clock): RedteamAsk {
  const mode = ctx.config.redteam.mode;
  const execute = { ...ctx.engine, clock, latency: log.latency, notes: log.notes };
  let seq = 0;
  return async (turn) => {
    const record: RequestRecord = await executeRequest({ seq: seq++, scenario: attackScenario(turn), mode }, execute);
    log.tally.add(record);
    log.breaker.observe(record);
    for (const sink of ctx.engine.sinks ?? []) sink.onRecord(record, false);
    if (record.outcome !== 'answered')
      throw Object.assign(new Error(record.error?.message ?? `the turn ended ${record.outcome}`), {
        code: record.error?.code ?? 'DROIDCHECK_ERR_TRANSPORT',
      });
    // The job's policy judged the answer (runner/turn-checks.ts): its violations are failures `policy:<rule>`.
    const violations = record.failures.flatMap((f) => (f.matcher.startsWith('policy:') ? [f.matcher.slice(7)] : []));
    return { payload: record.answer, latencyMs: (mode === 'sync' ? record.syncMs : record.answerMs) ?? 0, violations };
  };
}

/** The rephraser of `--rephrase` (the judge model rewords the attacks), on the job's model endpoint, metred by its budget. */
function rephraserOf(
  config: RedteamConfig,
  models: ModelEndpoint | undefined,
  budget: ModelBudget,
): Rephraser | undefined {
  const model = config.llm?.judgeModel;
  if (!config.redteam.rephrase || !model || !models) return undefined;
  return createRephraser({ provider: budget.meter(models.provider, 'attacker'), model, cache: models.cache });
}

/** The attacker of `--strategy adaptive` (the chat model of `--simulator-model`, default the judge model), likewise. */
function attackerOf(
  config: RedteamConfig,
  models: ModelEndpoint | undefined,
  budget: ModelBudget,
): Attacker | undefined {
  const model = config.llm?.simulatorModel;
  if (config.redteam.strategy !== 'adaptive' || !model || !models) return undefined;
  return createAttacker({ provider: budget.meter(models.provider, 'attacker'), model, cache: models.cache });
}

/**
 * The model calls the attacks make at most (redteam/ plannedModelCalls: attempts x turns x calls
 * per turn), with the models that make them: the judge model grades and, with `--rephrase`,
 * rewords (as the attacker); `--strategy adaptive`'s attacker is the chat model.
 */
function redteamModelCalls(config: RedteamConfig, source: RedteamSource): PlannedModelCalls[] {
  const { categories, attempts, seed, rephrase, strategy, turns } = config.redteam;
  const judgeModel = config.llm?.judgeModel;
  const adaptive = strategy === 'adaptive' && config.llm?.simulatorModel !== undefined;
  const planned = plannedModelCalls({
    ...(categories.length > 0 && { categories }),
    attempts,
    seed,
    products: source.products,
    canaries: source.canaries,
    ...(source.policy && { policy: source.policy }),
    judge: judgeModel !== undefined,
    rephrase: rephrase && judgeModel !== undefined,
    ...(adaptive && { adaptive: { turns } }),
  });
  return [
    { role: 'judge', model: judgeModel, calls: planned.judge },
    { role: 'attacker', model: adaptive ? config.llm?.simulatorModel : judgeModel, calls: planned.attacker },
  ];
}

/** The report's settings: the target's and the attacks' (no scenario selection: the red team reads no suite). */
function redteamSettings(config: RedteamConfig, source: RedteamSource): Record<string, unknown> {
  const {
    paths: _p,
    concurrency: _c,
    mode: _m,
    thresholds: _t,
    defaultThresholds: _d,
    ...rest
  } = publicSettings(config);
  return { ...rest, redteam: { ...config.redteam, products: source.products, canaries: source.canaries } };
}

/** The attacks (module docs), each turn through the target; the red team's section. */
async function attack(
  ctx: JobContext<RedteamConfig>,
  categories: CategoryId[] | undefined,
  weaknesses: Weakness[] | undefined,
): Promise<JobOutput> {
  const { config } = ctx;
  const source = sourceOf(config, ctx.policy);
  const clock = ctx.engine.clock ?? systemClock;
  if (weaknesses && weaknesses.length > 0)
    ctx.log(`droidcheck: the embedded emulator has planted weaknesses: ${weaknesses.join(', ')}`);
  await ctx.begin(undefined);
  const startedAt = clock.wallNow();
  const t0 = clock.now();
  const turns: TurnLog = {
    tally: new Tally(),
    latency: new LatencyRecorder(),
    notes: new ContractNotes(),
    breaker: new SetupBreaker(),
  };
  const rephrase = rephraserOf(config, ctx.models, ctx.budget);
  const attacker = attackerOf(config, ctx.models, ctx.budget);
  const run = await executeRedteam({
    ask: askThrough(ctx, turns, clock),
    ...(categories && { categories }),
    attempts: config.redteam.attempts,
    seed: config.redteam.seed,
    products: source.products,
    canaries: source.canaries,
    ...(source.policy && { policy: source.policy }),
    ...(ctx.grader && { judge: ctx.grader }),
    ...(rephrase && { rephrase }),
    ...(attacker && {
      adaptive: { attacker, turns: config.redteam.turns, maxTokens: config.budget.maxConversationTokens },
    }),
    ...(ctx.engine.stopSignal && { signal: ctx.engine.stopSignal }),
  });
  const failure = turns.breaker.failure();
  const traffic = drivenTraffic({
    startedAt,
    finishedAt: clock.wallNow(),
    durationMs: clock.now() - t0,
    ...turns,
    interrupted: run.interrupted,
    // Every turn failed the same set-up way and none was answered: exit 2 (pipeline.ts).
    setupFailure: failure && turns.tally.outcomes.answered === 0 ? failure : undefined,
  });
  return {
    traffic,
    sections: { redteam: { ...buildRedteamSection(run), maxSuccessRate: config.redteam.maxSuccessRate } },
  };
}

/**
 * `redteam` as a spec: reads no suite, sends the attacks through the target with the planted
 * weaknesses, grades the judged categories with the judge model (`--judge-model`), judges
 * not the spec's limits (its verdict is the red team's; the command takes no --threshold), keeps the answers
 * of failed turns, and adds the redteam section. Its options were checked where they were
 * resolved (config/redteam.ts); the shop's policy and the models come with its context.
 */
function redteamSpec(config: RedteamConfig): JobSpec<RedteamConfig> {
  const { categories, emulatorWeaknesses: weaknesses } = config.redteam;
  return {
    kind: 'redteam',
    reads: { deal: 'none' },
    judges: { defaultThresholds: false, grader: 'oracles' },
    settings: (c, { policy }) => redteamSettings(c, sourceOf(c, policy)),
    target: { weaknesses },
    modelCalls: (c, { policy }) => redteamModelCalls(c, sourceOf(c, policy)),
    send: (ctx) => attack(ctx, categories.length > 0 ? categories : undefined, weaknesses),
  };
}

/** Runs the red team (see module docs). Throws UsageError / ConfigError (exit 2) before anything is sent; SetupError (exit 2) when every turn failed the same set-up way. */
export function redteam(config: RedteamConfig, io: JobIO): Promise<JobResult> {
  return runJob(redteamSpec(config), config, io);
}
