/**
 * Hostile input fails fast with a clear ScenarioError: alias bombs, huge files, deep nesting.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { loadSuites, MAX_SUITE_BYTES, parseSuite } from '../../src/scenario/index.js';

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

describe('hostile input', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-scenario-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a billion-laughs alias bomb quickly', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghi';
    for (let i = 1; i < names.length; i++) {
      const prev = names[i - 1]!;
      levels.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const text = `${levels.join('\n')}\nsuite: bomb\nscenarios:\n  - name: x\n    humanMessage: *i\n`;
    const started = performance.now();
    const msg = messageOf(() => parseSuite(text, 'bomb.yaml'));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(msg).toMatch(/^bomb\.yaml:1:1: too many alias expansions .*alias bomb/);
  });

  it('still allows a few aliases (shared chat histories)', () => {
    const text =
      'suite: s\nscenarios:\n  - name: a\n    chatHistory: &h\n      - human: hi\n    humanMessage: x\n  - name: b\n    chatHistory: *h\n    humanMessage: y\n';
    expect(parseSuite(text, 's.yaml').scenarios[1]?.chatHistory).toEqual([{ type: 'human', content: 'hi' }]);
  });

  it('refuses text over 5 MiB in parseSuite and files over 5 MiB in loadSuites', async () => {
    const big = `suite: big\nscenarios:\n  - name: a\n    humanMessage: hi\n# ${'x'.repeat(MAX_SUITE_BYTES)}\n`;
    expect(messageOf(() => parseSuite(big, 'big.yaml'))).toMatch(/^big\.yaml:1:1: file is larger than 5 MiB/);
    const file = join(dir, 'big.yaml');
    await writeFile(file, big);
    await expect(loadSuites([file])).rejects.toThrow(
      new RegExp(`big\\.yaml:1:1: file is larger than 5 MiB \\(${Buffer.byteLength(big)} bytes\\)`),
    );
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
      const t0 = performance.now();
      parseSuite(text, 'wide.yaml');
      return performance.now() - t0;
    };
    const unit = Math.min(timeOf(small), timeOf(small), timeOf(small));
    let started = performance.now();
    const suite = parseSuite(ok, 'wide.yaml');
    expect(performance.now() - started).toBeLessThan(40 * unit + 300);
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
    started = performance.now();
    const badText = `${[...head, ...bad].join('\n')}\n`;
    expect(messageOf(() => parseSuite(badText, 'wide.yaml'))).toMatch(
      /^wide\.yaml:9506:7: YAML syntax error: Map keys must be unique/,
    );
    bad[9_500] = '      customExtractedInfo.k9500: "y"';
    const msg = messageOf(() => parseSuite(`${[...head, ...bad].join('\n')}\n`, 'wide.yaml'));
    // Three parses of the 10,000 keys (two of them failing at a key near the end).
    expect(performance.now() - started).toBeLessThan(3 * (40 * unit + 300));
    expect(msg).toMatch(/^wide\.yaml:9006:7: path "customExtractedInfo\[0\]" uses brackets/);
  });

  it('reports duplicate keys in nested block and flow maps (not only at the top level)', () => {
    const text =
      'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n    expect:\n      answer: { contains: x, contains: y }\n      intent: a\n      intent: b\n';
    const msg = messageOf(() => parseSuite(text, 'd.yaml'));
    expect(msg).toMatch(/d\.yaml:6:30: YAML syntax error: Map keys must be unique/);
    expect(msg).toMatch(/d\.yaml:8:7: YAML syntax error: Map keys must be unique/);
    // Keys equal only as text (the number 1 and the string "1") are distinct YAML keys.
    expect(() => parseSuite('suite: s\nvars: { 1: a, "1": b }\nscenarios: []\n', 'n.yaml')).not.toThrow(/unique/);
  });

  it('survives binary garbage and odd keys', () => {
    expect(messageOf(() => parseSuite('\u0000\u0001\u0002: [', 'bin.yaml'))).toMatch(/^bin\.yaml:\d+:\d+: /);
    expect(messageOf(() => parseSuite('suite: s\nscenarios:\n  - ? [a, b]\n    : c\n', 'k.yaml'))).toMatch(
      /^k\.yaml:\d+:\d+: /,
    );
    expect(messageOf(() => parseSuite('suite: s\n__proto__: { polluted: true }\nscenarios: []\n', 'p.yaml'))).toMatch(
      /^p\.yaml:\d+:\d+: /,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
