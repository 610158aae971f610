/**
 * `droidcheck redteam`'s part of the configuration: the attacks (`--attempts`, `--seed`,
 * `--product`, `--canary`, `--category`, `--max-success-rate`, `--rephrase`, `--strategy`,
 * `--turns`) and the embedded
 * emulator's planted weaknesses (`--emulator-weaknesses`), resolved through the table of options
 * (options.ts) like every job's. The target, receiver, reporters and judge model resolve as for
 * `run` (job-config.ts); the options a red team has no use for (paths, tags, thresholds...) hold
 * the table's defaults (values.ts), so the target's set-up reads the same configuration shape.
 *
 * Every value is checked here, before anything is sent (UsageError, exit 2): category ids and
 * weakness names by their parsers in the table (with a did-you-mean), and what the options mean
 * together (weaknesses against a real service, `--rephrase` or `--strategy adaptive` without a
 * model, both at once).
 */
import type { EMULATOR_WEAKNESSES } from '../defaults.js';
import { UsageError } from '../errors.js';
import type { ResolvedLlmConfig } from '../llm/index.js';
import type { CategoryId } from '../redteam/index.js';
import type { ResolvedTarget } from './target.js';
import { valuesOf, type CommandOptions } from './values.js';

export interface ResolvedRedteamSettings {
  /** Attacks per category. */
  attempts: number;
  seed: number;
  /** As given; empty: the job takes the embedded emulator's catalogue (none against a real service). */
  products: string[];
  canaries: string[];
  /** Empty: every category. */
  categories: CategoryId[];
  /** A category fails above this success rate, 0..1. */
  maxSuccessRate: number;
  /** The judge model rewords each attack line. */
  rephrase: boolean;
  /** `templates`: each category's phrasings; `adaptive`: the chat model writes every turn toward the category's goal (redteam/adaptive.ts). */
  strategy: 'templates' | 'adaptive';
  /** Customer messages of one adaptive attack at most. */
  turns: number;
  /** Answer endpoint of the attacks. */
  mode: 'sync' | 'async';
  /** Planted in the embedded emulator (only: a real target refuses them); undefined: none. */
  emulatorWeaknesses?: (typeof EMULATOR_WEAKNESSES)[number][];
}

/**
 * The red team's settings of resolved options, with the target and the models every job
 * resolved (see module docs). Throws UsageError (exit 2).
 */
export function resolveRedteam(
  o: CommandOptions<'redteam'>,
  job: { target: ResolvedTarget; llm: ResolvedLlmConfig | undefined },
): ResolvedRedteamSettings {
  const v = o.values;
  if (v.emulatorWeaknesses !== undefined && job.target.kind === 'remote')
    throw new UsageError(
      '--emulator-weaknesses plants flaws in the embedded emulator; against a real service (--base-url) leave it out',
    );
  if (v.rephrase && job.llm?.judgeModel === undefined)
    throw new UsageError('--rephrase has the judge model reword the attacks: give --judge-model too (docs/llm.md)');
  if (v.attackStrategy === 'adaptive') {
    if (job.llm?.simulatorModel === undefined)
      throw new UsageError(
        '--strategy adaptive needs a chat model to play the attacker: pass --simulator-model (or --judge-model; judge.simulatorModel or judge.model in droidcheck.config.yaml) and point OPENAI_BASE_URL at an OpenAI-compatible endpoint (or set OPENAI_API_KEY for OpenAI itself); see docs/redteam.md',
      );
    if (v.rephrase)
      throw new UsageError(
        '--rephrase rewords the templates; with --strategy adaptive the model writes every attack turn: leave --rephrase out',
      );
  }
  return {
    ...valuesOf(o, [
      'attempts',
      'seed',
      'products',
      'canaries',
      'categories',
      'maxSuccessRate',
      'rephrase',
      'emulatorWeaknesses',
      'turns',
      'mode',
    ]),
    strategy: v.attackStrategy,
  };
}
