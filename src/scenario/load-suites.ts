/**
 * `loadSuites(paths)`: reads suites from files and directories.
 * - a directory is walked recursively for `*.yaml` / `*.yml` (hidden entries and `node_modules`
 *   skipped), files sorted by path;
 * - a YAML file found in a directory is a suite iff its top level has a `suite` or `scenarios`
 *   key; other well-formed YAML files (e.g. emulator profiles) are skipped. A file named
 *   explicitly must be a suite;
 * - files larger than 5 MiB are refused (`MAX_SUITE_BYTES`);
 * - the modules of the `code:` assertions are imported, each once (code.ts): a missing module or
 *   export, or one that does not load, is a problem at its `code:` key;
 * - problems of every file are gathered into one `ScenarioError` (DROIDCHECK_ERR_SCENARIO, exit 2);
 *   a missing path is one too (at `path:1:1`, with a did-you-mean for a file, `droidcheck init` for a folder).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { didYouMean } from '../suggest.js';
import { ScenarioError, type FileIssue } from '../errors.js';
import { loadCodeChecks } from './code.js';
import { parseSuiteFile } from './parse-suite.js';
import type { Suite } from './types.js';
import { MAX_SUITE_BYTES } from './yaml-source.js';

const YAML_FILE = /\.ya?ml$/i;

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) await walk(full, out);
    else if (e.isFile() && YAML_FILE.test(e.name)) out.push(full);
  }
}

/**
 * What to do about a path that does not exist: a suite file with a close name beside it
 * (did-you-mean), or, for a folder, how to start one (`droidcheck init`: a first run in an empty
 * folder meets this before anything else).
 */
async function missingPathAdvice(p: string): Promise<string> {
  if (YAML_FILE.test(p)) {
    const siblings = await readdir(dirname(p)).catch(() => [] as string[]);
    const guess = didYouMean(
      basename(p),
      siblings.filter((f) => YAML_FILE.test(f)),
    );
    return guess === undefined ? '' : `; did you mean ${join(dirname(p), guess)}?`;
  }
  return '; to start, `droidcheck init` writes a starter suite (scenarios/starter.yaml) that passes against the embedded emulator and any service that keeps to the spec';
}

/**
 * @param paths files or directories.
 * @returns suites in path order (directories: files sorted by path).
 * @throws ScenarioError (DROIDCHECK_ERR_SCENARIO) when a path is missing or any file is malformed.
 */
export async function loadSuites(paths: string[]): Promise<Suite[]> {
  const issues: FileIssue[] = [];
  const files: { file: string; explicit: boolean }[] = [];
  for (const p of paths) {
    try {
      const st = await stat(p);
      if (st.isDirectory()) {
        const found: string[] = [];
        await walk(p, found);
        found.sort();
        for (const f of found) files.push({ file: f, explicit: false });
      } else files.push({ file: p, explicit: true });
    } catch (err) {
      const why =
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? `no such file or directory${await missingPathAdvice(p)}`
          : `cannot read: ${(err as Error).message}`;
      issues.push({ location: { file: p, line: 1, col: 1 }, message: why });
    }
  }
  const suites: Suite[] = [];
  const seen = new Set<string>();
  for (const { file, explicit } of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    try {
      const { size } = await stat(file);
      if (size > MAX_SUITE_BYTES) {
        issues.push({
          location: { file, line: 1, col: 1 },
          message: `file is larger than ${MAX_SUITE_BYTES / 1024 / 1024} MiB (${size} bytes); split it into several suites`,
        });
        continue;
      }
      const suite = parseSuiteFile(await readFile(file, 'utf8'), file, { skipNonSuite: !explicit });
      if (suite) suites.push(suite);
    } catch (err) {
      if (err instanceof ScenarioError) issues.push(...err.issues);
      else issues.push({ location: { file, line: 1, col: 1 }, message: `cannot read: ${(err as Error).message}` });
    }
  }
  if (issues.length === 0) issues.push(...(await loadCodeChecks(suites)));
  if (issues.length > 0) throw new ScenarioError(issues);
  return suites;
}
