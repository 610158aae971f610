/**
 * Two real runs on the embedded emulator are runs of one target: each starts the emulator on
 * an ephemeral port of its own, and `compare` must not take that port for another target
 * (report.json `settings.target` is `{kind: "emulator"}`, src/report/alike.ts). Also a run
 * against a remote target next to one on the emulator is compared, `not alike: target` first.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

const SUITE = `suite: Compare
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect: { answer: { present: true } }
`;

describe('compare of two runs on the embedded emulator', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-cmp-emu-'));
    await writeFile(join(dir, 'suite.yaml'), SUITE);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('compares them (exit 0, no "another target"), though each emulator listened on a port of its own', async () => {
    const runs: string[] = [];
    for (const name of ['base', 'current']) {
      const res = await cli(['run', join(dir, 'suite.yaml'), '--reporter', 'json', '-o', join(dir, name)]);
      expect(res.code, res.stderr).toBe(0);
      runs.push(res.stderr.match(/embedded emulator at (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? '');
    }
    // What made the two look like two targets: each run's emulator had a port of its own.
    expect(runs[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(runs[1]).not.toBe(runs[0]);
    const base = join(dir, 'base', 'report.json');
    const current = join(dir, 'current', 'report.json');
    for (const file of [base, current])
      expect(JSON.parse(await readFile(file, 'utf8')).settings.target).toEqual({ kind: 'emulator' });

    const cmp = await cli(['compare', base, current]);
    expect(cmp.code, cmp.stdout + cmp.stderr).toBe(0);
    expect(cmp.stdout).toContain('no regression');
    expect(cmp.stdout + cmp.stderr).not.toContain('target');

    // A remote target beside the emulator is another target: compared, and said first.
    const report = JSON.parse(await readFile(current, 'utf8'));
    report.settings.target = { kind: 'remote', baseUrl: 'http://127.0.0.1:9', droidId: '1' };
    const remote = join(dir, 'remote.json');
    await writeFile(remote, JSON.stringify(report));
    const two = await cli(['compare', base, remote]);
    expect([0, 1]).toContain(two.code);
    expect(two.stdout.split('\n')[0]).toBe(
      'not alike: target: emulator in the baseline, http://127.0.0.1:9 (droid 1) now',
    );
  }, 120_000);
});
