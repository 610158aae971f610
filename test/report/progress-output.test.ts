/** The progress reporter (live bar vs plain lines) and per-reporter output paths. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { zeroOutcomes } from '../../src/outcomes.js';
import {
  buildReport,
  createProgressReporterWith,
  createReporter,
  etaText,
  parseOutputFiles,
  progressLine,
  renderConsoleSummary,
  wantsLiveProgress,
} from '../../src/report/index.js';
import type { ProgressSnapshot } from '../../src/runner/index.js';
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

  it('prints no p99 from fewer samples than it needs, as the summary does', () => {
    const at = (count: number) =>
      progressLine({
        elapsedMs: 61_400,
        planned: undefined,
        sent: count,
        ended: count,
        inFlight: 0,
        dropped: 0,
        outcomes: { ...zeroOutcomes(), answered: count },
        passed: count,
        failed: 0,
        rate: 10,
        targetRate: undefined,
        ack: { count, p99Ms: 7.5 },
      });
    expect(at(20)).toMatch(/\| ack p99 — \(20 samples\)$/);
    expect(at(100)).toMatch(/\| ack p99 7\.5 ms \(100 samples\)$/);
    // A minute and more in seconds, as everywhere.
    expect(at(20)).toMatch(/^\[ +61\.4 s\]/);
    const summary = renderConsoleSummary(
      buildReport(run(Array.from({ length: 20 }, (_, i) => failingRecord({ seq: i, ackMs: 5 + i })))),
    );
    expect(summary).toMatch(/ack\s+20\s+[\d.]+ ms\s+[\d.]+ ms\s+—\s+—/);
  });

  const snap = (elapsedMs: number, ended: number): ProgressSnapshot => ({
    elapsedMs,
    planned: undefined,
    sent: ended + 1,
    ended,
    inFlight: 1,
    dropped: 0,
    outcomes: { ...zeroOutcomes(), answered: ended },
    passed: ended,
    failed: 0,
    rate: 10,
    targetRate: undefined,
    ack: { count: 0, p99Ms: 0 },
  });

  /** Plain lines of a job with ticks at `ticks` (ms since its start), `planned` as a run knows it. */
  async function plain(ticks: number[], opts: { planned?: number; verbose?: boolean } = {}): Promise<string[]> {
    const out = sink();
    let t = 0;
    const p = createProgressReporterWith({
      stream: out.stream,
      live: false,
      intervalMs: 1000,
      now: () => t,
      ...(opts.verbose && { verbose: true }),
    });
    await p.onRunStart?.({ startedAt: '', settings: {}, planned: opts.planned });
    for (const [i, at] of ticks.entries()) {
      t = at;
      p.onProgress?.(snap(at, 10 * (i + 1)));
    }
    p.onResult?.(record());
    await p.onRunEnd?.(buildReport(run([])));
    return out.text().trim().split('\n').filter(Boolean);
  }

  it('writes plain lines at most once per interval, the first after one, with units, and a last one (load)', async () => {
    expect(await plain([500, 1000, 1500, 2100])).toEqual([
      '[      1 s] 10 req/s | in flight 1 | ended 20 | answered 20',
      '[    2.1 s] 10 req/s | in flight 1 | ended 40 | answered 40',
      '[    2.1 s] 10 req/s | in flight 0 | ended 1 | answered 40',
    ]);
    // Shorter than an interval: nothing; the summary follows at once.
    expect(await plain([500, 900])).toEqual([]);
  });

  it("leaves out a run's last line (its summary follows with the same counts); --verbose prints every line", async () => {
    expect(await plain([500, 1000, 1500], { planned: 40 })).toEqual([
      '[      1 s] 10 req/s | in flight 1 | ended 20 | answered 20',
    ]);
    expect(await plain([500, 900], { planned: 40, verbose: true })).toEqual([
      '[   500 ms] 10 req/s | in flight 1 | ended 10 | answered 10',
      '[   900 ms] 10 req/s | in flight 0 | ended 1 | answered 20',
    ]);
  });

  it('draws a cli-progress bar when live, with an ETA from the observed rate, and clears it at the end', async () => {
    const out = sink();
    out.stream.isTTY = true;
    let t = 0;
    const p = createProgressReporterWith({ stream: out.stream, live: true, now: () => t });
    await p.onRunStart?.({ startedAt: '', planned: 4, settings: {} });
    t = 1000;
    p.onResult?.(record());
    t = 2000;
    p.onResult?.(failingRecord());
    (p as { log(line: string): void }).log('a line printed meanwhile');
    await p.onRunEnd?.(buildReport(run([])));
    expect(out.text()).toMatch(/2\/4 \| 1 passed, 1 failed \| ETA 2 s/);
    expect(out.text()).toContain('a line printed meanwhile');
  });

  it('says ETA -- before anything ended, then one from the observed rate', () => {
    expect(etaText(0, 35, 1000)).toBe('ETA --');
    expect(etaText(5, 35, 1000)).toBe('ETA 6 s');
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
