/**
 * The simulated customer of `simulate:` scenarios, as the runner takes it (runner/simulate.ts):
 * src/llm's simulator on the judge's endpoint and key with `--simulator-model` (default the judge
 * model), its lines cached beside the judge's verdicts, each conversation handed back with what
 * the scenario's `expect` reads (the last payload, `transcript`, `turns`: docs/llm.md).
 */
import { UsageError } from '../../errors.js';
import { formatLocation } from '../../errors.js';
import {
  assertSimulatorConfig,
  createSimulator,
  simulationPayload,
  type ModelBudget,
  type ModelEndpoint,
  type ResolvedLlmConfig,
} from '../../llm/index.js';
import type { CustomerSimulator } from '../../runner/index.js';
import { needsSimulator, type Suite } from '../../scenario/index.js';
import type { JobConfig, JobSpec } from './job-spec.js';

/**
 * Before anything is sent: `simulate:` scenarios run in a job that simulates (`droidcheck run`
 * only: under load one model conversation per arrival would be the load), and need a model.
 * Throws UsageError / ConfigError (exit 2) naming the first scenario's file:line:col.
 */
export function checkSimulated(
  config: Pick<JobConfig, 'llm'>,
  suites: readonly Suite[],
  spec: Pick<JobSpec, 'kind' | 'judges'>,
): void {
  const uses = needsSimulator(suites);
  if (uses.length === 0) return;
  if (spec.judges.simulates !== true) {
    throw new UsageError(
      `${formatLocation(uses[0]!.location)}: a simulate: scenario runs in droidcheck run only (under ${spec.kind} each arrival would be a model conversation); leave it out with --exclude-tag or --grep`,
    );
  }
  assertSimulatorConfig(uses, config.llm);
}

/**
 * The simulator of `llm` (its `simulatorModel` must be set: checkSimulated) on the job's model
 * endpoint (its provider and cache: llm/endpoint.ts, which the job closes); every call through
 * the run's `budget` (role simulator), each conversation within `--max-conversation-tokens`.
 */
export function simulatorOf(llm: ResolvedLlmConfig, models: ModelEndpoint, budget: ModelBudget): CustomerSimulator {
  const inner = createSimulator({
    provider: budget.meter(models.provider, 'simulator'),
    model: llm.simulatorModel!,
    cache: models.cache,
    secrets: llm.apiKey ? [llm.apiKey] : [],
    maxTokens: budget.conversationTokens,
  });
  return {
    async simulate(spec, ask, signal, scope) {
      const sim = await inner.simulate(spec, ask, signal, scope);
      return { ...sim, expectPayload: simulationPayload(sim) };
    },
  };
}

/** A simulator when a suite simulates a customer and a model plays it, else undefined. */
export function simulatorFor(
  config: Pick<JobConfig, 'llm'>,
  models: ModelEndpoint | undefined,
  suites: readonly Suite[],
  budget: ModelBudget,
): CustomerSimulator | undefined {
  return needsSimulator(suites).length > 0 && config.llm?.simulatorModel !== undefined && models
    ? simulatorOf(config.llm, models, budget)
    : undefined;
}
