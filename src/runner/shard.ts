/**
 * `--shard i/n`: deterministic splits across n machines. Pure.
 *
 * `run --shard` (shardSuites) splits the scenarios (like vitest's `--shard`). A scenario goes
 * whole (every mode and repeat) to one shard, so pass rates over repeats and sync/async parity
 * are judged within one shard; and a state lane (plan.ts: the scenarios whose steps act on one
 * customer) goes whole to one shard, since shards on other machines cannot take turns on a
 * customer's state. The units (a stateless scenario; a lane) are ordered by `[suite, name]` of
 * their first scenario (not by file order, which may differ between checkouts) and dealt round
 * robin: shard i (1-based) takes positions i-1, i-1+n, ... So the shards together hold every
 * scenario exactly once; without lanes their sizes differ by at most one.
 *
 * `load --shard` (laneSuites) splits the arrivals (segments.ts), so every shard keeps every
 * stateless scenario, and each lane, dealt round robin in the same order, stays in the mix of
 * the one shard that owns it.
 */
import { UsageError } from '../errors.js';
import type { Scenario, Suite } from '../scenario/index.js';
import { stateLanes } from './plan.js';

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

const key = (sc: Scenario): string => JSON.stringify([sc.suite, sc.name]);

/** A unit of a split: its scenarios, and whether they share a state lane. */
interface Unit {
  key: string;
  scenarios: Scenario[];
  stateful: boolean;
}

/** Stateless scenarios one by one, each lane's scenarios together; in key order. */
function units(suites: readonly Suite[]): Unit[] {
  const all = suites.flatMap((s) => s.scenarios);
  const lanes = stateLanes(all);
  const byLane = new Map<string, Unit>();
  const out: Unit[] = [];
  for (const sc of all) {
    const lane = lanes.get(sc);
    if (lane === undefined) {
      out.push({ key: key(sc), scenarios: [sc], stateful: false });
      continue;
    }
    const unit = byLane.get(lane);
    if (unit) {
      unit.scenarios.push(sc);
      if (key(sc) < unit.key) unit.key = key(sc);
    } else {
      const u = { key: key(sc), scenarios: [sc], stateful: true };
      byLane.set(lane, u);
      out.push(u);
    }
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function keep(suites: readonly Suite[], mine: ReadonlySet<Scenario>): Suite[] {
  return suites
    .map((suite) => ({ ...suite, scenarios: suite.scenarios.filter((sc) => mine.has(sc)) }))
    .filter((suite) => suite.scenarios.length > 0);
}

/**
 * `run --shard`: the suites with only the scenarios of `shard` (suites left empty are dropped);
 * all of them when `shard` is undefined. Inputs are not mutated.
 */
export function shardSuites(suites: readonly Suite[], shard: Shard | undefined): Suite[] {
  if (!shard || shard.total === 1) return [...suites];
  const mine = units(suites).filter((_, i) => i % shard.total === shard.index - 1);
  return keep(suites, new Set(mine.flatMap((u) => u.scenarios)));
}

/**
 * `load --shard`: the suites without the stateful scenarios whose lane another shard owns (the
 * lanes, in key order, dealt round robin); all of them when `shard` is undefined. The result may
 * be empty (every scenario stateful, no lane for this shard). Inputs are not mutated.
 */
export function laneSuites(suites: readonly Suite[], shard: Shard | undefined): Suite[] {
  if (!shard || shard.total === 1) return [...suites];
  const lanes = units(suites).filter((u) => u.stateful);
  const others = new Set(lanes.filter((_, i) => i % shard.total !== shard.index - 1).flatMap((u) => u.scenarios));
  return keep(suites, new Set(suites.flatMap((s) => s.scenarios).filter((sc) => !others.has(sc))));
}
