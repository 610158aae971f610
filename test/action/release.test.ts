/**
 * The release workflow (.github/workflows/release.yml), read as GitHub reads it and its steps run
 * on this machine where they can be: on a `v*` tag, the tests first, then `npm publish
 * --provenance` (with the OIDC permission it needs), then the GitHub release whose notes are
 * that version's part of CHANGELOG.md, and the moving major tag, pushed to a real (local) origin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { REPO } from '../helpers/cli.js';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

const text = readFileSync(join(REPO, '.github/workflows/release.yml'), 'utf8');
const doc = parseDocument(text);
const workflow = doc.toJS() as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };
const step = (job: string, name: string): Step => {
  const found = workflow.jobs[job]!.steps.find((s) => s.name === name);
  expect(found, `${job}: a step named "${name}"`).toBeDefined();
  return found!;
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'droidcheck-release-'));
  dirs.push(d);
  return d;
};

/** Runs a step's script as a runner does (`bash -e`), in `cwd`, with `env` over a runner's variables. */
function runStep(s: Step, cwd: string, env: Record<string, string>): { status: number; out: string } {
  const res = spawnSync('bash', ['--noprofile', '--norc', '-e', '-c', s.run!], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env },
  });
  return { status: res.status ?? -1, out: `${res.stdout}${res.stderr}` };
}

describe('.github/workflows/release.yml', () => {
  it('parses, runs on a v* tag, and releases only after the tests, publishing with provenance', () => {
    expect(doc.errors.map((e) => e.message)).toEqual([]);
    expect(workflow.on.push.tags).toEqual(['v*']);
    const { ci, publish, release } = workflow.jobs;
    expect(ci!.steps.some((s) => s.run === 'bash .ci/run')).toBe(true);
    expect(publish!.needs).toBe('ci');
    expect(release!.needs).toBe('publish');
    // npm provenance is signed with the workflow's OIDC token.
    expect(publish!.permissions).toMatchObject({ 'id-token': 'write' });
    expect(step('publish', 'Publish').run).toContain('npm publish --provenance');
    expect(release!.permissions).toMatchObject({ contents: 'write' });
  });

  it("refuses a tag that is not package.json's version", () => {
    const s = step('publish', "The tag is package.json's version");
    const dir = temp();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.2.0' }));
    const out = join(dir, 'out');
    writeFileSync(out, '');
    expect(runStep(s, dir, { GITHUB_REF_NAME: 'v1.2.0', GITHUB_OUTPUT: out }).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('dist-tag=latest\n');
    const wrong = runStep(s, dir, { GITHUB_REF_NAME: 'v1.3.0', GITHUB_OUTPUT: out });
    expect(wrong.status).toBe(1);
    expect(wrong.out).toContain("tag v1.3.0 is not v + package.json's version (1.2.0)");
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.3.0-rc.1' }));
    writeFileSync(out, '');
    expect(runStep(s, dir, { GITHUB_REF_NAME: 'v1.3.0-rc.1', GITHUB_OUTPUT: out }).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('dist-tag=next\n');
  });

  it("gives the GitHub release that version's part of CHANGELOG.md, and refuses a version it lacks", () => {
    const s = step('release', 'Release notes from CHANGELOG.md');
    const runner = temp();
    expect(runStep(s, REPO, { GITHUB_REF_NAME: 'v1.0.0', RUNNER_TEMP: runner }).status).toBe(0);
    const notes = readFileSync(join(runner, 'notes.md'), 'utf8');
    expect(notes).toContain('### Added');
    expect(notes).not.toContain('## [1.0.0]');
    expect(notes).not.toContain('[Unreleased]');
    const none = runStep(s, REPO, { GITHUB_REF_NAME: 'v9.9.9', RUNNER_TEMP: runner });
    expect(none.status).toBe(1);
    expect(none.out).toContain('CHANGELOG.md has no section ## [9.9.9]');
  });

  it('creates the release, then moves the major tag to it on the origin (not for a pre-release)', () => {
    const root = temp();
    const origin = join(root, 'origin.git');
    const clone = join(root, 'clone');
    const git = (cwd: string, ...args: string[]): string =>
      execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      }).trim();
    git(root, 'init', '-q', '--bare', origin);
    git(root, 'clone', '-q', origin, clone);
    git(clone, 'commit', '-q', '--allow-empty', '-m', '1.0.0');
    const first = git(clone, 'rev-parse', 'HEAD');
    git(clone, 'commit', '-q', '--allow-empty', '-m', '1.1.0');
    const second = git(clone, 'rev-parse', 'HEAD');
    git(clone, 'push', '-q', 'origin', 'HEAD');
    // `gh` stands in for GitHub: it records what it was asked.
    const bin = join(root, 'bin');
    execFileSync('mkdir', [bin]);
    writeFileSync(join(bin, 'gh'), `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> '${join(root, 'gh.log')}'\n`);
    chmodSync(join(bin, 'gh'), 0o755);
    const env = (tag: string, sha: string) => ({
      GITHUB_REF_NAME: tag,
      GITHUB_SHA: sha,
      RUNNER_TEMP: root,
      GH_TOKEN: 'ghs_test',
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    const create = step('release', 'GitHub release');
    const move = step('release', 'Move the major tag the Action is used by');
    for (const [tag, sha] of [
      ['v1.0.0', first],
      ['v1.1.0', second],
    ] as const) {
      expect(runStep(create, clone, env(tag, sha)).status).toBe(0);
      const moved = runStep(move, clone, env(tag, sha));
      expect(moved.status, moved.out).toBe(0);
      expect(git(origin, 'rev-parse', 'refs/tags/v1^{commit}')).toBe(sha);
    }
    expect(readFileSync(join(root, 'gh.log'), 'utf8').split('\n').filter(Boolean)).toEqual([
      `release create v1.0.0 --title v1.0.0 --notes-file ${root}/notes.md --verify-tag`,
      `release create v1.1.0 --title v1.1.0 --notes-file ${root}/notes.md --verify-tag`,
    ]);
    // A release candidate is marked so and leaves v1 where it is.
    expect(runStep(create, clone, env('v1.2.0-rc.1', first)).status).toBe(0);
    expect(readFileSync(join(root, 'gh.log'), 'utf8')).toContain('release create v1.2.0-rc.1 --title v1.2.0-rc.1');
    expect(readFileSync(join(root, 'gh.log'), 'utf8')).toMatch(/v1\.2\.0-rc\.1 .*--prerelease/);
    expect(runStep(move, clone, env('v1.2.0-rc.1', first)).out).toContain('a pre-release moves no major tag');
    expect(git(origin, 'rev-parse', 'refs/tags/v1^{commit}')).toBe(second);
  });
});
