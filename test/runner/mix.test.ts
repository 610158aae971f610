import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/random.js';
import { createMix, parseWeights } from '../../src/runner/mix.js';
import { scenario, suiteOf } from '../helpers/engine.js';

describe('scenario mix', () => {
  const suites = [suiteOf(scenario('a'), scenario('b'), scenario('c', { modes: ['sync'] }))];

  it('draws scenario x mode entries by weight, reproducibly from the seed', () => {
    const mix = createMix(suites, { weights: { a: 6, 'b:sync': 0, 'load/b:async': 2 }, seed: 42 });
    expect(mix.entries.map((e) => `${e.scenario.name}:${e.mode}`)).toEqual(['a:sync', 'a:async', 'b:async', 'c:sync']);
    const counts = new Map<string, number>();
    const N = 20_000;
    for (let i = 0; i < N; i++) {
      const p = mix.pick(i);
      expect(p.seq).toBe(i);
      const k = `${p.scenario.name}:${p.mode}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    // weights 6, 6, 2, 1 of 15
    expect(counts.get('a:sync')! / N).toBeCloseTo(6 / 15, 1);
    expect(counts.get('b:async')! / N).toBeCloseTo(2 / 15, 1);
    expect(counts.get('c:sync')! / N).toBeCloseTo(1 / 15, 1);
    const again = createMix(suites, { weights: { a: 6, 'b:sync': 0, 'load/b:async': 2 }, seed: 42 });
    const first = Array.from({ length: 50 }, (_, i) => again.pick(i).scenario.name).join();
    const mix2 = createMix(suites, { weights: { a: 6, 'b:sync': 0, 'load/b:async': 2 }, seed: 42 });
    expect(Array.from({ length: 50 }, (_, i) => mix2.pick(i).scenario.name).join()).toBe(first);
  });

  it('--mode overrides the modes; unknown weight keys and empty mixes are usage errors', () => {
    expect(createMix(suites, { mode: 'async' }).entries.every((e) => e.mode === 'async')).toBe(true);
    expect(() => createMix(suites, { weights: { zzz: 1 } })).toThrow(/names no scenario/);
    expect(() => createMix(suites, { weights: { a: 0, b: 0, c: 0 } })).toThrow(
      expect.objectContaining({ code: 'DROIDCHECK_ERR_USAGE' }),
    );
    expect(parseWeights(['a=2', 'x/y:async=0.5'])).toEqual({ a: 2, 'x/y:async': 0.5 });
    expect(() => parseWeights(['a'])).toThrow(/--weight/);
  });

  it('mulberry32 is deterministic and in [0, 1)', () => {
    const r1 = mulberry32(7);
    const r2 = mulberry32(7);
    for (let i = 0; i < 1000; i++) {
      const x = r1();
      expect(x).toBe(r2());
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
