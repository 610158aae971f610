/**
 * The action's install (action.yml: "Cache key of the install", actions/cache, "Install
 * droidcheck") on a small stand-in of the action's copy, run as a runner would (./runner.ts):
 * the cache key follows the lockfile, the sources and the Node.js version; an install restored
 * from the cache runs no npm; a fresh one runs `npm ci` (which builds dist/) and drops the dev
 * dependencies, except when the action is the workspace itself. `npm` is a script on PATH that
 * records its arguments and lays out what `npm ci` would (node_modules/, dist/cli/main.js).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMachine, runAction, type Machine } from './runner.js';

const machines: Machine[] = [];
afterAll(() => machines.forEach((m) => m.dispose()));

/** What the stand-in `npm ci` builds: a CLI that only knows its version. */
const FAKE_MAIN = `if (process.argv[2] === '--version') console.log('9.9.9-test');\n`;

/** The files the cache key reads, in a directory of the machine. */
const ACTION_FILES = {
  'package.json': '{ "name": "droidcheck" }\n',
  'package-lock.json': '{ "lockfileVersion": 3 }\n',
  'tsconfig.json': '{}\n',
  'tsconfig.build.json': '{}\n',
  'src/cli/main.ts': 'export {};\n',
};

function machineWithNpm(files: Record<string, string>): { m: Machine; npmCalls: () => string[] } {
  const m = createMachine(files);
  machines.push(m);
  const log = join(m.root, 'npm.log');
  writeFileSync(log, '');
  writeFileSync(
    join(m.bin, 'npm'),
    [
      '#!/usr/bin/env bash',
      `printf '%s\\n' "$*" >> '${log}'`,
      'prefix=""; prev=""; for a in "$@"; do [ "$prev" = --prefix ] && prefix="$a"; prev="$a"; done',
      'if [ "$1" = ci ]; then mkdir -p "$prefix/node_modules" "$prefix/dist/cli"; cp "$FAKE_MAIN" "$prefix/dist/cli/main.js"; fi',
      '',
    ].join('\n'),
  );
  chmodSync(join(m.bin, 'npm'), 0o755);
  writeFileSync(join(m.root, 'fake-main.js'), FAKE_MAIN);
  return {
    m,
    npmCalls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
  };
}

const installInputs = { 'node-version': '', upload: 'false', 'fail-on-error': 'false' };
const cacheKey = (m: Machine): string => m.uses.filter((u) => u.uses === 'actions/cache@v4').at(-1)!.with.key!;

describe('action.yml: the install and its cache', () => {
  it('a fresh install runs npm ci, then drops the dev dependencies; a restored one runs no npm; the key follows the lockfile, the sources and Node.js', async () => {
    const { m, npmCalls } = machineWithNpm({});
    const dir = join(m.root, 'action');
    for (const [path, text] of Object.entries(ACTION_FILES)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const env = { FAKE_MAIN: join(m.root, 'fake-main.js') };

    const first = await runAction(m, installInputs, env, dir);
    expect(npmCalls(), m.log).toEqual([
      `ci --no-audit --no-fund --prefix ${dir}`,
      `prune --omit=dev --no-audit --no-fund --prefix ${dir}`,
    ]);
    expect(first.steps.install?.outputs.bin).toBe(join(dir, 'dist/cli/main.js'));
    expect(m.log).toContain(`droidcheck 9.9.9-test on Node.js ${process.version}`);
    const key = cacheKey(m);
    expect(key).toMatch(new RegExp(`^droidcheck-install-Linux-X64-node${process.version}-[0-9a-f]{24}$`));
    expect(m.uses.find((u) => u.uses === 'actions/cache@v4')?.with.path).toBe(`${dir}/node_modules\n${dir}/dist`);

    // What actions/cache restores (node_modules/ and dist/ there already): no npm at all, same key.
    await runAction(m, installInputs, env, dir);
    expect(npmCalls()).toHaveLength(2);
    expect(m.log).toContain('droidcheck: installed already');
    expect(cacheKey(m)).toBe(key);

    writeFileSync(join(dir, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }\n');
    await runAction(m, installInputs, env, dir);
    const lockKey = cacheKey(m);
    expect(lockKey).not.toBe(key);

    // Another tag with the same lockfile: dist/ is built from other sources.
    writeFileSync(join(dir, 'src/cli/other.ts'), 'export const x = 1;\n');
    await runAction(m, installInputs, env, dir);
    expect(cacheKey(m)).not.toBe(lockKey);
  });

  it('the action as the workspace itself (uses: ./): npm ci, and the dev dependencies stay for later steps', async () => {
    const { m, npmCalls } = machineWithNpm(ACTION_FILES);
    await runAction(m, installInputs, { FAKE_MAIN: join(m.root, 'fake-main.js') }, m.workspace);
    expect(npmCalls(), m.log).toEqual([`ci --no-audit --no-fund --prefix ${m.workspace}`]);
  });
});
