/**
 * One resolution for every command (src/config/resolve.ts `resolveConfig`): each command's
 * configuration is a shaping of the table's values, and every default is the table's (or, for the
 * embedded emulator's own, src/defaults.ts, which the emulator reads too).
 */
import { describe, expect, it } from 'vitest';
import { OPTION_COMMANDS, resolveConfig } from '../../src/config/index.js';
import { resolveOptions as emulatorDefaults } from '../../src/emulator/options.js';
import { UsageError } from '../../src/errors.js';

describe('resolveConfig, every command', () => {
  it.each(OPTION_COMMANDS.map((c) => [c] as const))('%s resolves from the table alone', (command) => {
    // receive needs its Redis: the one value without a default.
    const env = command === 'receive' ? { DROIDCHECK_REDIS_URL: 'redis://127.0.0.1:6379/0' } : {};
    expect(resolveConfig(command, {}, env)).toBeTypeOf('object');
  });

  it("emulate's defaults are the emulator's own: the flags and an emulator created without options agree", () => {
    const flags = resolveConfig('emulate', {}, {});
    const own = emulatorDefaults({});
    expect({ host: flags.host, port: flags.port, seed: flags.seed }).toEqual({
      host: own.host,
      port: own.port,
      seed: own.seed,
    });
    const { maxBackoffMs: _, ...delivery } = own.delivery;
    expect(flags.delivery).toEqual(delivery);
    const policy = resolveConfig('webhook-policy', {}, {});
    expect(policy.target).toEqual({ kind: 'emulator' });
    expect(policy.webhookPolicy.retry).toEqual(delivery);
  });

  it('a job command takes the table defaults of the options it does not have', () => {
    expect(resolveConfig('capacity', {}, {}).concurrency).toBe(8);
    const redteam = resolveConfig('redteam', {}, {});
    expect(redteam).toMatchObject({ paths: ['scenarios'], tags: [], retries: 0, verbose: false, failOnFlaky: false });
    expect(redteam.redteam.mode).toBe('sync');
  });

  it('an empty list asks for the default: every default reporter, the scenarios folder', () => {
    const none = resolveConfig('run', { reporters: [], paths: [] }, {}, { reporters: ['json'] });
    expect(none).toMatchObject({
      reporters: ['console', 'json', 'junit', 'html', 'markdown', 'ndjson'],
      defaultReporters: true,
      paths: ['scenarios'],
    });
    const fromFile = resolveConfig('run', {}, {}, { reporters: ['json'] });
    expect(fromFile).toMatchObject({ reporters: ['json'], defaultReporters: false });
  });

  it('emulatorThread is a table option of the API: flags over the file, worker by default, a bad value refused', () => {
    expect(resolveConfig('run', {}, {}).emulatorThread).toBe('worker');
    expect(resolveConfig('load', {}, {}, { emulatorThread: 'inline' }).emulatorThread).toBe('inline');
    expect(resolveConfig('run', { emulatorThread: 'worker' }, {}, { emulatorThread: 'inline' }).emulatorThread).toBe(
      'worker',
    );
    const bad = () => resolveConfig('run', { emulatorThread: 'thread' as 'inline' }, {});
    expect(bad).toThrow(UsageError);
    expect(bad).toThrow('emulatorThread: "thread" must be worker or inline');
  });

  it("refuses another command's option given through the API, naming the commands that have it", () => {
    expect(() => resolveConfig('doctor', { rate: 5 }, {})).toThrow(
      '--rate is an option of `droidcheck load`, not of `droidcheck doctor`',
    );
    // A switch at its default asks for nothing (commander's values hold every --no-* flag as true).
    expect(() => resolveConfig('emulate', { defaultThresholds: true }, {})).not.toThrow();
  });
});

describe('validation lives in the table: a value is refused where it is resolved', () => {
  it("redteam's categories and weaknesses are typed ids, an unknown one refused with a did-you-mean", () => {
    const ok = resolveConfig(
      'redteam',
      { categories: ['prompt-leak'], emulatorWeaknesses: 'discount, negative-quantity' },
      {},
    );
    expect(ok.redteam.categories).toEqual(['prompt-leak']);
    expect(ok.redteam.emulatorWeaknesses).toEqual(['discount', 'negative-quantity']);
    expect(() => resolveConfig('redteam', { categories: ['prompt-leek'] }, {})).toThrow(
      /^--category: unknown category "prompt-leek" — did you mean "prompt-leak"\?; the categories are price-manipulation, /,
    );
    expect(() => resolveConfig('redteam', { emulatorWeaknesses: 'discont' }, {})).toThrow(
      /^--emulator-weaknesses: unknown weakness "discont" — did you mean "discount"\?; the weaknesses are /,
    );
  });

  it('what redteam options mean together is checked with them (UsageError, exit 2)', () => {
    const remote = { baseUrl: 'http://127.0.0.1:9', droidId: 1 };
    const env = { DROID_API_TOKEN: 'tok-0123456789abcdef' };
    expect(() => resolveConfig('redteam', { ...remote, emulatorWeaknesses: 'discount' }, env)).toThrow(UsageError);
    expect(() => resolveConfig('redteam', { rephrase: true }, {})).toThrow(/--rephrase has the judge model/);
    expect(() => resolveConfig('redteam', { attackStrategy: 'adaptive' }, {})).toThrow(
      /--strategy adaptive needs a chat model/,
    );
  });

  it("one flag, two keys: --strategy is capacity's search and redteam's attacks, each typed by its own values", () => {
    const search: 'step' | 'bisect' = resolveConfig('capacity', { strategy: 'bisect' }, {}).capacity.strategy;
    expect(search).toBe('bisect');
    const attacks: 'templates' | 'adaptive' = resolveConfig('redteam', {}, {}).redteam.strategy;
    expect(attacks).toBe('templates');
    const mode: 'sync' | 'async' = resolveConfig('redteam', { mode: 'async' }, {}).redteam.mode;
    expect(mode).toBe('async');
    expect(() => resolveConfig('capacity', { strategy: 'adaptive' as 'step' }, {})).toThrow(
      '--strategy: "adaptive" must be step or bisect',
    );
    expect(() => resolveConfig('redteam', { mode: 'both' }, {})).toThrow('--mode: "both" must be sync or async');
    expect(() => resolveConfig('run', { attackStrategy: 'adaptive' }, {})).toThrow(
      '--strategy is an option of `droidcheck capacity` and `droidcheck redteam`, not of `droidcheck run`',
    );
  });
});
