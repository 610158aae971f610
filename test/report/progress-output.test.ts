/** The progress reporter (live bar vs plain lines) and per-reporter output paths. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildReport, createProgressReporterWith, createReporter, parseOutputFiles, wantsLiveProgress } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

const sink = () => {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  let text = '';
  stream.on('data', (d) => (text += d));
  return { stream, text: () => text };
};

describe('progress reporter', () => {
  it('is live only on a TTY without CI', () => {
    expect(wantsLiveProgress({ isTTY: true }, {})).toBe(true);
    expect(wantsLiveProgress({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(wantsLiveProgress({ isTTY: true }, { CI: 'false' })).toBe(true);
    expect(wantsLiveProgress({}, {})).toBe(false);
  });

  it('writes plain lines at most once per interval, and a last one', async () => {
    const out = sink();
    let t = 0;
    const p = createProgressReporterWith({ stream: out.stream, live: false, intervalMs: 1000, now: () => t });
    await p.onRunStart?.({ startedAt: '', planned: 3, settings: {} });
    await p.onResult?.(record());
    t = 500;
    await p.onResult?.(failingRecord());
    t = 1500;
    await p.onResult?.(record());
    await p.onRunEnd?.(buildReport(run([])));
    expect(out.text().trim().split('\n')).toEqual([
      'progress: 1/3 done, 1 passed, 0 failed',
      'progress: 3/3 done, 2 passed, 1 failed',
      'progress: 3/3 done, 2 passed, 1 failed',
    ]);
  });

  it('draws a cli-progress bar when live', async () => {
    const out = sink();
    out.stream.isTTY = true;
    const p = createProgressReporterWith({ stream: out.stream, live: true });
    await p.onRunStart?.({ startedAt: '', planned: 2, settings: {} });
    await p.onResult?.(record());
    await p.onResult?.(failingRecord());
    await p.onRunEnd?.(buildReport(run([])));
    expect(out.text()).toMatch(/2\/2 \| 1 passed, 1 failed/);
  });
});

describe('per-reporter output paths', () => {
  it('parses name=path and writes each named reporter to its own path', async () => {
    expect(() => parseOutputFiles(['junit'])).toThrow(/must be <reporter>=<path>/);
    expect(() => parseOutputFiles(['junitt=x.xml'])).toThrow(UsageError);
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-out-'));
    const outputFile = parseOutputFiles([`junit=${join(dir, 'ci', 'tests.xml')}`, `json=${join(dir, 'r.json')}`]);
    const report = buildReport(run([record()]));
    const junit = createReporter('junit', { outDir: join(dir, 'reports'), outputFile });
    const html = createReporter('html', { outDir: join(dir, 'reports'), outputFile });
    const json = createReporter('json', { outDir: join(dir, 'reports'), outputFile });
    for (const r of [junit, html, json]) await r.onRunEnd?.(report);
    expect(junit.files).toEqual([join(dir, 'ci', 'tests.xml')]);
    expect(html.files).toEqual([join(dir, 'reports', 'report.html')]);
    expect(JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')).summary.requests).toBe(1);
  });
});
