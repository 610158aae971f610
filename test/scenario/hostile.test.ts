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
