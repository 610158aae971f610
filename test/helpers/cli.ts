/**
 * The one CLI spawner of the tests: runs the built CLI (`node dist/cli/main.js`, so `npm run
 * build` first) as a real child process, collecting stdout/stderr, with a bounded wait (HANG_MS
 * unless a test says otherwise: a hang detector, not a speed assertion; helpers/hang.ts). For
 * tests where the process is the point (signals, exit, the binary, the environment); the others
 * run the CLI in process (helpers/in-process-cli.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANG_MS } from './hang.js';

export { freePort } from './ports.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** The repository root (the CLI's default working directory in tests). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface CliChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Exit code (or the signal's name), at most `maxMs` (default HANG_MS) later; kills the child
   * with SIGKILL then, which resolves 'SIGKILL'.
   */
  exited(maxMs?: number): Promise<number | NodeJS.Signals>;
}

/** Spawns the CLI with `args` and `env` added to a minimal environment (no inherited secrets). */
export function startCli(args: string[], env: Record<string, string>, cwd = REPO): CliChild {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before these tests`);
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (err += c.toString()));
  const started = Date.now();
  const done = new Promise<number | NodeJS.Signals>((resolve) =>
    child.on('exit', (code, signal) => {
      collectReport(args, cwd, started);
      resolve(code ?? signal ?? -1);
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited(maxMs = HANG_MS) {
      const timer = setTimeout(() => child.kill('SIGKILL'), maxMs);
      return done.finally(() => clearTimeout(timer));
    },
  };
}

/**
 * Polls `check` every 50 ms until it is true, or throws naming `what` once `maxMs` (default
 * HANG_MS, a hang detector) passed.
 */
export async function until(check: () => boolean, what: string, maxMs = HANG_MS): Promise<void> {
  const end = performance.now() + maxMs;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out after ${maxMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface CliExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI to its end with `args` in `cwd` (default: the repository), in a minimal
 * environment (`CI=true`, `NO_COLOR=1`, no inherited secrets) plus `env`; killed after `maxMs`
 * (default HANG_MS; code null then).
 */
export async function droidcheck(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; maxMs?: number } = {},
): Promise<CliExit> {
  const child = startCli(args, { CI: 'true', ...(opts.env ?? {}) }, opts.cwd);
  const code = await child.exited(opts.maxMs ?? HANG_MS);
  return { code: typeof code === 'number' ? code : null, stdout: child.stdout(), stderr: child.stderr() };
}

/**
 * Where every report.json a CLI run of the tests wrote is copied (droidcheck must read back every
 * report it writes): the `readback` project (test/report/reports.readback.test.ts) feeds each to
 * `compare`, `merge`, `--baseline` and report.schema.json after the unit project. Emptied by
 * test/helpers/reports-setup.ts.
 */
export const COLLECTED_REPORTS = join(REPO, '.droidcheck', 'test-reports');
let collected = 0;

/**
 * Copies the report.json a CLI run wrote in its `-o`/`--report-dir` (or the default `reports/` of
 * `cwd`), if any; `started`: when the run started (ms since the epoch). For a child (startCli) and
 * a run in process (helpers/in-process-cli.ts) alike.
 */
export function collectReport(args: string[], cwd: string, started: number): void {
  const at = args.findIndex((a) => a === '-o' || a === '--report-dir');
  const dir =
    at >= 0
      ? args[at + 1]
      : args.some((a) => a === 'run' || a === 'load' || a === 'capacity' || a === 'merge')
        ? 'reports'
        : undefined;
  if (dir !== undefined) collectReportDir(isAbsolute(dir) ? dir : resolve(cwd, dir), started);
}

/**
 * Copies `dir`/report.json into COLLECTED_REPORTS when it was written after `since` (ms since
 * the epoch). For tests that run a job in-process; CLI runs are collected by startCli.
 */
export function collectReportDir(dir: string, since = 0): void {
  const file = join(dir, 'report.json');
  if (!existsSync(file) || !statSync(file).isFile() || statSync(file).mtimeMs < since - 1_000) return; // a directory there: a test of that mistake
  mkdirSync(COLLECTED_REPORTS, { recursive: true });
  copyFileSync(file, join(COLLECTED_REPORTS, `${process.pid}-${++collected}.json`));
}

/**
 * The exit code of a job that passed, read from the report.json in `reportDir`: 0, or 98 when the
 * run left a latency threshold not judged because it found its own figures untrusted (the load
 * generator was bound, as on a busy machine; docs/exit-codes.md). For tests of what a job does, not
 * of its latency gate: a busy machine must not turn their pass into a failure.
 */
export function passedExitCode(reportDir: string): number {
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as {
    thresholds?: { status: string }[];
  };
  return report.thresholds?.some((t) => t.status === 'not-judged') ? 98 : 0;
}
