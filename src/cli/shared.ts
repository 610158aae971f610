import type { Writable } from 'node:stream';

/** What every command gets from main: streams, environment, and where to put the exit code. */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  color: boolean;
  /** Set by the command; main exits with it. */
  exitCode: number;
}

/** commander helper for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
