/**
 * The CLI as a real child process (built dist/, as `npx droidcheck` runs it).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI as BIN, droidcheck } from '../helpers/cli.js';

describe('droidcheck CLI (child process)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a passing suite on the embedded emulator: exit 0 and a report.json', async () => {
    const file = join(dir, 'ok.yaml');
    await writeFile(
      file,
      'suite: ok\nscenarios:\n  - name: greets\n    humanMessage: Hello!\n    expect:\n      intents: { includes: greeting }\n',
    );
    const out = await droidcheck(['run', file, '--report-dir', join(dir, 'r1'), '--no-default-thresholds']);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(out.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'r1', 'report.json'), 'utf8'));
    expect(report.summary.requests).toBe(2);
    expect(report.summary.outcomes.answered).toBe(2);
    expect(out.stdout).toMatch(/^ {2}✓ ok {2}2 passed {2}\(sync 1, async 1\)$/m);
  });

  it('exits 1 when an expectation fails, with expected and actual in the report', async () => {
    const file = join(dir, 'fail.yaml');
    await writeFile(
      file,
      'suite: f\nscenarios:\n  - name: wrong\n    modes: [async]\n    humanMessage: Hello!\n    expect:\n      intents: { includes: refund }\n',
    );
    const out = await droidcheck(['run', file, '--report-dir', join(dir, 'r2'), '--no-default-thresholds']);
    expect(out.code).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'r2', 'report.json'), 'utf8'));
    const failure = report.scenarios[0].failures[0];
    expect(failure.path).toBe('intents');
    expect(failure.expected).toBe('refund');
    expect(Array.isArray(failure.actual)).toBe(true);
  });

  it('exits 2 naming file:line:col for a malformed scenario, without a stack trace', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'suite: bad\nscenarios:\n  - name: typo\n    humanMesage: Hello!\n');
    const out = await droidcheck(['run', file, '--report-dir', join(dir, 'r3')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${file}:4:5`);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for a usage error', async () => {
    const out = await droidcheck(['run', '--mode', 'sideways']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--mode');
  });

  it('exits 2 when a real target has no token in the environment', async () => {
    const out = await droidcheck(['run', '--base-url', 'http://127.0.0.1:9', '--droid-id', '7']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('DROID_API_TOKEN');
  });
});

describe('the droidcheck binary', () => {
  it('is executable after the build, as `npx droidcheck` needs', async () => {
    const { access, constants } = await import('node:fs/promises');
    await expect(access(BIN, constants.X_OK)).resolves.toBeUndefined();
  });
});
