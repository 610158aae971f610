/**
 * `droidcheck redteam`'s part of the configuration: the attacks (`--attempts`, `--seed`,
 * `--product`, `--canary`, `--category`, `--max-success-rate`, `--rephrase`, `--strategy`,
 * `--turns`) and the embedded
 * emulator's planted weaknesses (`--emulator-weaknesses`), resolved through the table of options
 * (options.ts) like every job's. The target, receiver, reporters and judge model resolve as for
 * `run` (job-config.ts); the options a red team has no use for (paths, tags, thresholds...) hold
 * the table's defaults (values.ts), so the target's set-up reads the same configuration shape.
 *
 * Category ids and weakness names are checked by the job (jobs/redteam/redteam.ts: their lists live in
 * redteam/ and emulator/), before anything is sent (UsageError, exit 2, with a did-you-mean).
 */
import { valuesOf, type ResolvedOptions } from './values.js';

export interface ResolvedRedteamSettings {
  /** Attacks per category. */
  attempts: number;
  seed: number;
  /** As given; empty: the job takes the embedded emulator's catalogue (none against a real service). */
  products: string[];
  canaries: string[];
  /** As given (validated by the job); empty: every category. */
  categories: string[];
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
  /** Planted in the embedded emulator, as given (validated by the job); undefined: none. */
  emulatorWeaknesses?: string[];
}

/** The red team's settings of resolved options (see module docs). */
export function resolveRedteam(o: ResolvedOptions): ResolvedRedteamSettings {
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
    ]),
    mode: o.values.mode === 'async' ? 'async' : 'sync',
    // The table's parser of `redteam` gives only these two (`strategy` is capacity's too).
    strategy: o.values.strategy === 'adaptive' ? 'adaptive' : 'templates',
  };
}
