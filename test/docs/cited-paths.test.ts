/**
 * Every file a comment or a page names is there: a path under src/, test/, docs/, deploy/ or
 * bench/ (a file with its extension, or a folder with its trailing slash) written in src/ (code
 * and comments: a message may point at a page), in the comments of test/, in docs/, the README or
 * the layering rules; every relative link of a Markdown page, with its #anchor; and every section
 * a comment cites by name ("docs/architecture.md, Outcomes": a heading that starts so;
 * `docs/receiver.md, "Wiring mistakes"`: quoted words of the page). A path with `*` or `{a,b}` is
 * a glob and must match at least one file. So a file renamed or removed, or a section retitled,
 * cannot leave a reference behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

/** Paths named on purpose that the repository does not hold (globs allowed). None yet. */
const ABSENT_ON_PURPOSE: readonly string[] = [];

const ROOTS = ['src', 'test', 'docs', 'deploy', 'bench'] as const;
const PATH = new RegExp(`(?<![\\w./-])(?:${ROOTS.join('|')})/[\\w./*{},-]*`, 'g');
/** A file (by its extension) or a folder (by its trailing slash); anything else is prose. */
const PATH_END = /(?:\.(?:ts|js|mjs|cjs|md|json|ya?ml)|\/)$/;

function walk(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(REPO, join(e.parentPath, e.name)));
}

/** Every file under the roots, for globs. */
const ALL = ROOTS.flatMap((r) => (existsSync(join(REPO, r)) ? walk(r) : []));

/** `*` within a segment, `**\/` any folders, `{a,b}` either. */
function globRegex(glob: string): RegExp {
  const re = glob
    .replace(/[.+^$()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\0')
    .replace(/\*/g, '[^/]*')
    .replace(/\0/g, '(?:.*/)?')
    .replace(/\{([^}]*)\}/g, (_m, alts: string) => `(?:${alts.split(',').join('|')})`);
  return new RegExp(`^${re}/?$`);
}

const isGlob = (p: string): boolean => /[*{]/.test(p);

function exists(path: string): boolean {
  if (ABSENT_ON_PURPOSE.some((g) => globRegex(g).test(path))) return true;
  if (isGlob(path)) {
    const re = globRegex(path);
    return ALL.some((f) => re.test(f) || re.test(`${dirname(f)}/`));
  }
  if (path.endsWith('/')) return existsSync(join(REPO, path)) && statSync(join(REPO, path)).isDirectory();
  return existsSync(join(REPO, path));
}

/** The comments of a TypeScript file, found by TypeScript's parser (a string or a regex is not one). */
function comments(text: string): string {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const found = new Map<number, string>();
  const visit = (node: ts.Node): void => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ];
    for (const r of ranges) found.set(r.pos, text.slice(r.pos, r.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found.values()].join('\n');
}

/** Text with comment continuations joined (a citation may wrap), bold marks dropped. */
const flat = (text: string): string =>
  text
    .replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ')
    .replace(/\*\*/g, '')
    .replace(/\s+/g, ' ');

/** GitHub's anchor of a heading. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s/g, '-');

const headings = (md: string): string[] => [...md.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.replace(/`/g, ''));

/** The texts to scan: src/ whole, test/ comments, docs/, the README and the layering rules. */
function texts(): { file: string; text: string }[] {
  const read = (file: string): string => readFileSync(join(REPO, file), 'utf8');
  return [
    ...walk('src').map((file) => ({ file, text: read(file) })),
    ...walk('test')
      .filter((f) => f.endsWith('.ts'))
      .map((file) => ({ file, text: comments(read(file)) })),
    ...walk('docs')
      .filter((f) => f.endsWith('.md'))
      .map((file) => ({ file, text: read(file) })),
    { file: 'README.md', text: read('README.md') },
    { file: '.dependency-cruiser.cjs', text: read('.dependency-cruiser.cjs') },
  ];
}

/** The paths of the roots a text names. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(PATH)]
    .filter((m) => text[m.index + m[0].length] !== '$')
    .map((m) => m[0].replace(/[.,]+$/, ''))
    .filter((p) => PATH_END.test(p));
}

const CITE = /\b(docs\/[\w-]+\.md)(?:, |: )(?:"([^"]+)"|([A-Z][\w ]*?)(?=[):;,.'`]|$| [a-z]+\/))/g;

/** The sections `text` cites that their page does not have, each as "<page>, <section>". */
function missingSections(text: string): string[] {
  const missing: string[] = [];
  for (const [, doc, quoted, named] of flat(text).matchAll(CITE)) {
    if (!existsSync(join(REPO, doc!))) continue; // the path check reports it
    const page = readFileSync(join(REPO, doc!), 'utf8');
    const ok = quoted
      ? flat(page).replace(/`/g, '').includes(quoted.replace(/`/g, ''))
      : headings(page).some((h) => h.startsWith(named!.trim()));
    if (!ok) missing.push(`${doc}, ${quoted ? `"${quoted}"` : named!.trim()}`);
  }
  return missing;
}

describe('references to files and sections', () => {
  const scanned = texts();

  it('names only files and folders that exist', () => {
    const missing: string[] = [];
    for (const { file, text } of scanned)
      for (const path of new Set(namedPaths(text))) if (!exists(path)) missing.push(`${file}: ${path}`);
    expect(missing).toEqual([]);
  });

  it('links Markdown pages to files and headings that exist', () => {
    const broken: string[] = [];
    for (const { file, text } of scanned.filter((s) => s.file.endsWith('.md')))
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const full = path === '' ? join(REPO, file) : join(REPO, dirname(file), path);
        if (!existsSync(full)) broken.push(`${file}: ${target}`);
        else if (anchor && full.endsWith('.md') && !headings(readFileSync(full, 'utf8')).map(slug).includes(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    expect(broken).toEqual([]);
  });

  it('cites sections of docs/ that exist', () => {
    const wrong = scanned.flatMap(({ file, text }) => missingSections(text).map((m) => `${file}: ${m}`));
    expect(wrong).toEqual([]);
  });

  it('recognises paths, globs and citations (the checks can fail)', () => {
    expect(namedPaths('see src/config/options.ts and `test/x/*.test.ts`, docs/ and src/${name}.ts')).toEqual([
      'src/config/options.ts',
      'test/x/*.test.ts',
      'docs/',
    ]);
    expect(namedPaths('../src/x.js https://example.com/src/x.ts latest/x.ts')).toEqual([]);
    expect(exists('test/config/options-table.test.ts')).toBe(true);
    expect(exists('test/config/options-doc.test.ts')).toBe(false);
    expect(exists('test/**/*.timing.test.ts')).toBe(true);
    expect(exists('src/{errors,clock}.ts')).toBe(true);
    expect(exists('src/{errors,nothing}/')).toBe(false);
    expect(
      missingSections(
        '(docs/architecture.md, Outcomes) docs/architecture.md, Layout: runner/ docs/scale.md, "Live\n * metrics"',
      ),
    ).toEqual([]);
    expect(missingSections('(docs/architecture.md, Results) docs/receiver.md, "Wiring errors"')).toEqual([
      'docs/architecture.md, Results',
      'docs/receiver.md, "Wiring errors"',
    ]);
    expect(slug('Live metrics: `--metrics-port`'.replace(/`/g, ''))).toBe('live-metrics---metrics-port');
  });
});
