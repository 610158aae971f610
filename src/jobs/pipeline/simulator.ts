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
  createDiskCache,
  createOpenAiProvider,
  createSimulator,
  NO_CACHE,
  simulationPayload,
  type ModelBudget,
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

export interface OpenedSimulator {
  simulator: CustomerSimulator;
  close(): Promise<void>;
}

/**
 * The simulator of `llm` (its `simulatorModel` must be set: checkSimulated); every call through
 * the run's `budget` (role simulator), each conversation within `--max-conversation-tokens`.
 */
export function openSimulator(llm: ResolvedLlmConfig, budget: ModelBudget): OpenedSimulator {
  const provider = createOpenAiProvider(llm);
  const cache = llm.cacheDir !== undefined ? createDiskCache(llm.cacheDir) : NO_CACHE;
  const inner = createSimulator({
    provider: budget.meter(provider, 'simulator'),
    model: llm.simulatorModel!,
    cache,
    secrets: llm.apiKey ? [llm.apiKey] : [],
    maxTokens: budget.conversationTokens,
  });
  return {
    simulator: {
      async simulate(spec, ask, signal, scope) {
        const sim = await inner.simulate(spec, ask, signal, scope);
        return { ...sim, expectPayload: simulationPayload(sim) };
      },
    },
    close: () => provider.close(),
  };
}

/** A simulator when a suite simulates a customer, else undefined. */
export function simulatorFor(
  config: Pick<JobConfig, 'llm'>,
  suites: readonly Suite[],
  budget: ModelBudget,
): OpenedSimulator | undefined {
  return needsSimulator(suites).length > 0 && config.llm?.simulatorModel !== undefined
    ? openSimulator(config.llm, budget)
    : undefined;
}
