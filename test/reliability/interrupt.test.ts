/**
 * Interrupts (exit 130, docs/exit-codes.md): SIGINT or SIGTERM to a real `droidcheck run` child
 * stops new requests, lets in-flight ones finish within the grace period, writes the partial
 * report (what was never sent `not-sent`, outcomes adding up to the plan) and exits 130.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { startCli, until } from '../helpers/cli.js';

const TOKEN = 'interrupt-token-0123456789abcdefghijklmnop';
const PLANNED = 60;
let emulator: Emulator | undefined;
let dir: string | undefined;

afterEach(async () => {
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  emulator = undefined;
  dir = undefined;
});

async function interruptRun(signal: 'SIGINT' | 'SIGTERM'): Promise<void> {
  // A slow target (400 ms per sync answer, 4 in flight): the whole plan would take ~6 s.
  emulator = await createEmulator({ token: TOKEN, answerDelayMs: 400 });
  const baseUrl = await emulator.listen();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-interrupt-'));
  const suite = join(dir, 'slow.yaml');
  await writeFile(
    suite,
    `suite: slow\nscenarios:\n  - name: hello\n    modes: [sync]\n    repeat: ${PLANNED}\n    humanMessage: Hello\n`,
  );
  const reportDir = join(dir, 'reports');
  const cli = startCli(
    [
      'run',
      suite,
      '--report-dir',
      reportDir,
      '--base-url',
      baseUrl,
      '--droid-id',
      '1',
      '--concurrency',
      '4',
      '--grace',
      '2s',
      '--timeout',
      '10s',
      '--no-warm-up',
      '-r',
      'json',
      '-r',
      'ndjson',
      '-r',
      'console',
    ],
    { DROID_API_TOKEN: TOKEN },
  );
  const results = join(reportDir, 'results.ndjson');
  await until(() => existsSync(results) && readFileSync(results, 'utf8').length > 0, 'the first results');
  cli.child.kill(signal);
  const code = await cli.exited();
  expect(code, cli.stderr()).toBe(130);
  expect(cli.stderr()).toContain(`${signal}: no new requests`);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as {
    summary: { requests: number; outcomes: Record<string, number> };
    receiver: Record<string, number>;
  };
  const { requests, outcomes } = report.summary;
  expect(requests).toBe(PLANNED);
  expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(PLANNED);
  expect(outcomes['not-sent']).toBeGreaterThan(0);
  expect(outcomes.answered).toBeGreaterThan(0);
  // Within the 2 s grace period the in-flight 400 ms answers finished: none cut, none lost.
  expect(outcomes.interrupted).toBe(0);
  expect(outcomes.answered! + outcomes['not-sent']!).toBe(PLANNED);
  expect((report.summary as { sent?: number }).sent).toBe(outcomes.answered);
  // The summary says how many were sent, not "35 of 35".
  expect(cli.stdout()).toMatch(new RegExp(`${outcomes.answered} of ${PLANNED} planned requests sent`));
  const lines = readFileSync(results, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(PLANNED);
  // The emulator answered exactly the requests the report calls answered.
  expect(emulator.stats().syncAnswered).toBe(outcomes.answered);
}

describe('interrupting a real droidcheck run', () => {
  it('SIGINT: partial report with not-sent outcomes, exit 130', () => interruptRun('SIGINT'));
  it('SIGTERM: the same', () => interruptRun('SIGTERM'));
});
