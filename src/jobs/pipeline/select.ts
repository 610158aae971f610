/**
 * Step 1 of the pipeline (pipeline.ts): the suites a job reads (job-spec.ts `reads`), loaded from
 * `config.paths`, filtered (`--tag`, `--exclude-tag`, `--grep`; `--no-think` drops the pauses;
 * `--burst-gap` sends each conversation's consecutive turns as bursts)
 * and dealt to this shard (`--shard i/n`, runner/shard.ts): whole scenarios, or a load's state
 * lanes (its execution segment splits the arrivals; every shard runs the stateless scenarios).
 */
import type { ResolvedConfig } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { laneSuites, shardSuites } from '../../runner/index.js';
import { filterScenarios, loadSuites, withBursts, withoutThink, type Suite } from '../../scenario/index.js';
import type { SuiteSelection } from './job-spec.js';

/** What the selection reads of a configuration. */
type SelectConfig = Pick<ResolvedConfig, 'paths' | 'think' | 'tags' | 'excludeTags' | 'grep'> &
  Partial<Pick<ResolvedConfig, 'burstGapMs'>>;

/**
 * Loads (unless given the suites `given`, read from `config.paths`, as validate.ts has them),
 * filters and deals the suites as `reads` says; none when the job reads none. Throws
 * ScenarioError (file:line:col) and UsageError (exit 2) when the paths hold no scenario, the
 * filters match none, or the shard gets none.
 */
export async function selectSuites(config: SelectConfig, reads: SuiteSelection, given?: Suite[]): Promise<Suite[]> {
  if (reads.deal === 'none') return [];
  const read = given ?? (await loadSuites(config.paths));
  // --no-think: the conversations run without their pauses (think time never counts in a latency).
  const paced = config.think ? read : withoutThink(read);
  // --burst-gap: each conversation's consecutive turns sent as bursts (docs/bursts.md).
  const loaded = config.burstGapMs === undefined ? paced : withBursts(paced, config.burstGapMs);
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
  const { shard } = reads;
  const lanes = reads.deal === 'lanes';
  const suites = lanes ? laneSuites(filtered, shard) : shardSuites(filtered, shard);
  if (suites.length === 0) {
    const n = filtered.reduce((k, s) => k + s.scenarios.length, 0);
    const why = lanes
      ? `every one of the ${n} scenarios changes a customer's state, and each customer's scenarios run in one shard only`
      : `${n} scenarios for ${shard?.total} shards, a customer's stateful scenarios together`;
    throw new UsageError(`shard ${shard?.index}/${shard?.total} holds no scenario (${why}): use fewer shards`);
  }
  return suites;
}
