/**
 * The table of options (src/config/options.ts) is the one declaration: the commander options of
 * every command, the config file's keys and the docs' table are derived from it, and a config
 * file's value goes through the flag's own parser (same words, at file:line:col).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/shared.js';
import {
  fileFlags,
  isSharedKey,
  OPTION_COMMANDS,
  OPTIONS,
  optionsMarkdown,
  OPTIONS_BEGIN,
  OPTIONS_END,
  optionsOf,
  parseConfigFile,
  resolveConfig,
  specFor,
  userConfigSchema,
  type OptionKey,
  type OptionSpec,
} from '../../src/config/index.js';
import { ConfigFileError } from '../../src/errors.js';
import { REPO } from '../helpers/cli.js';

const sink = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });
const ctx = (): CliContext => ({ stdout: sink(), stderr: sink(), env: {}, color: false, exitCode: 0 });

function fileError(fn: () => unknown): ConfigFileError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigFileError) return err;
    throw err;
  }
  throw new Error('expected a ConfigFileError');
}

describe('the table of options', () => {
  const program = createProgram(ctx());

  it.each(OPTION_COMMANDS.map((c) => [c] as const))(
    'droidcheck %s declares exactly its options of the table',
    (command) => {
      const cmd = program.commands.find((c) => c.name() === command)!;
      const visible = cmd.options.filter((o) => !o.hidden);
      const table = optionsOf(command).filter(([, o]) => o.flag !== undefined);
      expect(visible.map((o) => o.long).sort()).toEqual(table.map(([, o]) => o.flag).sort());
      for (const [key, o] of table) {
        const option = visible.find((v) => v.long === o.flag)!;
        expect(option.short, key).toBe(o.short);
        expect(option.description, key).toContain(specFor(key, command).help);
      }
      // Every other command's flag is there, hidden, so that giving it says which command has it
      // (a flag the command has under another key of the table, `--strategy`, is its own).
      const hidden = cmd.options.filter((o) => o.hidden).map((o) => o.long);
      const own = new Set(table.map(([, o]) => o.flag));
      const others = (Object.values(OPTIONS) as OptionSpec[])
        .filter((o) => o.flag !== undefined && !o.commands.includes(command) && !own.has(o.flag))
        .map((o) => o.flag);
      expect([...new Set(others)].sort()).toEqual(hidden.sort());
    },
  );

  it('derives the config file: top-level keys of every job command, the others in their sections', () => {
    const keys = (Object.keys(OPTIONS) as OptionKey[]).filter((k) => (OPTIONS[k] as OptionSpec).file !== false);
    expect(Object.keys(userConfigSchema.shape).sort()).toEqual(
      [...keys.filter(isSharedKey), 'run', 'load', 'capacity', 'redteam', 'judge'].sort(),
    );
    for (const section of ['run', 'load', 'capacity', 'redteam'] as const) {
      const shape = (userConfigSchema.shape[section].unwrap() as unknown as { shape: Record<string, unknown> }).shape;
      expect(Object.keys(shape).sort(), section).toEqual(
        keys.filter((k) => (OPTIONS[k] as OptionSpec).commands.includes(section)).sort(),
      );
    }
  });

  it("parses a file value with the flag's parser: the same words, at file:line:col", () => {
    const fromFlag = (() => {
      try {
        resolveConfig('run', { timeout: 'soon' }, {});
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(fromFlag).toBe('--timeout: "soon" is not a duration; write e.g. 500ms, 30s, 2m');
    const err = fileError(() => parseConfigFile('reportDir: r\ntimeout: soon\n', 'droidcheck.config.yaml'));
    expect(err.message).toBe(
      'droidcheck.config.yaml:2:10: timeout: "soon" is not a duration; write e.g. 500ms, 30s, 2m',
    );
    expect(err.message).not.toContain('--timeout');
    expect(fileError(() => parseConfigFile('load:\n  maxInFlight: 0\n', 'c.yaml')).message).toBe(
      'c.yaml:2:16: load.maxInFlight: "0" must be a whole number >= 1',
    );
    expect(fileError(() => parseConfigFile('thresholds: ["answer.max < 180"]\n', 'c.yaml')).message).toMatch(
      /^c\.yaml:1:14: thresholds: threshold "answer\.max < 180": "180" needs a unit: write 180ms or 180s$/,
    );
    expect(fileError(() => parseConfigFile('capacity:\n  maxErrorRate: 2\n', 'c.yaml')).message).toMatch(
      /^c\.yaml:2:17: capacity\.maxErrorRate: "2" must be 0\.\.1/,
    );
  });

  it("reports a conflict between file values as the file's, at their line:col", () => {
    const file = parseConfigFile('load:\n  concurrency: 8\n  rate: 5\n', 'droidcheck.config.yaml');
    expect(() => resolveConfig('load', {}, {}, fileFlags(file, 'load'))).toThrow(
      'load.concurrency (droidcheck.config.yaml:2:16) sets the closed model and load.rate (droidcheck.config.yaml:3:9) the open model: keep one',
    );
  });

  it('types the configuration by command: a load has its load settings', () => {
    const load = resolveConfig('load', { rate: 5 }, {});
    expect(load.load.model.kind).toBe('open');
    const capacity = resolveConfig('capacity', {}, {});
    expect(capacity.capacity.maxRate).toBe(2000);
    expect(resolveConfig('run', {}, {})).not.toHaveProperty('load');
  });

  it('docs/options.md holds the table generated from the options (UPDATE_OPTIONS_DOC=1 rewrites it)', async () => {
    const path = join(REPO, 'docs', 'options.md');
    const doc = await readFile(path, 'utf8');
    const begin = doc.indexOf(OPTIONS_BEGIN);
    const end = doc.indexOf(OPTIONS_END);
    expect(begin, 'docs/options.md has the markers').toBeGreaterThanOrEqual(0);
    const current = doc.slice(begin, end + OPTIONS_END.length);
    if (process.env.UPDATE_OPTIONS_DOC && current !== optionsMarkdown())
      await writeFile(path, doc.replace(current, optionsMarkdown()));
    else
      expect(
        current,
        'docs/options.md differs from the table: run UPDATE_OPTIONS_DOC=1 npx vitest run --project unit test/config/options-table.test.ts',
      ).toBe(optionsMarkdown());
    expect(await readFile(join(REPO, 'README.md'), 'utf8')).toContain('(docs/options.md)');
  });
});
