/**
 * Hostile YAML in bounded time, CPU-bound (the rest of the hostile input is in hostile.test.ts):
 * an alias bomb refused before it expands, nesting 100,000 levels deep refused, and files of
 * 10,000 scenarios, 10,000 keys or a 4 MiB line parsed in time linear in their size. A
 * `*.timing.test.ts` file: it runs alone (vitest.config.ts), so a test beside it on the other core
 * neither slows one input size more than the other nor is slowed for 20-40 s by these parses.
 * Linear growth is judged against a smaller input timed in the same run, never against seconds,
 * and on the CPU time this process spent (cpuMs), not the wall clock: other processes on a busy
 * machine take the CPU away from one measurement and not the other, but they do not add to the
 * CPU time a parse costs.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { parseSuite } from '../../src/scenario/index.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as Error).message).not.toContain('    at ');
    return (err as Error).message;
  }
  throw new Error('expected a ScenarioError');
}

/** CPU time this process has used, ms (user + system, every thread: the collector's too). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe('hostile YAML in bounded time', () => {
  it('refuses a billion-laughs alias bomb quickly', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghi';
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1]!;
      levels.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const text = `${levels.join('\n')}\nsuite: bomb\nscenarios:\n  - name: x\n    humanMessage: *i\n`;
    const started = cpuMs();
    const msg = messageOf(() => parseSuite(text, 'bomb.yaml'));
    expect(cpuMs() - started).toBeLessThan(1000);
    expect(msg).toMatch(/^bomb\.yaml:1:1: too many alias expansions .*alias bomb/);
  });

  it('refuses deep nesting', () => {
    const deep = `suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n    expect:\n      answer: { equals: ${'['.repeat(200)}1${']'.repeat(200)} }\n`;
    expect(messageOf(() => parseSuite(deep, 'deep.yaml'))).toMatch(/^deep\.yaml:1:1: nesting is deeper than 64 levels/);
    const deeper = `suite: s\nscenarios: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    expect(messageOf(() => parseSuite(deeper, 'deeper.yaml'))).toMatch(/^deeper\.yaml:\d+:\d+: /);
  });

  it('parses a 10,000-key expect map in linear time and still locates a bad key', () => {
    const head = ['suite: s', 'scenarios:', '  - name: a', '    humanMessage: hi', '    expect:'];
    const keys = Array.from({ length: 10_000 }, (_, i) => `      customExtractedInfo.k${i}: "x"`);
    const ok = `${[...head, ...keys].join('\n')}\n`;
    // Linear, not a fixed bound in seconds (a loaded machine is slow at both sizes alike): 10x
    // the keys may take at most 40x the time of 1,000 keys measured now (quadratic would be 100x).
    const small = `${[...head, ...keys.slice(0, 1_000)].join('\n')}\n`;
    const timeOf = (text: string): number => {
      const t0 = cpuMs();
      parseSuite(text, 'wide.yaml');
      return cpuMs() - t0;
    };
    const unit = Math.min(timeOf(small), timeOf(small), timeOf(small));
    let started = cpuMs();
    const suite = parseSuite(ok, 'wide.yaml');
    expect(cpuMs() - started).toBeLessThan(40 * unit + 300);
    const exp = suite.scenarios[0]!.expect;
    expect(exp).toHaveLength(10_000);
    expect(exp[9_999]).toMatchObject({
      path: 'customExtractedInfo.k9999',
      matcher: 'equals',
      expected: 'x',
      location: { line: 10_005, col: 7 },
    });

    // A bad path near the end of the map, and a duplicate key: both at their own line:col.
    const bad = [...keys];
    bad[9_000] = '      customExtractedInfo[0]: "x"';
    bad[9_500] = '      customExtractedInfo.k3: "y"';
    started = cpuMs();
    const badText = `${[...head, ...bad].join('\n')}\n`;
    expect(messageOf(() => parseSuite(badText, 'wide.yaml'))).toMatch(
      /^wide\.yaml:9506:7: YAML syntax error: Map keys must be unique/,
    );
    bad[9_500] = '      customExtractedInfo.k9500: "y"';
    const msg = messageOf(() => parseSuite(`${[...head, ...bad].join('\n')}\n`, 'wide.yaml'));
    // Three parses of the 10,000 keys (two of them failing at a key near the end).
    expect(cpuMs() - started).toBeLessThan(3 * (40 * unit + 300));
    expect(msg).toMatch(/^wide\.yaml:9006:7: path "customExtractedInfo\[0\]" uses brackets/);
  });
});

describe('wide, long and key-heavy files, in time linear in their size', () => {
  const timed = (text: string): number => {
    const t0 = cpuMs();
    try {
      parseSuite(text, 'hostile.yaml');
    } catch {
      // a ScenarioError is fine; a hang or a crash is not
    }
    return cpuMs() - t0;
  };
  /**
   * Parses `make(n / by)` and `make(n)` (the fastest of three and of two) and checks the second
   * took at most `factor` times the first, plus 300 ms for a GC pause: linear growth gives `by`
   * times, quadratic `by` squared. Both are measured in the same run, so a busy machine slows them
   * alike (a fixed bound in seconds failed on a loaded machine and would pass a slow algorithm on
   * a fast one).
   */
  const linear = (make: (n: number) => string, n: number, by = 10, factor = 40): void => {
    const smallText = make(n / by);
    const largeText = make(n);
    const small = Math.min(timed(smallText), timed(smallText), timed(smallText));
    const large = Math.min(timed(largeText), timed(largeText));
    expect(large).toBeLessThan(factor * small + 300);
  };

  it('a 2 MiB file of 10,000 scenarios, a 4 MiB single line, 10,000 expect keys, and a wide flow map', () => {
    const scenario = (i: number): string => `  - name: s${i}\n    humanMessage: ${'hello '.repeat(30)}\n`;
    linear((n) => `suite: many\nscenarios:\n${Array.from({ length: n }, (_, i) => scenario(i)).join('')}`, 10_000);
    // One long string: V8 takes a faster path below about 1 MiB, so the step is 4x, not 10x (linear:
    // 4x the time, quadratic 16x).
    linear(
      (n) => `suite: long\nscenarios:\n  - name: a\n    humanMessage: "${'x'.repeat(n)}"\n`,
      4 * 1024 * 1024,
      4,
      10,
    );
    const key = (i: number): string => `      k${i}: 1\n`;
    linear(
      (n) =>
        `suite: keys\nscenarios:\n  - name: a\n    humanMessage: hi\n    expect:\n${Array.from({ length: n }, (_, i) => key(i)).join('')}`,
      10_000,
    );
    linear((n) => `suite: wide\nscenarios: [${Array.from({ length: n }, () => '{}').join(',')}]\n`, 100_000);
  });
});
