/**
 * The CLI in this process (runProgram with captured streams): for tests of what a command prints
 * and returns without a child process's start-up (the emulator, where a command runs one, is
 * still real, on 127.0.0.1).
 */
import { Writable } from 'node:stream';
import { runProgram } from '../../src/cli/run-program.js';
import type { CliContext } from '../../src/cli/shared.js';

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

/** Runs `droidcheck <args>` in process with `CI=true` and no colour; its exit code and output. */
export async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const ctx: CliContext = { stdout, stderr, env: { CI: 'true' }, color: false, exitCode: 0 };
  const code = await runProgram(['node', 'droidcheck', ...args], ctx);
  return { code, stdout: stdout.text, stderr: stderr.text };
}
