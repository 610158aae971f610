import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { writeAboveProgress } from '../report/index.js';
import { formatMs } from '../units.js';
import { installInterruptHandlers } from './signals.js';

/** What every command gets from main: streams, environment, and where to put the exit code. */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  color: boolean;
  /** Set by the command; main exits with it. */
  exitCode: number;
}

/** commander helper for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export interface InterruptSignals {
  stopSignal: AbortSignal;
  abortSignal: AbortSignal;
}

/**
 * Runs `body` with SIGINT/SIGTERM handling (signals.ts) and sets `ctx.exitCode`: 130 when
 * interrupted, else the body's exit code.
 */
export async function withInterrupts(
  ctx: CliContext,
  graceMs: number,
  body: (signals: InterruptSignals) => Promise<{ exitCode: number }>,
): Promise<void> {
  // Through the live progress bar when one is drawn (it redraws below the line); on a plain
  // terminal after a line break, past the `^C` the terminal echoed.
  const interrupts = installInterruptHandlers(graceMs, (sig) =>
    writeAboveProgress(
      ctx.stderr,
      `droidcheck: ${sig}: no new requests; waiting up to ${formatMs(graceMs)} for in-flight ones`,
      { breakLine: Boolean(ctx.stderr.isTTY) },
    ),
  );
  try {
    const { exitCode } = await body({ stopSignal: interrupts.stopSignal, abortSignal: interrupts.abortSignal });
    ctx.exitCode = interrupts.received ? EXIT.INTERRUPTED : exitCode;
  } finally {
    interrupts.dispose();
  }
}

/**
 * The options the user actually gave (on the command line or via commander's env), without
 * commander's defaults, so a config file can sit between them and droidcheck's own defaults.
 */
export function explicitOptions<T extends object>(command: Command): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(command.opts())) {
    if (command.getOptionValueSource(key) !== 'default') out[key] = value;
  }
  return out as Partial<T>;
}
