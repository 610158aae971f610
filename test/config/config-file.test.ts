/**
 * The one configuration of every job: the config file parsed with file:line:col errors and no
 * secrets; flags > environment > .env > config file > defaults, for run, load and capacity alike.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFlags, parseConfigFile, readDotenv, resolveConfig, withDotenv } from '../../src/config/index.js';
import { ConfigError, ConfigFileError } from '../../src/errors.js';

function errorOf(fn: () => unknown): ConfigFileError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigFileError) return err;
    throw err;
  }
  throw new Error('expected a ConfigFileError');
}

describe('droidcheck.config.yaml', () => {
  it('parses the shared flags and the command sections', () => {
    const file = parseConfigFile(
      'paths: [suites]\nmode: async\nthresholds: ["ack.p99 < 50ms"]\nrun:\n  concurrency: 4\nload:\n  rate: 20\ncapacity:\n  maxRate: 300\n',
      'c.yaml',
    );
    expect(fileFlags(file, 'run')).toEqual({
      paths: ['suites'],
      concurrency: 4,
      mode: 'async',
      thresholds: ['ack.p99 < 50ms'],
    });
    expect(fileFlags(file, 'load')).toMatchObject({ paths: ['suites'], rate: 20 });
    expect(fileFlags(file, 'capacity')).toMatchObject({ maxRate: 300 });
    expect(fileFlags(file, 'capacity')).not.toHaveProperty('rate');
  });

  it('names file:line:col for a wrong type and an unknown key with a suggestion', () => {
    expect(errorOf(() => parseConfigFile('reportDir: r\nretries: many\n', 'c.yaml')).message).toMatch(
      /^c\.yaml:2:10: retries: "many" must be a whole number/,
    );
    const both = errorOf(() => parseConfigFile('run:\n  concurrency: many\n  concurency: 3\n', 'c.yaml'));
    expect(both.issues.map((i) => i.location.line)).toEqual([2, 3]);
    const typo = errorOf(() => parseConfigFile('reportDir: r\nretires: 3\n', 'c.yaml'));
    expect(typo.message).toMatch(/^c\.yaml:2:1: .*"retires".*did you mean "retries"/);
    expect(errorOf(() => parseConfigFile('load:\n  rate: fast\n', 'c.yaml')).message).toMatch(/^c\.yaml:2:9: /);
  });

  it('reports every mistake at once, each at its line, under its own code: a misspelt key with where it belongs, a bad value', () => {
    const err = errorOf(() =>
      parseConfigFile(
        'paths: [suites]\nconcurency: 4\nmode: turbo\nload:\n  rate: 5\n  timout: 30s\ncapacity:\n  warmup: soon\n',
        'c.yaml',
      ),
    );
    expect(err.code).toBe('DROIDCHECK_ERR_CONFIG_FILE');
    expect(err.exitCode).toBe(2);
    expect(err.message.split('\n')).toEqual([
      'c.yaml:2:1: unknown key "concurency" — did you mean "concurrency" under `run:` or `load:`?',
      'c.yaml:3:7: mode: "turbo" must be sync, async or both',
      'c.yaml:6:3: unknown key "timout" — did you mean "timeout"?',
      expect.stringMatching(/^c\.yaml:8:11: capacity\.warmup: "soon" /),
    ]);
  });

  it("names a misplaced key, a secret and a wrong type together, and a judge section's secret and URL", () => {
    const err = errorOf(() =>
      parseConfigFile(
        'rate: 5\ntoken: abc123456789\nretries: [1]\njudge:\n  apiKey: sk-secret-0123\n  baseUrl: localhost:11434\n',
        'c.yaml',
      ),
    );
    expect(err.issues.map((i) => `${i.location.line}:${i.location.col}`)).toEqual([
      '1:1',
      '2:1',
      '3:10',
      '5:3',
      '6:12',
    ]);
    expect(err.message).toContain(
      'c.yaml:1:1: "rate" is an option of droidcheck load, not of every command: put it under `load:`',
    );
    expect(err.message).toContain('c.yaml:3:10: "retries": must be a string or a number, got a list');
    expect(err.message).toContain('"judge.apiKey" does not belong in a file: export OPENAI_API_KEY');
    expect(err.message).toContain('judge.baseUrl: "localhost:11434" is not an http(s) URL');
    expect(err.message).not.toMatch(/abc123456789|sk-secret/);
  });

  it("a command's word for a flag another command has under another key: says the key of its section", () => {
    const err = errorOf(() =>
      parseConfigFile('redteam:\n  strategy: adaptive\ncapacity:\n  strategy: bisect\n', 'c.yaml'),
    );
    expect(err.issues.map((i) => i.message)).toEqual([
      '"strategy" is not an option of droidcheck redteam: its --strategy is written "attackStrategy" under `redteam:`',
    ]);
    const config = parseConfigFile('redteam:\n  attackStrategy: adaptive\ncapacity:\n  strategy: bisect\n', 'c.yaml');
    expect(fileFlags(config, 'redteam')).toMatchObject({ attackStrategy: 'adaptive' });
    expect(fileFlags(config, 'capacity')).toMatchObject({ strategy: 'bisect' });
  });

  it('refuses a token or secret written into the file', () => {
    const err = errorOf(() => parseConfigFile('reportDir: r\ntoken: abc123\n', 'c.yaml'));
    expect(err.message).toContain('c.yaml:2:1');
    expect(err.message).toContain('DROID_API_TOKEN');
    expect(err.message).not.toContain('abc123');
  });

  it('applies flags > environment > config file > defaults, for every command', () => {
    const file = { retries: 3, reportDir: 'from-file', baseUrl: 'http://127.0.0.1:1', droidId: 5 };
    const env = { DROID_BASE_URL: 'http://127.0.0.1:2', DROID_API_TOKEN: 't0ken-value' };
    for (const command of ['run', 'load', 'capacity'] as const) {
      const config = resolveConfig(command, { retries: 9 }, env, file);
      expect(config.retries).toBe(9); // flag beats file
      expect(config.reportDir).toBe('from-file'); // file beats default
      expect(config.target).toMatchObject({ kind: 'remote', baseUrl: 'http://127.0.0.1:2', droidId: '5' }); // env beats file
    }
    expect(resolveConfig('run', {}, {}, {}).concurrency).toBe(8); // default
  });

  it('takes --sync-message auto|object|string and --exclude-tag', () => {
    expect(resolveConfig('run', {}, {}, {}).syncMessage).toBe('auto');
    expect(resolveConfig('run', { syncMessage: 'string' }, {}, { syncMessage: 'object' }).syncMessage).toBe('string');
    expect(() => resolveConfig('run', { syncMessage: 'text' }, {}, {})).toThrow(
      /--sync-message: "text" must be auto, object or string/,
    );
    expect(resolveConfig('load', {}, {}, { excludeTags: ['emulator-only'] }).excludeTags).toEqual(['emulator-only']);
  });

  it('refuses a token or secret shorter than 8 characters (whole-token redaction needs them long)', () => {
    expect(() => resolveConfig('run', { baseUrl: 'http://127.0.0.1:1', droidId: 1 }, { DROID_API_TOKEN: 'x' })).toThrow(
      ConfigError,
    );
    expect(() => resolveConfig('run', {}, { DROID_WEBHOOK_SECRET: 'short' })).toThrow(
      /DROID_WEBHOOK_SECRET is 5 characters long; use at least 8/,
    );
  });

  it('reads .env under the environment: what is exported wins', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-env-'));
    try {
      await writeFile(
        join(dir, '.env'),
        '# a comment\nDROID_BASE_URL=http://127.0.0.1:7\nDROID_ID=12\nDROID_API_TOKEN="from-dotenv-0123"\n',
      );
      expect(readDotenv(dir)).toMatchObject({ DROID_ID: '12', DROID_API_TOKEN: 'from-dotenv-0123' });
      const env = withDotenv({ DROID_ID: '99' }, dir);
      const config = resolveConfig('run', {}, env, {});
      expect(config.target).toEqual({
        kind: 'remote',
        baseUrl: 'http://127.0.0.1:7',
        droidId: '99',
        token: 'from-dotenv-0123',
      });
      expect(readDotenv(join(dir, 'none'))).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
