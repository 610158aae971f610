/** shardSuites / parseShard: deterministic, complete and disjoint split of scenarios. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { laneSuites, parseShard, shardSuites } from '../../src/runner/shard.js';
import { parseSuite } from '../../src/scenario/index.js';

const suite = (name: string, scenarios: string[]) =>
  parseSuite(
    `suite: ${name}\nscenarios:\n${scenarios.map((s) => `  - name: ${s}\n    humanMessage: hi\n`).join('')}`,
    `${name}.yaml`,
  );
const suites = [suite('B', ['b1', 'b2', 'b3']), suite('A', ['a1', 'a2']), suite('C', ['c1', 'c2'])];
const names = (list: ReturnType<typeof shardSuites>) =>
  list.flatMap((s) => s.scenarios.map((sc) => `${s.name}/${sc.name}`));

describe('shardSuites', () => {
  it('splits every scenario into exactly one shard, sizes within one', () => {
    const shards = [1, 2, 3].map((index) => names(shardSuites(suites, { index, total: 3 })));
    expect(shards.flat().sort()).toEqual(names(suites).sort());
    expect(new Set(shards.flat()).size).toBe(7);
    expect(shards.map((s) => s.length)).toEqual([3, 2, 2]);
    expect(shards[0]).toEqual(['B/b2', 'A/a1', 'C/c2']); // sorted A/a1 A/a2 B/b1 B/b2 B/b3 C/c1 C/c2: positions 0, 3, 6
  });

  it('does not depend on file order and drops empty suites', () => {
    const reversed = [...suites].reverse();
    expect(names(shardSuites(reversed, { index: 2, total: 3 })).sort()).toEqual(
      names(shardSuites(suites, { index: 2, total: 3 })).sort(),
    );
    expect(shardSuites(suites, { index: 8, total: 8 })).toEqual([]);
    expect(shardSuites(suites, undefined)).toEqual(suites);
  });

  // Scenarios whose steps act on one customer (a state lane) cannot take turns across machines.
  const stateful = (name: string, scenarios: [string, string][]) =>
    parseSuite(
      `suite: ${name}\nscenarios:\n${scenarios.map(([s, customer]) => `  - name: ${s}\n    steps:\n      - say: hi\n        capture: { c: customerId, d: customerId }\n      - call: setBot\n        customerId: ${customer}\n        botEnabled: false\n`).join('')}`,
      `${name}.yaml`,
    );
  const mixed = [
    ...suites,
    stateful('S', [
      ['s1', '1001'],
      ['s2', '1001'],
      ['s3', '2002'],
      ['s4', '"{{ vars.c }}"'],
      ['s5', '"{{ vars.d }}"'],
    ]),
  ];

  it('run --shard: a state lane goes whole to one shard', () => {
    const shards = [1, 2, 3].map((index) => names(shardSuites(mixed, { index, total: 3 })));
    expect(shards.flat().sort()).toEqual(names(mixed).sort());
    expect(new Set(shards.flat()).size).toBe(12);
    const holder = (n: string) => shards.findIndex((s) => s.includes(n));
    expect(holder('S/s1')).toBe(holder('S/s2')); // customer 1001
    expect(holder('S/s4')).toBe(holder('S/s5')); // customers known at run time share one lane
    expect(names(shardSuites([...mixed].reverse(), { index: 2, total: 3 })).sort()).toEqual(shards[1]!.sort());
  });

  it('load --shard: every shard keeps the stateless scenarios, each lane stays with one shard', () => {
    const shards = [1, 2].map((index) => names(laneSuites(mixed, { index, total: 2 })));
    for (const s of shards) expect(s.filter((n) => !n.startsWith('S/')).sort()).toEqual(names(suites).sort());
    const lanes = [['S/s1', 'S/s2'], ['S/s3'], ['S/s4', 'S/s5']];
    for (const lane of lanes) expect(shards.filter((s) => lane.every((n) => s.includes(n))).length).toBe(1);
    expect(
      shards
        .flat()
        .filter((n) => n.startsWith('S/'))
        .sort(),
    ).toEqual(['S/s1', 'S/s2', 'S/s3', 'S/s4', 'S/s5']);
    expect(laneSuites(mixed, undefined)).toEqual(mixed);
    // Only stateful scenarios and more shards than lanes: a shard with nothing.
    const onlyLanes = [stateful('T', [['t1', '1001']])];
    expect(laneSuites(onlyLanes, { index: 2, total: 2 })).toEqual([]);
  });

  it('parses i/n and rejects the rest', () => {
    expect(parseShard('2/5')).toEqual({ index: 2, total: 5 });
    for (const bad of ['0/3', '4/3', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(UsageError);
    expect(() => parseShard('4/3')).toThrow(/--shard: "4\/3" must be i\/n/);
  });
});
