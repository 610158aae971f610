/**
 * `parseSuite(text, file)`: the loading pipeline for one file, staged like changesets:
 * read (YAML text) -> YAML parse (`yaml-source.ts`) -> scenario tables expanded, one scenario per
 * row (`each.ts`) -> zod `safeParse` (`schema.ts`, issues mapped by `zod-issues.ts`) + rules
 * (`rules.ts`) -> normalise (`normalise.ts`).
 *
 * Every problem of the file is collected, sorted by position and thrown together as one
 * `ScenarioError` (code `DROIDCHECK_ERR_SCENARIO`, exit 2), each line `file:line:col: message`.
 */
import { ScenarioError, type FileIssue } from '../errors.js';
import { expandTables } from './each.js';
import { normaliseSuite } from './normalise.js';
import { applyRules } from './rules.js';
import { userSuiteSchema } from './schema.js';
import type { Suite } from './types.js';
import { readYaml } from './yaml-source.js';
import { issuesFromZod } from './zod-issues.js';

/** Issues without repeats (a table's rows share their scenario's lines), by position; a rows file's after the suite's. */
function sortIssues(issues: FileIssue[], file?: string): FileIssue[] {
  const seen = new Set<string>();
  return issues
    .filter((i) => {
      const key = `${i.location.file}:${i.location.line}:${i.location.col}:${i.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(
      (a, b) =>
        Number(a.location.file !== file) - Number(b.location.file !== file) ||
        a.location.file.localeCompare(b.location.file) ||
        a.location.line - b.location.line ||
        a.location.col - b.location.col,
    );
}

/** Does `data` (a parsed YAML document) look like a suite, i.e. a map with `suite` or `scenarios`? */
function isSuiteData(data: unknown): boolean {
  return data !== null && typeof data === 'object' && !Array.isArray(data) && ('suite' in data || 'scenarios' in data);
}

/**
 * Parses, validates and resolves one suite.
 * @returns the resolved `Suite`, or, with `{ skipNonSuite: true }`, `undefined` for a well-formed
 *   YAML file that is not a suite (no top-level `suite` or `scenarios` key).
 * @throws ScenarioError (DROIDCHECK_ERR_SCENARIO) listing every problem with file:line:col.
 */
export function parseSuiteFile(text: string, file: string, opts: { skipNonSuite?: boolean } = {}): Suite | undefined {
  const { source: read, issues } = readYaml(text, file);
  if (!read) throw new ScenarioError(sortIssues(issues));
  if (!isSuiteData(read.data)) {
    if (opts.skipNonSuite) return undefined;
    const empty = read.data === null || read.data === undefined;
    throw new ScenarioError([
      {
        location: read.locate([]),
        message: empty
          ? 'the file is empty: a suite needs "suite:" and "scenarios:"'
          : 'not a scenario suite: expected a map with top-level keys "suite" and "scenarios"',
      },
    ]);
  }
  const { source, issues: tableIssues } = expandTables(read);
  // Every table unreadable: what zod would add ("scenarios is empty") would only mislead.
  const expanded = (source.data as { scenarios?: unknown }).scenarios;
  if (tableIssues.length > 0 && Array.isArray(expanded) && expanded.length === 0)
    throw new ScenarioError(sortIssues(tableIssues, file));
  const parsed = userSuiteSchema.safeParse(source.data);
  const all = [
    ...tableIssues,
    ...(parsed.success ? [] : issuesFromZod(parsed.error.issues, source, userSuiteSchema)),
    ...applyRules(source),
  ];
  if (all.length > 0 || !parsed.success) {
    throw new ScenarioError(
      sortIssues(all.length > 0 ? all : [{ location: source.locate([]), message: 'invalid suite' }], file),
    );
  }
  return normaliseSuite(parsed.data, source);
}

/**
 * `parseSuite(text, file): Suite` (types.ts). `file` is only used in locations.
 * @throws ScenarioError (DROIDCHECK_ERR_SCENARIO) with file:line:col for every problem.
 */
export function parseSuite(text: string, file: string): Suite {
  return parseSuiteFile(text, file) as Suite;
}
