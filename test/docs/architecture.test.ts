/**
 * docs/architecture.md's "Layout (src/)" table is the map a reader trusts: every folder and
 * top-level file of src/ has its row, every row names something that exists, and each row's
 * "may import" column says exactly what `.dependency-cruiser.cjs` (npm run lint:deps) lets that
 * part import. The rules are read by requiring the file and evaluated on a stand-in path per part
 * (test/docs/layering.ts), so a rule changed without the table, or the table without the rule,
 * fails here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportDocumentSchema } from '../../src/report/index.js';
import { REPO } from '../helpers/cli.js';
import {
  cruiserRules,
  type LayoutRow,
  layoutRows,
  leavesPattern,
  readMayImport,
  ruleImports,
  srcParts,
  standIn,
} from './layering.js';

const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

describe('docs/architecture.md, Layout (src/)', () => {
  let rows: LayoutRow[];
  const parts = srcParts();
  const rules = cruiserRules();

  beforeAll(async () => {
    rows = layoutRows(await readFile(join(REPO, 'docs', 'architecture.md'), 'utf8'));
  });

  it('has one row for every folder and top-level file of src/, and names nothing else', () => {
    const named = rows.flatMap((r) => r.parts);
    expect(
      named.filter((p) => !parts.includes(p)),
      'rows naming what src/ does not hold',
    ).toEqual([]);
    expect(
      parts.filter((p) => !named.includes(p)),
      'parts of src/ without a row',
    ).toEqual([]);
    expect(named.length, 'a part named in two rows').toBe(new Set(named).size);
  });

  it("lists as leaves exactly the files of the rules' LEAVES pattern", () => {
    const documented = sorted(rows.filter((r) => r.leaves).flatMap((r) => r.parts));
    const pattern = leavesPattern(rules);
    expect(documented, 'the leaf rows of the table vs LEAVES in .dependency-cruiser.cjs').toEqual(
      sorted(parts.filter((p) => pattern.test(standIn(p)))),
    );
    expect(documented).not.toContain('index.ts');
  });

  it('says of every part what .dependency-cruiser.cjs lets it import', () => {
    const leaves = rows.filter((r) => r.leaves).flatMap((r) => r.parts);
    const mismatches: string[] = [];
    for (const row of rows)
      for (const self of row.parts) {
        const doc = readMayImport(row, self, parts, leaves);
        const rule = ruleImports(rules, self, parts);
        for (const [what, said, allowed] of [
          ['', doc.values, rule.values],
          [' for its types only', doc.typesOnly, rule.typesOnly],
        ] as const) {
          const unsaid = allowed.filter((p) => !said.includes(p));
          const unallowed = said.filter((p) => !allowed.includes(p));
          if (unsaid.length > 0)
            mismatches.push(
              `docs/architecture.md:${row.line} ${self}: the rules let it import ${sorted(unsaid).join(', ')}${what}; the table does not say so`,
            );
          if (unallowed.length > 0)
            mismatches.push(
              `docs/architecture.md:${row.line} ${self}: the table says it imports ${sorted(unallowed).join(', ')}${what}; the rules forbid it`,
            );
        }
      }
    expect(mismatches).toEqual([]);
  });

  it('names every kind of report that report.json can hold', () => {
    const row = rows.find((r) => r.parts.includes('report/'))!;
    const kinds = /\(`kind`:? ([^)]*)\)/.exec(row.owns);
    expect(kinds, 'the report/ row says "(`kind`: ...)"').not.toBeNull();
    const documented = [...kinds![1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    expect(sorted(documented)).toEqual(sorted(reportDocumentSchema.shape.kind.options));
  });

  it('reads a cell the way the table means it (the reader can fail)', () => {
    const leaves = ['errors.ts', 'clock.ts'];
    const all = ['cli/', 'jobs/', 'report/', 'runner/', 'receiver/', 'index.ts', ...leaves];
    const row = (mayImport: string): LayoutRow => ({ line: 1, parts: [], leaves: false, owns: '', mayImport });
    expect(readMayImport(row('runner, leaves (why); receiver for types only'), 'report/', all, leaves)).toEqual({
      values: ['runner/', 'errors.ts', 'clock.ts'],
      typesOnly: ['receiver/'],
    });
    expect(readMayImport(row('everything but `cli/`'), 'jobs/', all, leaves).values).toEqual([
      'report/',
      'runner/',
      'receiver/',
      'errors.ts',
      'clock.ts',
    ]);
    expect(readMayImport(row('nothing of ours (`errors.ts` aside)'), 'clock.ts', all, leaves).values).toEqual([]);
    expect(() => readMayImport(row('runner, the moon'), 'report/', all, leaves)).toThrow('"the moon"');
    // And the rules are read: a folder with no rule may import what nothing else forbids.
    expect(ruleImports(rules, 'jobs/', parts).values).not.toContain('cli/');
    expect(ruleImports(rules, 'cli/', parts).values).toContain('jobs/');
    expect(ruleImports(rules, 'report/', parts).typesOnly).toContain('runner/');
  });
});
