/**
 * `runProgram(argv, ctx)`: parses and runs one command line and turns how it ended into an exit
 * code (docs/exit-codes.md). The binary (main.ts) and the in-process
 * tests share it, so a test sees exactly what a user sees:
 * - commander's own usage errors (unknown option, missing argument): its message, exit 2;
 * - a DroidcheckError: `droidcheck: <code>: <message>` on stderr, its exit code (2 for a
 *   user's mistake), never a stack trace;
 * - anything else is a droidcheck bug: `droidcheck: internal error: ...`, exit 70 (the stack
 *   only with DROIDCHECK_DEBUG=1).
 * Every line is redacted (the secrets of the environment and `.env`).
 */
import { CommanderError } from 'commander';
import { withDotenv } from '../config/index.js';
import { EXIT, isDroidcheckError } from '../errors.js';
import { createRedactor, environmentSecrets, type Redactor } from '../redact.js';
import { createProgram } from './program.js';
import type { CliContext } from './shared.js';

function redactorFor(env: NodeJS.ProcessEnv): Redactor {
  try {
    return createRedactor(environmentSecrets(withDotenv(env)));
  } catch {
    // an unreadable .env is reported by the command itself
    return createRedactor(environmentSecrets(env));
  }
}

/** What the user sees for an error thrown by a command, and the exit code it gives. */
export function reportError(err: unknown, ctx: CliContext, redact: Redactor = redactorFor(ctx.env)): number {
  if (err instanceof CommanderError) {
    // --help and --version end with exit code 0; usage mistakes with 2 (commander printed them).
    return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  }
  if (isDroidcheckError(err)) {
    ctx.stderr.write(redact(`droidcheck: ${err.code}: ${err.message}\n`));
    return err.exitCode;
  }
  const debug = Boolean(ctx.env.DROIDCHECK_DEBUG);
  const detail =
    debug && err instanceof Error ? (err.stack ?? err.message) : String(err instanceof Error ? err.message : err);
  ctx.stderr.write(
    `${redact(`droidcheck: internal error: ${detail}\n`)}(set DROIDCHECK_DEBUG=1 to see the stack; please report it)\n`,
  );
  return EXIT.INTERNAL;
}

/** Runs `argv` (`['node', 'droidcheck', ...args]`) and returns the exit code; never throws. */
export async function runProgram(argv: string[], ctx: CliContext): Promise<number> {
  const program = createProgram(ctx);
  try {
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (err) {
    return reportError(err, ctx);
  }
}
