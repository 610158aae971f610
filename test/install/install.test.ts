/**
 * The README's Install section, exactly (a README that does not install is a bug): `npm pack`
 * with its scripts, in a copy of this work tree (the files git tracks or would track, and a link
 * to node_modules), so `prepack` builds dist/ there and never under the feet of a test running
 * beside this one; then the tarball installed globally (into a temporary prefix, not the
 * machine's) without a word from npm about install scripts, and in an empty folder `droidcheck
 * init && droidcheck run` exits 0. Everything `run` needs (the emulator's profile, the worker
 * thread, uPlot for report.html) must ship in the tarball: nothing is read from the repository.
 *
 * The copy starts from this checkout's dist/ (what today's sources compile to) and its build
 * record (dist/.tsbuildinfo), as a developer's checkout would, so prepack's build is incremental (a few seconds of CPU instead of
 * a build from nothing); a comment added to the copy's src/cli/main.ts makes that build emit
 * main.js again, and the packed main.js must carry it: prepack did build what was packed.
 *
 * The packed package.json has no `prepare` script (prepack takes it out, postpack puts the file
 * back byte for byte): the installed package has nothing to build, and npm (11.x) would otherwise
 * warn on every install that the script is "not yet covered by allowScripts". A clone's `npm ci`
 * keeps building dist/ through `prepare`. Installing fetches the dependencies from the npm
 * registry (or its cache).
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';

const exec = promisify(execFile);
/**
 * The test's bound, a hang detector (helpers/hang.ts): four commands in a row that take seconds
 * each on an idle machine (pack with its build, install, init, run) and minutes on one at a load
 * of 30, where three HANG_MS (a test's default) killed it while it was only slow.
 */
const TEST_MS = 5 * HANG_MS;

/** The scripts npm runs when a package is installed (npm's install scripts, `prepare` included). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** Added to the copy's src/cli/main.ts: in the packed dist/cli/main.js only if prepack built it. */
const BUILT_BY_PREPACK = '// built by prepack in the install test';

describe('install from the packed tarball', () => {
  let dir: string;
  let clone: string;
  let prefix: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  const npmEnv = {
    ...process.env,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-install-'));
    clone = join(dir, 'clone');
    prefix = join(dir, 'prefix');
    project = join(dir, 'empty-folder');
    await mkdir(project);
    const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: REPO,
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(join(REPO, f))))
      await cp(join(REPO, file), join(clone, file));
    // Only what today's sources compile to: a file left in dist/ by a source since removed or
    // renamed would ship in this tarball and not in one packed from a fresh clone.
    const fromSource = (path: string): boolean => {
      const out = relative(join(REPO, 'dist'), path);
      const source = out.replace(/(\.d)?\.ts\.map$|\.d\.ts$|\.js(\.map)?$/, '.ts');
      return (
        out === '' ||
        out === '.tsbuildinfo' ||
        statSync(path).isDirectory() ||
        (source !== out && existsSync(join(REPO, 'src', source)))
      );
    };
    await cp(join(REPO, 'dist'), join(clone, 'dist'), { recursive: true, filter: fromSource });
    const main = join(clone, 'src', 'cli', 'main.ts');
    await writeFile(main, (await readFile(main, 'utf8')).replace(/^(#!.*\n)/, `$1${BUILT_BY_PREPACK}\n`));
    await symlink(join(REPO, 'node_modules'), join(clone, 'node_modules'));
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

  it('npm pack builds and packs dist/ without prepare; npm install -g <tarball> says nothing of install scripts; then droidcheck init && droidcheck run in an empty folder exit 0', {
    timeout: TEST_MS,
  }, async () => {
    const manifest = await readFile(join(clone, 'package.json'), 'utf8');
    const packed = await exec('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: clone,
      env: npmEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    const tarball = join(dir, filename);
    expect(existsSync(tarball)).toBe(true);
    expect(files.map((f) => f.path)).toContain('dist/cli/main.js');
    const packedMain = await exec('tar', ['-xzOf', tarball, 'package/dist/cli/main.js']);
    expect(packedMain.stdout).toContain(BUILT_BY_PREPACK);
    // postpack put package.json back as it was.
    expect(await readFile(join(clone, 'package.json'), 'utf8')).toBe(manifest);
    expect(existsSync(join(clone, '.package.json.prepack'))).toBe(false);
    const inTarball = await exec('tar', ['-xzOf', tarball, 'package/package.json']);
    const scripts = (JSON.parse(inTarball.stdout) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts).filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);
    expect(scripts.build).toBeDefined(); // the other scripts are kept

    const installed = await exec('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], {
      cwd: dir,
      env: npmEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const npmSaid = installed.stdout + installed.stderr;
    expect(npmSaid).not.toMatch(/install-scripts|allowScripts|prepare/i);
    expect(existsSync(join(prefix, 'bin', 'droidcheck'))).toBe(true);

    const init = await exec('droidcheck', ['init'], { cwd: project, env });
    expect(init.stdout).toContain('wrote scenarios/starter.yaml');
    expect((await readdir(project)).sort()).toEqual([
      '.env.example',
      'droidcheck.config.schema.json',
      'droidcheck.config.yaml',
      'droidcheck.policy.schema.json',
      'droidcheck.policy.yaml',
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
      policy?: { answers: number; violations: number };
    };
    expect(report.exitCode).toBe(0);
    // The demo shop's policy init wrote was read, and every answer kept to it.
    expect(report.policy?.answers).toBeGreaterThan(0);
    expect(report.policy?.violations).toBe(0);
    expect(report.summary.failed).toBe(0);
    expect(existsSync(join(project, 'reports', 'report.html'))).toBe(true);
  });
});
