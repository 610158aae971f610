/**
 * The CLI in this process (runProgram, what the binary runs, with captured streams): for tests of
 * what a command prints, writes and exits with, where a child process would prove nothing more
 * and cost a Node.js start-up (0.5-1 s of CPU) per command. The emulator, where a command runs
 * one, is still real, on 127.0.0.1 (inline: from source there is no built worker entry).
 *
 * Keep the child process of helpers/cli.ts where the process is the point: signals and exit on
 * interrupt, stdout flushed before exit, the built or installed binary, the environment a shell
 * gives, a process killed mid-run.
 *
 * Every run is as the binary's: the working directory is `cwd` for the run's duration (the
 * worker's own, restored after; the unit project runs one test at a time per worker process), the
 * environment the command is given is only `CI=true`, `NO_COLOR=1`, PATH and `env`, whatever
 * reaches this process's stdout, stderr or console meanwhile is the run's output too (as a
 * child's would be: a secret printed around the command's own streams is still seen), and the
 * report.json a run writes is collected for the readback project like a child's
 * (helpers/cli.ts, COLLECTED_REPORTS).
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { runProgram } from '../../src/cli/run-program.js';
import type { CliContext } from '../../src/cli/shared.js';
import { collectReport, REPO } from './cli.js';
import { HANG_MS } from './hang.js';

/** A stream that keeps what is written to it in `text`. */
export function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk, _enc, done) {
      w.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  w.text = '';
  return w;
}

export interface InProcessOptions {
  /** Added to `CI=true`, `NO_COLOR=1` and PATH. */
  env?: Record<string, string>;
  /** The run's working directory (default: the repository, as for a child). */
  cwd?: string;
  /** Hang bound (default HANG_MS): the run is then reported hung (it cannot be killed). */
  maxMs?: number;
}

export interface InProcessRun {
  /** What the command printed so far. */
  stdout(): string;
  stderr(): string;
  /** Its exit code; rejects when it did not end within `maxMs` (default HANG_MS). */
  exited(maxMs?: number): Promise<number>;
}

/** The runs in progress (two at once must share a working directory) and the one they share. */
const active = new Set<{ stdout: Writable & { text: string }; stderr: Writable & { text: string } }>();
let activeCwd: string | undefined;
let restoreCwd: (() => void) | undefined;
/** Undoes `capture()`. */
let release: (() => void) | undefined;

/**
 * Sends what is written to this process's stdout, stderr and console to every run in progress,
 * as a child process's own output would be its run's (until `release()`).
 */
function capture(): void {
  const streams = { stdout: process.stdout, stderr: process.stderr } as const;
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ['stdout', 'stderr'] as const) {
    streams[name].write = ((chunk: unknown, ...rest: unknown[]) => {
      for (const run of active) run[name].text += String(chunk);
      const done = rest.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (done) queueMicrotask(done);
      return true;
    }) as typeof process.stdout.write;
  }
  const console = globalThis.console;
  globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
  release = () => {
    streams.stdout.write = writes.stdout;
    streams.stderr.write = writes.stderr;
    globalThis.console = console;
  };
}

/**
 * Starts `droidcheck <args>` in this process and returns at once, for tests that act while it
 * runs (post to its receiver, read its output); `exited()` for its code.
 */
export function startInProcess(args: string[], opts: InProcessOptions = {}): InProcessRun {
  const cwd = opts.cwd ?? REPO;
  if (active.size > 0 && activeCwd !== cwd)
    throw new Error(`an in-process run in ${activeCwd} is in progress: runs at once must share a working directory`);
  const stdout = sink();
  const stderr = sink();
  const streams = { stdout, stderr };
  const ctx: CliContext = {
    stdout,
    stderr,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', ...opts.env },
    color: false,
    exitCode: 0,
  };
  const started = Date.now();
  if (active.size === 0) {
    const before = process.cwd();
    restoreCwd = () => process.chdir(before);
    activeCwd = cwd;
    process.chdir(cwd);
    capture();
  }
  active.add(streams);
  const done = runProgram(['node', 'droidcheck', ...args], ctx).finally(() => {
    collectReport(args, cwd, started);
    active.delete(streams);
    if (active.size === 0) {
      release?.();
      activeCwd = undefined;
      restoreCwd?.();
    }
  });
  return {
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    exited(maxMs = opts.maxMs ?? HANG_MS) {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`droidcheck ${args.join(' ')} did not end within ${maxMs} ms\n${stderr.text}`)),
          maxMs,
        );
      });
      return Promise.race([done, hung]).finally(() => clearTimeout(timer));
    },
  };
}

/** Runs `droidcheck <args>` in process to its end: its exit code and output. */
export async function cliInProcess(
  args: string[],
  opts: InProcessOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = startInProcess(args, opts);
  const code = await run.exited();
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
