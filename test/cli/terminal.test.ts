/**
 * What a user sees in a real terminal: `droidcheck run` in a pseudo terminal
 * (tmux, test/helpers/pty.ts) with the live progress bar. After the run, the screen holds the
 * suite list (a line per suite), then the summary, `reports:` and the exit line, in that order,
 * below it; nothing lands inside the list and no trace of the bar is left. The same after Ctrl-C,
 * with the interrupt message on a line of its own above the report. The quick start's whole
 * output fits a screen (40 lines).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli.js';
import { hasTmux, startInPty, type PtySession } from '../helpers/pty.js';

// .ci/run sets DROIDCHECK_REQUIRE_TOOLS: there a missing tmux fails the test instead of skipping it.
const tmux = (await hasTmux()) || process.env.DROIDCHECK_REQUIRE_TOOLS === '1';
const BAR = /[\u2588\u2591]|ETA /;

/** The line numbers of the report's parts, checked for order and for nothing in between. */
function layout(screen: string): {
  lines: string[];
  header: number;
  first: number;
  last: number;
  outcomes: number;
  summary: number;
  reports: number;
  exit: number;
} {
  const lines = screen.split('\n');
  const header = lines.findIndex((l) => /^droidcheck run: \d+ requests in /.test(l));
  expect(header, screen).toBeGreaterThanOrEqual(0);
  const first = header + 1;
  let last = first;
  while (last + 1 < lines.length && /^ {2}([✓✗!–] |… \d+ more)/.test(lines[last + 1]!)) last += 1;
  return {
    lines,
    header,
    first,
    last,
    outcomes: lines.findIndex((l) => l.startsWith('Outcomes ')),
    summary: lines.findIndex((l) => /^\d+ passed, \d+ failed.* · exit \d+$/.test(l)),
    reports: lines.findIndex((l) => l.startsWith('reports: ')),
    exit: lines.findIndex((l) => /^<<exit \d+>>$/.test(l)),
  };
}

function expectCleanReport(screen: string, exitCode: number): void {
  const at = layout(screen);
  // The suite list is whole: every line of it is a suite line, `✓ Purchases  7 passed  (sync 4, async 3)`.
  expect(at.lines[at.first], screen).toMatch(/^ {2}[✓✗!–] /);
  for (let i = at.first; i <= at.last; i++)
    expect(at.lines[i]).toMatch(
      /^ {2}([✓✗!–] \S.* \d+ passed(, [^(]+)? {2}\((sync|async) \d+(, async \d+)?\)$|… \d+ more suites?)/,
    );
  // Below it, in order: the summary, the final count with the exit code, reports:, the prompt's turn.
  expect(at.outcomes, screen).toBeGreaterThan(at.last);
  expect(at.summary, screen).toBeGreaterThan(at.outcomes);
  expect(at.lines[at.summary]).toMatch(new RegExp(`· exit ${exitCode}$`));
  expect(at.reports, screen).toBe(at.summary + 1);
  // reports: fits 100 columns, wrapped when the folder's path is long (its continuations indented 4).
  for (let i = at.reports + 1; i < at.exit; i++) expect(at.lines[i], screen).toMatch(/^ {4}\S/);
  expect(at.exit, screen).toBeLessThanOrEqual(at.reports + 2);
  expect(at.lines[at.exit]).toBe(`<<exit ${exitCode}>>`);
  // Nothing of the bar is left anywhere.
  expect(screen).not.toMatch(BAR);
}

describe.skipIf(!tmux)('droidcheck run in a real terminal', () => {
  let dir: string;
  let pty: PtySession | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-tty-'));
  });
  afterAll(async () => {
    await pty?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the quick start: the summary, reports: and the exit line come below the suite list', async () => {
    pty = await startInPty([process.execPath, CLI, 'run', '-o', join(dir, 'r1')], { cwd: REPO, cols: 100, rows: 24 });
    const code = await pty.exitCode();
    const screen = await pty.screen();
    expect(screen).toMatch(/^droidcheck: embedded emulator at /m);
    expectCleanReport(screen, code);
    // All of it, the emulator's line to the exit line, fits a screen: one line per suite, no list of requests.
    expect(screen.split('\n').length, screen).toBeLessThanOrEqual(40);
    expect(screen).not.toContain('›');
    await pty.close();
    pty = undefined;
  });

  it('Ctrl-C while the bar is drawn: the interrupt line above the report, the report whole, exit 130', async () => {
    const suite = join(dir, 'long.yaml');
    await writeFile(
      suite,
      'suite: long\nscenarios:\n  - name: greets\n    repeat: 5000\n    modes: [sync]\n    humanMessage: Hello!\n',
    );
    pty = await startInPty(
      [process.execPath, CLI, 'run', suite, '-c', '1', '--no-default-thresholds', '-o', join(dir, 'r2')],
      { cwd: REPO, cols: 100, rows: 24 },
    );
    await pty.waitFor(/ETA \d/);
    await pty.sendKeys('C-c');
    const code = await pty.exitCode();
    expect(code).toBe(130);
    const screen = await pty.screen();
    const lines = screen.split('\n');
    const sigint = lines.findIndex((l) => l.startsWith('droidcheck: SIGINT: no new requests'));
    expect(sigint, screen).toBeGreaterThanOrEqual(0);
    expect(sigint).toBeLessThan(layout(screen).header);
    expectCleanReport(screen, code);
  });
});
