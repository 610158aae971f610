/**
 * A real pseudo terminal for the tests of what a user sees: runs a shell
 * command in a detached tmux session of a given size (tmux is the terminal emulator: cursor
 * moves, line clears and carriage returns are applied as a terminal applies them), and returns
 * the screen as the user would read it afterwards, scrollback included.
 *
 * Each session has its own tmux server (`-L`), no user configuration (`-f` a file of ours) and a
 * clean environment (`env -i`): only PATH, HOME, TERM and what the test passes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS } from './hang.js';

const run = promisify(execFile);

/** True when tmux is installed (`.ci/run` installs it). */
export async function hasTmux(): Promise<boolean> {
  try {
    await run('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface PtySession {
  /** The whole screen and scrollback, wrapped lines joined, trailing blank lines dropped. */
  screen(): Promise<string>;
  /** tmux key names, e.g. `C-c`. */
  sendKeys(...keys: string[]): Promise<void>;
  /** Polls the screen every 100 ms until `pattern` shows; throws after `maxMs` (default HANG_MS, helpers/hang.ts). */
  waitFor(pattern: RegExp, maxMs?: number): Promise<string>;
  /** The command's exit code, once it ended (printed by the wrapper as `<<exit N>>`); waits as waitFor. */
  exitCode(maxMs?: number): Promise<number>;
  close(): Promise<void>;
}

let sessions = 0;

/**
 * Starts `argv` (run through `sh -c` in `cwd`) in a `cols` x `rows` terminal with `env` added to
 * a minimal environment. The command's exit code is printed after it as `<<exit N>>`.
 */
export async function startInPty(
  argv: string[],
  opts: { cwd: string; env?: Record<string, string>; cols?: number; rows?: number },
): Promise<PtySession> {
  const dir = await mkdtemp(join(tmpdir(), 'droidcheck-pty-'));
  const conf = join(dir, 'tmux.conf');
  await writeFile(conf, 'set -g history-limit 100000\nset -g remain-on-exit on\nset -g status off\n');
  const socket = `droidcheck-test-${process.pid}-${++sessions}`;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ...(opts.env ?? {}),
  };
  const envArgs = Object.entries(env)
    .map(([k, v]) => quote(`${k}=${v}`))
    .join(' ');
  // The wrapper survives Ctrl-C as an interactive shell does (the trap is reset for the command).
  const script = `trap : INT; cd ${quote(opts.cwd)} && env -i ${envArgs} ${argv.map(quote).join(' ')}; echo "<<exit $?>>"`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', conf, ...args], { maxBuffer: 64 * 1024 * 1024 });
  await tmux(
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(opts.cols ?? 100),
    '-y',
    String(opts.rows ?? 24),
    `sh -c ${quote(script)}`,
  );
  const screen = async (): Promise<string> => {
    const { stdout } = await tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', 'main');
    return stdout.replace(/\s+$/, '');
  };
  const waitFor = async (pattern: RegExp, maxMs = HANG_MS): Promise<string> => {
    const end = performance.now() + maxMs;
    for (;;) {
      const text = await screen();
      if (pattern.test(text)) return text;
      if (performance.now() > end)
        throw new Error(`timed out after ${maxMs} ms waiting for ${pattern} on the terminal; it shows:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    screen,
    waitFor,
    async sendKeys(...keys) {
      await tmux('send-keys', '-t', 'main', ...keys);
    },
    async exitCode(maxMs = HANG_MS) {
      const text = await waitFor(/<<exit \d+>>/, maxMs);
      return Number(/<<exit (\d+)>>/.exec(text)![1]);
    },
    async close() {
      await tmux('kill-server').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
