/**
 * The repository stands alone: its code, tests, docs, benches and deploy files never cite a
 * document that is not in it (design notes, style notes, the service's specification file, issue
 * numbers of a tracker). A reader with only this repository must be able to follow every
 * reference: a comment says why, or points at docs/architecture.md (the layout, measurements,
 * outcomes, conventions) or docs/service-reference.md (what the service's specification and
 * documentation state).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const SCANNED = [
  'src',
  'test',
  'docs',
  'bench',
  'deploy',
  'scenarios',
  'README.md',
  '.dependency-cruiser.cjs',
  'package.json',
  'vitest.config.ts',
];

// Assembled from parts so that this file does not cite what it forbids.
const FORBIDDEN = new RegExp(
  [
    ['DESIGN', '\\.md'],
    ['STYLE', '\\.md'],
    ['ANCHORS', '\\.md'],
    ['shared', '/spec'],
    ['\\.\\./', 'shared'],
    ['message-endpoint', '-api'],
    ['real-service', '\\.md'],
    ['\\bissues? #?', '[0-9]+'],
    ['\\(', 'issue [0-9]'],
  ]
    .map((parts) => parts.join(''))
    .join('|'),
);

async function files(path: string): Promise<string[]> {
  const full = join(ROOT, path);
  const entries = await readdir(full, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return [full];
  const nested = await Promise.all(
    entries.filter((e) => e.name !== 'node_modules').map((e) => files(join(path, e.name))),
  );
  return nested.flat();
}

describe('no citation of a document outside the repository', () => {
  it('finds none in src/, test/, docs/, bench/, deploy/, the README and the configs', async () => {
    const hits: string[] = [];
    for (const file of (await Promise.all(SCANNED.map(files))).flat()) {
      const text = await readFile(file, 'utf8').catch(() => '');
      if (text.includes('\0')) continue;
      text.split('\n').forEach((line, i) => {
        if (FORBIDDEN.test(line)) hits.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits, 'say why instead, or cite docs/architecture.md / docs/service-reference.md').toEqual([]);
  });

  it('recognises a citation when one appears', () => {
    const samples = [
      'see DESIGN' + '.md, Layout',
      '(' + 'issue' + ' 13, part 2)',
      'the spec (message-endpoint' + '-api.md)',
      'fixes issue #' + '4',
    ];
    for (const s of samples) expect(FORBIDDEN.test(s), s).toBe(true);
    for (const s of [
      'for (const issue of issues)',
      'throw new ScenarioError(' + 'issues)',
      'issues(text)',
      'docs/architecture.md',
    ])
      expect(FORBIDDEN.test(s), s).toBe(false);
  });
});
