#!/usr/bin/env node
/**
 * The binary: runs the command line (run-program.ts) and is the only place that exits the
 * process, with the code the command ended with (docs/exit-codes.md).
 */
// First, before any module that schedules a tick: see tick-shape.ts.
import '../tick-shape.js';
// Second, before the program's modules load: V8's heap flags of `load` and `capacity` (v8-first.ts).
import './v8-first.js';
import { unsupportedNodeLine } from './node-support.js';
import type { CliContext } from './shared.js';

// The program's ~400 modules load only now, after the two above: a static import would load
// (read and parse) them before either runs.
const { EXIT } = await import('../errors.js');
const { runProgram } = await import('./run-program.js');

const ctx: CliContext = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !process.env.CI,
  exitCode: EXIT.OK,
};

// An unsupported Node.js is said once, without changing the verdict (node-support.ts).
const unsupported = unsupportedNodeLine(process.version);
if (unsupported) process.stderr.write(`${unsupported}\n`);

/**
 * Exits with `code` once stdout and stderr have handed everything written to the OS: a pipe (`|
 * jq`) takes what was written asynchronously, and an exit before that would cut the output (at
 * 64 KiB: `schema --report` is larger). A closed pipe ends the wait too.
 */
function exitAfterOutput(code: number): void {
  let open = 2;
  const flushed = (): void => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}

// Exit explicitly: a keep-alive socket or a timer left by a target must not hold the process.
runProgram(process.argv, ctx).then(exitAfterOutput, () => exitAfterOutput(EXIT.INTERNAL));
