/**
 * A report directory the file system will not take is the user's mistake: exit 2 before anything
 * is sent, through the real CLI. Node's own `mkdir(dir, { recursive: true })` loops for ever on
 * `/proc/nope` (ENOENT although /proc exists), at full CPU and deaf to SIGINT, so permission bits
 * alone (root may "write" to /proc) cannot be the check. That loop never ends: the CLI spawner's
 * hang bound (SIGKILL, code null) or the test's timeout fails these tests if it comes back, so no
 * test here asserts seconds (a loaded machine takes seconds to start the CLI at all).
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDir } from '../../src/report/make-dir.js';
import { droidcheck } from '../helpers/cli.js';

const SUITE = `suite: One
scenarios:
  - name: greets
    modes: [sync]
    humanMessage: Hello there!
    expect: { answer: { present: true } }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-reportdir-'));
  await writeFile(join(dir, 'one.yaml'), SUITE);
  await writeFile(join(dir, 'a-file'), 'x');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('run -o <a path the file system refuses>: exit 2, nothing sent', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a pseudo-filesystem folder (/proc/nope)',
      () => '/proc/droidcheck-nope/reports',
      /cannot write \((EPERM|EACCES)\)/,
    ],
    ['a pseudo-filesystem root that exists (/proc)', () => '/proc', /cannot write \((EPERM|EACCES)\)/],
    ['sysfs (/sys/nope)', () => '/sys/droidcheck-nope', /cannot write \((EPERM|EACCES)\)/],
    ['a folder under a file (unwritable path)', () => join(dir, 'a-file', 'reports'), /cannot write \(ENOTDIR\)/],
  ];
  for (const [what, path, message] of cases) {
    it(what, async () => {
      const res = await droidcheck(['run', join(dir, 'one.yaml'), '-o', path()]);
      expect(res.code, res.stderr).toBe(2); // null: killed at the hang bound, the loop is back
      expect(res.stderr).toContain(`--report-dir ${path()}: `);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(res.stdout).not.toContain('droidcheck run:'); // nothing was sent
    });
  }
});

describe('a report file that cannot be written after the run', () => {
  it('a directory where report.json goes: exit 2 naming the file, not an internal error (70)', async () => {
    const out = join(dir, 'blocked');
    await mkdir(join(out, 'report.json'), { recursive: true });
    const res = await droidcheck([
      'run',
      join(dir, 'one.yaml'),
      '-o',
      out,
      '--reporter',
      'console',
      '--reporter',
      'json',
    ]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(
      `DROIDCHECK_ERR_USAGE: cannot write the report ${join(out, 'report.json')} (EISDIR): a directory is in the way; choose another --report-dir or --output-file`,
    );
    expect(res.stderr).not.toContain('internal error');
  });
});

describe('makeDir: mkdir -p that never loops', () => {
  it('creates nested folders, and again is a no-op', async () => {
    const target = join(dir, 'x', 'y', 'z');
    await makeDir(target);
    await makeDir(target);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it("/proc/<new>/<new>: rejects with EPERM (Node's recursive mkdir spins here for ever: the test's timeout)", async () => {
    await expect(makeDir('/proc/droidcheck-nope/a')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EPERM|EACCES)$/),
    });
  });

  it('a file on the way: ENOTDIR', async () => {
    await expect(makeDir(join(dir, 'a-file', 'b'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
