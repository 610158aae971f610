/**
 * What `run`, `load` and `capacity` refuse before their first request, from the configuration and
 * the suites alone, in one function: the pipeline runs it before sending (pipeline.ts) and
 * `droidcheck validate` runs it instead of sending (validate.ts), so that validate's `ok` means
 * run would start, and both refuse in the same words (exit 2):
 *
 * - every threshold parses (ThresholdError; resolveConfig parsed those it resolved, a
 *   configuration built through the API is checked here);
 * - `judge` and `similar` expectations (of a job that grades them, run: load and capacity leave
 *   them ungraded) have a model (llm/config.ts `assertGraderConfig`, ConfigError);
 * - `simulate:` scenarios run in a job that simulates (run) only and have a model to play the customer
 *   (simulator.ts `checkSimulated`, UsageError / ConfigError);
 * - a remote run whose scenarios wait for the service's webhooks has a receiver the service can
 *   reach (`assertReceiverReachable`, ConfigError).
 *
 * What only the network can tell is not here: the target's preflight (preflight.ts) and, when
 * no model is named, which one the endpoint serves (llm/discover.ts): run asks it through
 * `discover`; validate sends nothing and leaves those models to run (`deferred`).
 */
import { ConfigError } from '../../errors.js';
import { OPENAI_BASE_URL } from '../../llm/config.js';
import { assertGraderConfig, type discoverModels, type GraderUse, type ResolvedLlmConfig } from '../../llm/index.js';
import { parseThreshold } from '../../metrics/index.js';
import { modesFor } from '../../runner/index.js';
import { isAnswerStep, needsGrader, type Scenario, type Suite } from '../../scenario/index.js';
import type { JobConfig, JobSpec } from './job-spec.js';
import { checkSimulated } from './simulator.js';

export interface PreSendOptions {
  /**
   * Finds the models graded expectations need and nobody named (run: llm/discover.ts
   * `discoverModels`, one request to the endpoint). Without it nothing is sent: such a model is
   * left to run and listed in `deferred`.
   */
  discover?: typeof discoverModels;
}

export interface PreSendResult<C extends JobConfig> {
  /** `config` with the models `discover` found. */
  config: C;
  /** Where the suites use `judge` / `similar` (run only; none for load and capacity). */
  graded: GraderUse[];
  /** Without `discover`: the uses whose model run will ask the endpoint for (none named, and an endpoint to ask). */
  deferred: GraderUse[];
}

/**
 * The uses whose model run would ask the endpoint for, as discoverModels decides: an endpoint
 * is configured, it is not OpenAI's own API (whose catalogue leaves the choice to the user), and
 * no model of the kind is named.
 */
function leftToEndpoint(uses: readonly GraderUse[], llm: ResolvedLlmConfig | undefined): GraderUse[] {
  if (!llm || llm.baseUrl === OPENAI_BASE_URL) return [];
  return uses.filter((u) => (u.matcher === 'judge' ? llm.judgeModel : llm.embeddingModel) === undefined);
}

/** True when `scenario` has a `send` step that waits for the bot's reply, or for its silence, on the message webhook. */
export function waitsForReply(scenario: Scenario): boolean {
  return (
    scenario.steps?.some((st) => st.kind === 'call' && (st.waitForReply ?? st.noReplyWithin) !== undefined) ?? false
  );
}

/** True when `scenario` sends an answer turn (a plain scenario, a `say` step) to get-droid-answer-async under `mode`. */
export function sendsAsync(scenario: Scenario, mode: JobConfig['mode']): boolean {
  const turns = scenario.steps === undefined || scenario.steps.some(isAnswerStep);
  return turns && modesFor(scenario, mode).includes('async');
}

/** True when `scenario` waits for a webhook in this run: an async answer (unless ack-only), a reply or its silence, an intent webhook. */
function waitsForDeliveries(scenario: Scenario, config: JobConfig, ackOnly: boolean): boolean {
  if (waitsForReply(scenario)) return true;
  if (ackOnly) return false;
  return scenario.steps?.some((st) => st.intentWebhook !== undefined) || sendsAsync(scenario, config.mode);
}

/**
 * Refuses (ConfigError, exit 2) a remote run whose scenarios wait for the service's webhooks
 * while the receiver would listen on a random port with no `--public-url` and no
 * `--deliveries`: the service posts to the URLs in its own settings, which cannot name a port
 * chosen now, so every answer would wait out `--timeout` (180 s by default) and end "no
 * webhook". Nothing for the embedded emulator (droidcheck wires it to the receiver).
 */
function assertReceiverReachable(config: JobConfig, suites: readonly Suite[], ackOnly: boolean): void {
  if (
    config.target.kind !== 'remote' ||
    config.deliveries ||
    config.publicUrl !== undefined ||
    config.receiverPort !== 0
  )
    return;
  const waiting = suites.flatMap((s) => s.scenarios).filter((sc) => waitsForDeliveries(sc, config, ackOnly));
  if (waiting.length === 0) return;
  throw new ConfigError(
    `${waiting.length} scenario(s) (e.g. "${waiting[0]!.name}") wait for the service's webhooks, but the receiver would listen on a random port: the service posts to the URLs in its settings (Settings > Integrations, "When AI Answer Ready"; the Automation Panel's message webhook), so droidcheck must listen there: give --receiver-port <the port those URLs reach> (with --receiver-host 0.0.0.0 when the service reaches this machine directly), or --public-url <the tunnel's https URL>/webhook with the --receiver-port the tunnel forwards to, or --deliveries when \`droidcheck receive\` listens there`,
  );
}

/**
 * Runs the checks of the module docs on the selected `suites` of `config` for the job `spec`
 * (what it grades, whether it simulates or ends at the acknowledgement: job-spec.ts), in the
 * order run meets them. Throws ThresholdError / ConfigError / UsageError (exit 2) naming
 * file:line:col where a suite is the cause; `discover` may throw ConfigError (an endpoint that
 * cannot list its models, or lists none or several of a kind).
 */
export async function checkBeforeSending<C extends JobConfig>(
  given: C,
  suites: readonly Suite[],
  spec: Pick<JobSpec, 'kind' | 'judges'>,
  options: PreSendOptions = {},
): Promise<PreSendResult<C>> {
  let config = given;
  for (const t of config.thresholds) parseThreshold(t);
  // One LLM call per request would be the load: load and capacity leave graded matchers ungraded.
  const graded = spec.judges.grader === 'expectations' ? needsGrader(suites) : [];
  const deferred = options.discover ? [] : leftToEndpoint(graded, config.llm);
  const llm = options.discover ? await options.discover(graded, config.llm) : config.llm;
  assertGraderConfig(
    graded.filter((u) => !deferred.includes(u)),
    llm,
  );
  if (llm !== config.llm) config = { ...config, llm };
  checkSimulated(config, suites, spec);
  assertReceiverReachable(config, suites, spec.judges.ackOnly === true);
  return { config, graded, deferred };
}
