#!/usr/bin/env node
/**
 * The binary. Parses arguments, runs the command, and is the only place that exits the
 * process: a DroidcheckError becomes its message and exit code, never a stack trace.
 */
import { CommanderError } from 'commander';
import { withDotenv } from '../config/index.js';
import { EXIT, isDroidcheckError } from '../errors.js';
import { createRedactor, environmentSecrets } from '../redact.js';
import { createProgram } from './program.js';
import type { CliContext } from './shared.js';

async function main(argv: string[]): Promise<number> {
  const ctx: CliContext = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !process.env.CI,
    exitCode: EXIT.OK,
  };
  const program = createProgram(ctx);
  let redact = createRedactor(environmentSecrets(process.env));
  try {
    redact = createRedactor(environmentSecrets(withDotenv(process.env)));
  } catch {
    // an unreadable .env is reported by the command itself
  }
  try {
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end with exit code 0; usage mistakes with 2.
      return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    if (isDroidcheckError(err)) {
      process.stderr.write(redact(`droidcheck: ${err.code}: ${err.message}\n`));
      return err.exitCode;
    }
    const detail = process.env.DROIDCHECK_DEBUG && err instanceof Error ? (err.stack ?? err.message) : String(err instanceof Error ? err.message : err);
    process.stderr.write(redact(`droidcheck: internal error: ${detail}\n`) + `(set DROIDCHECK_DEBUG=1 to see the stack; please report it)\n`);
    return EXIT.INTERNAL;
  }
}

// Exit explicitly: a keep-alive socket or a timer left by a target must not hold the process.
main(process.argv).then(
  (code) => process.exit(code),
  () => process.exit(EXIT.INTERNAL),
);
