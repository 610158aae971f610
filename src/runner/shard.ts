/**
 * `--shard i/n`: a deterministic split of the planned scenarios across n machines (like
 * vitest's `--shard`). Pure. A scenario goes whole (every mode and repeat) to one shard, so
 * pass rates over repeats and sync/async parity are judged within one shard. Scenarios are
 * ordered by `[suite, name]` (not by file order, which may differ between checkouts) and dealt
 * round robin: shard i (1-based) takes positions i-1, i-1+n, ... So the shards together hold
 * every scenario exactly once, and their sizes differ by at most one.
 */
import { UsageError } from '../errors.js';
import type { Suite } from '../scenario/index.js';

/** Shard `index` (1-based) of `total`. */
export interface Shard {
  index: number;
  total: number;
}

/**
 * Parses `"i/n"` (1 <= i <= n <= 10000). Throws UsageError (DROIDCHECK_ERR_USAGE, exit 2)
 * naming the flag otherwise.
 */
export function parseShard(value: string, flag = '--shard'): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || total > 10_000 || index < 1 || index > total) {
    throw new UsageError(`${flag}: "${value}" must be i/n with 1 <= i <= n, e.g. 1/3`);
  }
  return { index, total };
}

const key = (suite: string, name: string): string => JSON.stringify([suite, name]);

/**
 * The suites with only the scenarios of `shard` (suites left empty are dropped); all of them
 * when `shard` is undefined. Inputs are not mutated.
 */
export function shardSuites(suites: readonly Suite[], shard: Shard | undefined): Suite[] {
  if (!shard || shard.total === 1) return [...suites];
  const keys = suites.flatMap((s) => s.scenarios.map((sc) => key(sc.suite, sc.name))).sort();
  const mine = new Set(keys.filter((_, i) => i % shard.total === shard.index - 1));
  return suites
    .map((suite) => ({ ...suite, scenarios: suite.scenarios.filter((sc) => mine.has(key(sc.suite, sc.name))) }))
    .filter((suite) => suite.scenarios.length > 0);
}
