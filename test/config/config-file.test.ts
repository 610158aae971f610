/** The config file: parsed with file:line:col errors, no secrets, flags > env > file > defaults. */
import { describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../src/config-file.js';
import { resolveRunConfig } from '../../src/config.js';
import { ScenarioError } from '../../src/errors.js';

function errorOf(fn: () => unknown): ScenarioError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ScenarioError) return err;
    throw err;
  }
  throw new Error('expected a ScenarioError');
}

describe('droidcheck.config.yaml', () => {
  it('parses the run flags', () => {
    const flags = parseConfigFile('paths: [suites]\nconcurrency: 4\nmode: async\nthresholds: ["ack.p99 < 50ms"]\n', 'c.yaml');
    expect(flags).toEqual({ paths: ['suites'], concurrency: 4, mode: 'async', thresholds: ['ack.p99 < 50ms'] });
  });

  it('names file:line:col for a wrong type and an unknown key with a suggestion', () => {
    expect(errorOf(() => parseConfigFile('reportDir: r\nconcurrency: many\n', 'c.yaml')).message).toMatch(/^c\.yaml:2:14: .*number/);
    const both = errorOf(() => parseConfigFile('concurrency: many\nconcurency: 3\n', 'c.yaml'));
    expect(both.issues.map((i) => i.location.line).sort()).toEqual([1, 2]);
    const typo = errorOf(() => parseConfigFile('reportDir: r\nconcurency: 3\n', 'c.yaml'));
    expect(typo.message).toMatch(/^c\.yaml:2:1: .*"concurency".*did you mean "concurrency"/);
  });

  it('refuses a token or secret written into the file', () => {
    const err = errorOf(() => parseConfigFile('reportDir: r\ntoken: abc123\n', 'c.yaml'));
    expect(err.message).toContain('c.yaml:2:1');
    expect(err.message).toContain('DROID_API_TOKEN');
    expect(err.message).not.toContain('abc123');
  });

  it('applies flags > environment > config file > defaults', () => {
    const file = { concurrency: 3, reportDir: 'from-file', baseUrl: 'http://127.0.0.1:1', droidId: 5 };
    const env = { DROID_BASE_URL: 'http://127.0.0.1:2', DROID_API_TOKEN: 't0ken-value' };
    const config = resolveRunConfig({ concurrency: 9 }, env, file);
    expect(config.concurrency).toBe(9); // flag beats file
    expect(config.reportDir).toBe('from-file'); // file beats default
    expect(config.target).toMatchObject({ kind: 'remote', baseUrl: 'http://127.0.0.1:2', droidId: '5' }); // env beats file
    expect(resolveRunConfig({}, {}, {}).concurrency).toBe(8); // default
  });
});
