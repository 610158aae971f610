/**
 * The README's Install section, exactly (a README that does not install is a bug): pack the
 * package, install the tarball globally (into a temporary prefix, not the machine's), then in an
 * empty folder `droidcheck init && droidcheck run` exits 0. Everything `run` needs (the emulator's
 * profile, the worker thread, uPlot for report.html) must ship in the tarball: nothing is read from
 * the repository.
 *
 * Packs the built dist/ (`npm test` builds first) with --ignore-scripts, so a test running beside
 * it never sees dist/ rebuilt under its feet; installing fetches the dependencies from the npm
 * registry (or its cache). Takes ~30-60 s.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const exec = promisify(execFile);

describe('install from the packed tarball', () => {
  let dir: string;
  let prefix: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-install-'));
    prefix = join(dir, 'prefix');
    project = join(dir, 'empty-folder');
    await mkdir(project);
    // A user's shell: the installed bin first on PATH, no CI variables, no secrets.
    env = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? dir,
      CI: 'true',
      NO_COLOR: '1',
    };
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('npm pack, npm install -g <tarball>, then droidcheck init && droidcheck run in an empty folder exit 0', async () => {
    expect(existsSync(join(REPO, 'dist', 'cli', 'main.js')), 'run "npm run build" first').toBe(true);
    const npmEnv = {
      ...process.env,
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    };
    const packed = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: REPO,
      env: npmEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    const tarball = join(dir, filename);
    expect(existsSync(tarball)).toBe(true);

    await exec('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], {
      cwd: dir,
      env: npmEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(existsSync(join(prefix, 'bin', 'droidcheck'))).toBe(true);

    const init = await exec('droidcheck', ['init'], { cwd: project, env });
    expect(init.stdout).toContain('wrote scenarios/starter.yaml');
    expect((await readdir(project)).sort()).toEqual([
      '.env.example',
      'droidcheck.config.yaml',
      'droidcheck.schema.json',
      'scenarios',
    ]);

    const run = await exec('droidcheck', ['run'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 }).catch(
      (err: { code: number; stdout: string; stderr: string }) => {
        throw new Error(`droidcheck run exited ${err.code}\n${err.stdout}\n${err.stderr}`);
      },
    );
    expect(run.stderr).toContain('droidcheck: embedded emulator at http://127.0.0.1:');
    expect(run.stderr).toContain('(worker thread)');
    expect(run.stdout).toMatch(/\n\d+ passed, 0 failed \(\d+ requests\) · exit 0\n/);
    const report = JSON.parse(await readFile(join(project, 'reports', 'report.json'), 'utf8')) as {
      exitCode: number;
      summary: { failed: number };
    };
    expect(report.exitCode).toBe(0);
    expect(report.summary.failed).toBe(0);
    expect(existsSync(join(project, 'reports', 'report.html'))).toBe(true);
  }, 180_000);
});
