#!/usr/bin/env node
/**
 * The binary: runs the command line (run-program.ts) and is the only place that exits the
 * process, with the code the command ended with (docs/exit-codes.md).
 */
import { EXIT } from '../errors.js';
import { runProgram } from './run-program.js';
import type { CliContext } from './shared.js';

const ctx: CliContext = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !process.env.CI,
  exitCode: EXIT.OK,
};

// Exit explicitly: a keep-alive socket or a timer left by a target must not hold the process.
runProgram(process.argv, ctx).then(
  (code) => process.exit(code),
  () => process.exit(EXIT.INTERNAL),
);
