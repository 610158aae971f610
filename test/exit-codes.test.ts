/**
 * A CI step branches on droidcheck's exit codes: every code of EXIT (src/errors.ts) is documented
 * wherever the codes are listed (docs/exit-codes.md with its precedence, docs/ci.md, the
 * Action's `exit-code` output), and no list names a code EXIT lacks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { REPO } from './helpers/cli.js';

const codes = Object.values(EXIT)
  .map(Number)
  .sort((a, b) => a - b);
const read = (name: string): Promise<string> => readFile(join(REPO, name), 'utf8');
/** The codes of a Markdown table's rows that start with `| <code> |`. */
const tableCodes = (md: string): number[] =>
  [...md.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1])).sort((a, b) => a - b);

describe('exit codes', () => {
  it('docs/exit-codes.md has a row for each, and its precedence names every verdict code', async () => {
    const md = await read('docs/exit-codes.md');
    expect(tableCodes(md)).toEqual(codes);
    const order = /the first in this order wins: ([\d, ]+)\./.exec(md)?.[1]?.split(', ').map(Number);
    // 2 ends a run before it judges anything and 70 interrupts any: the others are ordered.
    expect(order).toEqual([EXIT.INTERRUPTED, EXIT.THRESHOLD_BREACHED, EXIT.EXPECTATION_FAILED, 98, EXIT.OK]);
    expect(EXIT.FIGURES_NOT_TRUSTED).toBe(98);
  });

  it('docs/ci.md and the Action list each', async () => {
    const ci = await read('docs/ci.md');
    const section = ci.slice(ci.indexOf('## Exit codes'));
    expect(tableCodes(section.slice(0, section.indexOf('\n## ')))).toEqual(codes);
    const action = await read('action.yml');
    const described = /exit-code:\n\s+description: "([^"]+)"/.exec(action)?.[1] ?? '';
    for (const code of codes.filter((c) => c !== EXIT.INTERNAL))
      expect(described, `action.yml exit-code output: ${code}`).toMatch(new RegExp(`\\b${code} `));
  });
});
