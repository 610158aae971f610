/**
 * How a command's end becomes an exit code and what the user reads (cli/run-program.ts, shared by
 * the binary and the in-process tests; docs/exit-codes.md).
 */
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli/run-program.js';
import type { CliContext } from '../../src/cli/shared.js';
import { InternalError, ScenarioError, UsageError } from '../../src/errors.js';
import { TOOL_VERSION } from '../../src/report/index.js';
import { droidcheck } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process-cli.js';

function context(env: NodeJS.ProcessEnv = {}): CliContext & { text(): string } {
  let text = '';
  const stderr = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stdout: new Writable({ write: (_c, _e, d) => d() }),
    stderr,
    env,
    color: false,
    exitCode: 0,
    text: () => text,
  };
}

describe('reportError', () => {
  it('a user mistake: its code and message on one line, exit 2, no stack', () => {
    const ctx = context();
    expect(reportError(new UsageError('--port 8787: the port is already in use'), ctx)).toBe(2);
    expect(ctx.text()).toBe('droidcheck: DROIDCHECK_ERR_USAGE: --port 8787: the port is already in use\n');
    const file = context();
    expect(
      reportError(
        new ScenarioError([{ location: { file: 'a.yaml', line: 3, col: 5 }, message: 'unknown key "x"' }]),
        file,
      ),
    ).toBe(2);
    expect(file.text()).toBe('droidcheck: DROIDCHECK_ERR_SCENARIO: a.yaml:3:5: unknown key "x"\n');
  });

  it('anything else is a droidcheck bug: exit 70, "internal error", the stack only with DROIDCHECK_DEBUG', () => {
    const ctx = context();
    expect(reportError(new TypeError('x is undefined'), ctx)).toBe(70);
    expect(ctx.text()).toBe(
      'droidcheck: internal error: x is undefined\n(set DROIDCHECK_DEBUG=1 to see the stack; please report it)\n',
    );
    const debug = context({ DROIDCHECK_DEBUG: '1' });
    reportError(new TypeError('x is undefined'), debug);
    expect(debug.text()).toMatch(/TypeError: x is undefined\n\s+at /);
    expect(reportError(new InternalError('outcomes do not add up'), context())).toBe(70);
  });

  it("commander's own ends: --help and --version 0, usage mistakes 2", () => {
    expect(reportError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), context())).toBe(0);
    expect(
      reportError(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), context()),
    ).toBe(2);
  });

  it('redacts the secrets of the environment from every line', () => {
    const ctx = context({ DROID_API_TOKEN: 'secret-token-123456' });
    reportError(new Error('request with secret-token-123456 failed'), ctx);
    expect(ctx.text()).not.toContain('secret-token-123456');
    expect(ctx.text()).toContain('[REDACTED]');
  });
});

describe('--version', () => {
  it("prints package.json's version, the one every report names (toolVersion), and exits 0", async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const r = await cliInProcess(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(TOOL_VERSION).toBe(pkg.version);
  });
});

describe('the binary', () => {
  it('exits only once its output is written: a piped report schema (147 KB) arrives whole', async () => {
    const r = await droidcheck(['schema', '--report']);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(await readFile(new URL('../../report.schema.json', import.meta.url), 'utf8')),
    );
  });
});
