import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  buildReport,
  createReporter,
  renderMarkdownSummary,
  reporters,
  writeMarkdownSummary,
} from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-md-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const report = buildReport(run([record(), failingRecord({ scenario: 'pipes | and `ticks`' })]), {
  thresholds: ['sync.p99 < 1s'],
});

describe('renderMarkdownSummary', () => {
  const md = renderMarkdownSummary(report);
  it('has the verdict, outcomes, latency table, thresholds and failures', () => {
    expect(md).toContain('## ❌ droidcheck run: 1 passed, 1 failed (exit 1)');
    expect(md).toContain('### Outcomes: answered 2  (2 of 2 planned requests sent)');
    expect(md).toContain('| ack | 1 | — | — | — | — | 12 ms | 100 ms | _too few samples_ |');
    expect(md).toContain('### Thresholds');
    expect(md).toContain('– sync.p99 < 1 s: too few samples (1 < 100)');
    expect(md).toContain('✓ answer.max < 180 s (actual 340 ms, 1 sample)');
    expect(md).toContain('pipes \\| and `ticks` [async]');
    expect(md).toContain('expected `"refund"`, actual `["greeting"]` at `scenarios/shop.yaml:14:7`');
  });

  it('writes summary.md and appends to GITHUB_STEP_SUMMARY when set', async () => {
    const step = join(dir, 'step.md');
    await writeFile(step, 'before\n');
    const files = await writeMarkdownSummary(join(dir, 'out'), report, { env: { GITHUB_STEP_SUMMARY: step } });
    expect(files).toEqual([join(dir, 'out', 'summary.md'), step]);
    expect(await readFile(step, 'utf8')).toMatch(/^before\n## ❌ droidcheck/);
    expect(await writeMarkdownSummary(join(dir, 'out2'), report, { env: {} })).toHaveLength(1);
  });
});

describe('reporters', () => {
  it('builds every built-in by name; an unknown name is a usage error with a did-you-mean', () => {
    expect(Object.keys(reporters).sort()).toEqual([
      'console',
      'html',
      'json',
      'junit',
      'markdown',
      'ndjson',
      'progress',
    ]);
    expect(() => createReporter('jsno', { outDir: dir })).toThrow(UsageError);
    expect(() => createReporter('jsno', { outDir: dir })).toThrow(/did you mean "json"/);
    expect(() => createReporter('toString', { outDir: dir })).toThrow(UsageError);
  });

  it('runs the hooks: console prints, files are written', async () => {
    let printed = '';
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        printed += String(chunk);
        cb();
      },
    });
    const outDir = join(dir, 'all');
    const list = Object.keys(reporters).map((name) => createReporter(name, { outDir, stdout, env: {} }));
    const records = [record(), failingRecord()];
    for (const r of list) await r.onRunStart?.({ startedAt: report.startedAt, settings: {}, planned: 2 });
    for (const rec of records) for (const r of list) await r.onResult?.(rec);
    for (const r of list) await r.onRunEnd?.(report);
    expect(printed).toContain('1 passed, 1 failed');
    const files = list
      .flatMap((r) => r.files ?? [])
      .map((p) => p.slice(outDir.length + 1))
      .sort();
    expect(files).toEqual(['junit.xml', 'report.html', 'report.json', 'results.ndjson', 'summary.md']);
    const ndjson = (await readFile(join(outDir, 'results.ndjson'), 'utf8')).trim().split('\n');
    expect(ndjson).toHaveLength(2);
  });
});
