/**
 * The two halves of the layering that test/docs/architecture.test.ts holds together:
 * docs/architecture.md's "Layout (src/)" table as data, and what `.dependency-cruiser.cjs` lets
 * each part of src/ import, read by evaluating its rules on one stand-in path per part.
 *
 * A *part* is a top-level folder of src/ (`runner/`) or a top-level file (`errors.ts`).
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO } from '../helpers/cli.js';

/** One row of the table: the parts it names, its "owns" text and its "may import" cell. */
export interface LayoutRow {
  line: number;
  parts: string[];
  /** The first cell starts with "leaf" or "leaves": every file it names is a leaf module. */
  leaves: boolean;
  owns: string;
  mayImport: string;
}

/** What one part may import: value imports, and parts imported for their types only. */
export interface Imports {
  values: string[];
  typesOnly: string[];
}

/** The folders and top-level files of src/, as parts (`runner/`, `errors.ts`). */
export function srcParts(): string[] {
  return readdirSync(join(REPO, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}

/** The rows of the table under `## Layout (src/)` (header and separator skipped). */
export function layoutRows(markdown: string): LayoutRow[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf('## Layout (src/)');
  if (start < 0) throw new Error('docs/architecture.md has no "## Layout (src/)" section');
  const rows: LayoutRow[] = [];
  let i = lines.findIndex((l, n) => n > start && l.startsWith('|'));
  for (i += 2; lines[i]?.startsWith('|'); i++) {
    const cells = lines[i]!.slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    if (cells.length !== 3) throw new Error(`docs/architecture.md:${i + 1}: a layout row has 3 cells`);
    const [first, owns, mayImport] = cells as [string, string, string];
    const parts = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    rows.push({ line: i + 1, parts, leaves: /^leaf|^leaves/.test(first), owns, mayImport });
  }
  return rows;
}

/** A name of the "may import" cell as a part: `runner`, `runner/` -> `runner/`; `errors.ts` stays. */
function asPart(name: string, parts: readonly string[]): string | undefined {
  const bare = name.replace(/`/g, '').trim();
  if (parts.includes(bare)) return bare;
  if (parts.includes(`${bare}/`)) return `${bare}/`;
  return undefined;
}

/**
 * Reads a "may import" cell. Parenthesised text is a reason, not a name. The forms: `nothing of
 * ours`; `everything` (but itself and index.ts, which nothing inside src/ imports); `everything
 * but X`; or names separated by commas or "and", where `leaves` stands for every leaf, and a
 * part after `;` "for their types only" is imported for its types only. A word that is none of
 * these throws, so the table stays readable by this test.
 */
export function readMayImport(
  row: LayoutRow,
  self: string,
  parts: readonly string[],
  leaves: readonly string[],
): Imports {
  const text = row.mayImport
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const everything = parts.filter((p) => p !== self && p !== 'index.ts');
  if (text === 'nothing of ours') return { values: [], typesOnly: [] };
  if (text === 'everything') return { values: everything, typesOnly: [] };
  const but = /^everything but (.+)$/.exec(text);
  if (but) {
    const except = names(but[1]!, row, parts, leaves);
    return { values: everything.filter((p) => !except.includes(p)), typesOnly: [] };
  }
  const [values, ...rest] = text.split(';');
  const typesOnly = rest.map((segment) => {
    const listed = /^(.+) for (?:their )?types only$/.exec(segment.trim());
    if (!listed) throw new Error(`docs/architecture.md:${row.line}: cannot read "${segment.trim()}"`);
    return names(listed[1]!, row, parts, leaves);
  });
  return { values: names(values!, row, parts, leaves), typesOnly: typesOnly.flat() };
}

function names(list: string, row: LayoutRow, parts: readonly string[], leaves: readonly string[]): string[] {
  return list
    .split(/,|\band\b/)
    .map((n) => n.trim())
    .filter(Boolean)
    .flatMap((n) => {
      if (n === 'leaves') return [...leaves];
      const part = asPart(n, parts);
      if (!part) throw new Error(`docs/architecture.md:${row.line}: "${n}" in "may import" is not a part of src/`);
      return [part];
    });
}

// ---- .dependency-cruiser.cjs ----

type PathCondition = string | string[] | undefined;
interface Rule {
  name: string;
  from: { path?: PathCondition; pathNot?: PathCondition };
  to: {
    path?: PathCondition;
    pathNot?: PathCondition;
    dependencyTypes?: string[];
    dependencyTypesNot?: string[];
    circular?: boolean;
    couldNotResolve?: boolean;
  };
}

/** The `forbidden` rules of `.dependency-cruiser.cjs`, and its `LEAVES` pattern's effect. */
export function cruiserRules(): Rule[] {
  const require = createRequire(import.meta.url);
  return (require(join(REPO, '.dependency-cruiser.cjs')) as { forbidden: Rule[] }).forbidden;
}

const matches = (cond: PathCondition, path: string): boolean =>
  (Array.isArray(cond) ? cond : [cond]).some((re) => re !== undefined && new RegExp(re).test(path));

/** A file standing for a part: `src/<folder>/x.ts`, or the file itself (`src/errors.ts`). */
export const standIn = (part: string): string => (part.endsWith('/') ? `src/${part}x.ts` : `src/${part}`);

/**
 * What the rules say of an import from `from` to `to` (parts): `forbidden` when a rule about
 * paths matches it, `types` when the only rules that match forbid all but type-only imports,
 * else `allowed`. Rules about cycles, resolution and packages say nothing of a pair of parts.
 */
function verdict(rules: readonly Rule[], from: string, to: string): 'allowed' | 'types' | 'forbidden' {
  const a = standIn(from);
  const b = standIn(to);
  let result: 'allowed' | 'types' = 'allowed';
  for (const rule of rules) {
    if (rule.to.path === undefined || rule.to.dependencyTypes) continue;
    if (rule.from.path !== undefined && !matches(rule.from.path, a)) continue;
    if (matches(rule.from.pathNot, a) || !matches(rule.to.path, b) || matches(rule.to.pathNot, b)) continue;
    if (rule.to.dependencyTypesNot?.includes('type-only')) result = 'types';
    else return 'forbidden';
  }
  return result;
}

/** What the rules let `self` import, in the shape the table's cell is read into. */
export function ruleImports(rules: readonly Rule[], self: string, parts: readonly string[]): Imports {
  const others = parts.filter((p) => p !== self);
  return {
    values: others.filter((p) => verdict(rules, self, p) === 'allowed'),
    typesOnly: others.filter((p) => verdict(rules, self, p) === 'types'),
  };
}

/** The rule that binds the leaf modules: its `from.path` is the `LEAVES` pattern. */
export function leavesPattern(rules: readonly Rule[]): RegExp {
  const rule = rules.find((r) => r.name === 'leaves-import-nothing');
  if (!rule || typeof rule.from.path !== 'string')
    throw new Error('.dependency-cruiser.cjs has no leaves-import-nothing rule');
  return new RegExp(rule.from.path);
}
