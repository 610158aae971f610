/**
 * report.html in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * the page loads from file:// with no console error and no network request, draws the uPlot
 * charts, and the scenario table has rows that the filters narrow. Skipped (with a message)
 * when Chromium is not installed; .ci/run installs it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchCapacity } from '../../src/jobs/load/capacity-search.js';
import { buildReport, writeHtmlReport } from '../../src/report/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { chromiumFor, launchChromium } from '../helpers/chromium.js';
import { failingRecord, latencyRun, record, run } from './fixtures.js';

const hasChromium = chromiumFor('html-browser.test');

const suite = parseSuite(
  `suite: Shop
scenarios:
  - name: buys shirts
    humanMessage: two shirts
    repeat: 3
    passRate: 0.6
    expect:
      intents: { includes: purchase }
      addressParsing.city: Bangkok
`,
  'shop.yaml',
);

describe.skipIf(!hasChromium)('report.html in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-html-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads with no console error, draws the charts and filters the scenario table', async () => {
    const records = [
      ...Array.from({ length: 3 }, (_, i) =>
        record({
          seq: i,
          repeat: i,
          passed: i !== 1,
          syncMs: 80 + i * 40,
          answer: { intents: i === 1 ? ['greeting'] : ['purchase'], addressParsing: { city: 'Bangkok' } },
        }),
      ),
      ...Array.from({ length: 3 }, (_, i) =>
        record({
          seq: 3 + i,
          repeat: i,
          mode: 'async',
          syncMs: undefined,
          ackMs: 8 + i,
          answerMs: 150 + i * 30,
          answer: { intents: ['purchase'], addressParsing: { city: i === 0 ? 'Paris' : 'Bangkok' } },
        }),
      ),
      failingRecord({
        seq: 6,
        scenario: 'expects refund',
        contractViolations: [{ endpoint: 'webhook', path: 'shoppingCart.grandTotal', message: 'expected string' }],
      }),
    ];
    const base = buildReport(run(records.map((r) => ({ ...r, passed: true }))), { suites: [suite] });
    const report = buildReport(run(records), { suites: [suite], baseline: base, thresholds: ['ack.p99 < 100ms'] });
    const path = await writeHtmlReport(dir, report);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });

    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    // 3 or 4 samples per metric support no chart: a line with the figures they do support instead.
    expect(await page.locator('.uplot').count()).toBe(0);
    expect(await page.locator('#latency .chart-note').allTextContents()).toEqual([
      expect.stringMatching(/^ack: 4 samples: too few for a chart \(p50 [\d.]+ ms, max [\d.]+ ms\)$/),
      expect.stringMatching(/^answer: 4 samples/),
      expect.stringMatching(/^sync: 3 samples/),
    ]);
    // Failures first: what the reader opened the page for.
    const order = await page.locator('h2').allTextContents();
    expect(order[0]).toMatch(/^Failures/);
    await page.screenshot({ path: join(tmpdir(), 'droidcheck-report-small.png'), fullPage: true });
    expect(await page.locator('tbody.sc').count()).toBe(7);
    expect(await page.locator('#filter-count').textContent()).toBe('7 of 7');
    await page.selectOption('#filter-status', 'failed');
    expect(await page.locator('#filter-count').textContent()).toBe('2 of 7');
    await page.fill('#filter-text', 'refund');
    expect(await page.locator('tbody.sc:not([hidden])').count()).toBe(1);
    expect(await page.locator('#comparison').textContent()).toContain('REGRESSED against the baseline');
    expect(await page.locator('#accuracy').count()).toBe(1);
    expect(await page.locator('#parity').count()).toBe(1);
    await page.selectOption('#filter-status', 'all');
    await page.fill('#filter-text', '');
  });

  it('groups identical failures with a count and shows the answer, the step and the judge beside them', async () => {
    const refused = Array.from({ length: 35 }, (_, i) =>
      record({
        seq: i,
        scenario: `scenario ${i % 7}`,
        passed: false,
        outcome: 'transport-error',
        syncMs: undefined,
        error: { code: 'DROIDCHECK_ERR_TRANSPORT', message: `connect ECONNREFUSED 127.0.0.1:${9000 + i}` },
      }),
    );
    const graded = failingRecord({
      seq: 40,
      answer: { intents: ['greeting'], answer: 'Hello! How can I help?' },
      failures: [
        {
          path: 'answer',
          matcher: 'judge',
          expected: 'apologises',
          actual: 'Hello! How can I help?',
          message: 'answer: no apology',
          score: 0.1,
          reason: 'It never apologises.',
          location: { file: 'shop.yaml', line: 9, col: 7 },
        },
      ],
      steps: [
        { index: 0, kind: 'say', endpoint: 'get-droid-answer-async', outcome: 'answered', passed: false, failures: [] },
      ],
    });
    const path = await writeHtmlReport(dir, buildReport(run([...refused, graded])), 'grouped.html');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    expect(await page.locator('.failure').count()).toBe(2);
    expect(await page.locator('.failure .count').first().textContent()).toBe('×35');
    const details = page.locator('.failure details').first();
    expect(await details.locator('li').first().isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('li').count()).toBe(35);
    expect(await details.locator('li').first().isVisible()).toBe(true);
    expect(await page.locator('.failure pre.answer').textContent()).toBe('Hello! How can I help?');
    expect(await page.locator('.failure .reason').textContent()).toBe('It never apologises.');
    expect(await page.locator('.failure .step').textContent()).toContain('step 1');
    // 35 transport errors record no latency: no chart, and no empty box either.
    expect(await page.locator('.chart').count()).toBe(0);
  });

  it('draws a load report: charts where the sample supports them, ack and answer on their own axes, legends that name every series', async () => {
    const input = latencyRun(7, 300);
    const points = Array.from({ length: 10 }, (_, i) => ({
      t: i + 1,
      durationS: 1,
      started: 60,
      ended: 60,
      inFlight: 3,
      maxInFlight: 5,
      outcomes: { answered: 60 },
      targetRate: 60,
      ack: { count: 30, p50: 2 + i / 10, p99: 9, max: 12, histogram: '' },
      answer: { count: 30, p50: 3500 + i * 10, p99: 9000, max: 9500, histogram: '' },
      sync: { count: 30, p50: 30, p99: 80, max: 90, histogram: '' },
    }));
    const report = buildReport({
      ...input,
      kind: 'load',
      records: [],
      timeline: { intervalMs: 1000, points },
      load: {
        model: 'open',
        sent: 600,
        warmupSent: 0,
        dropped: 0,
        measuredMs: 10_000,
        achievedRate: 60,
        answeredRate: 60,
      },
    });
    const path = await writeHtmlReport(dir, report, 'load.html');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    // 300 samples per metric: a curve up to p99 (p99.9 needs 1,000) and a histogram each; two timeline charts.
    expect(await page.locator('#latency .uplot').count()).toBe(6);
    expect(await page.locator('#timeline .uplot').count()).toBe(2);
    expect(await page.locator('#chart-sync-pct .u-title').textContent()).toMatch(
      /^sync latency by percentile, up to p99\.5 \(300 samples; ms, log\)/,
    );
    const charts = await page.evaluate(() =>
      (
        globalThis as unknown as {
          droidcheckCharts: {
            root: { parentElement: { id: string } | null };
            scales: Record<string, { min?: number; max?: number }>;
            series: { label?: string; scale?: string }[];
          }[];
        }
      ).droidcheckCharts.map((c) => ({
        id: c.root.parentElement?.id,
        scales: Object.fromEntries(Object.entries(c.scales).map(([k, v]) => [k, v.max])),
        series: c.series.map((x) => [x.label, x.scale]),
      })),
    );
    // Axes fit the data: the 180 s sync limit beside ~100 ms data is a label, not a line that
    // would stretch the log axis to 1,000,000 ms; the ack limit (100 ms, data ~2 ms... 35 ms) is drawn.
    const syncPct = charts.find((c) => c.id === 'chart-sync-pct')!;
    expect(syncPct.scales.y).toBeLessThanOrEqual(1000);
    expect(syncPct.series.some(([l]) => l?.startsWith('limit'))).toBe(false);
    expect(charts.find((c) => c.id === 'chart-ack-pct')!.series.map(([l]) => l)).toContain('limit 100 ms');
    // Over time: ack (ms) on its own axis, answer (seconds) on another, so neither line is flat.
    const latency = charts.find((c) => c.id === 'chart-timeline-latency')!;
    expect(latency.series.filter(([l]) => l?.startsWith('ack')).every(([, scale]) => scale === 'ack')).toBe(true);
    expect(latency.series.filter(([l]) => l?.startsWith('answer')).every(([, scale]) => scale === 'answer')).toBe(true);
    expect(latency.scales.ack).toBeLessThan(100);
    // (answer p99 of 30 samples per interval is no figure: a gap; its p50, ~3.5 s, sets the axis.)
    expect(latency.scales.answer).toBeGreaterThan(3000);
    // Legends name the series and show no "--" placeholder values.
    const legends = await page.locator('.u-legend').allInnerTexts();
    expect(legends.length).toBeGreaterThanOrEqual(8);
    expect(legends.join('\n')).not.toContain('--');
    expect(legends.join('\n')).toContain('answer p99');
    await page.screenshot({ path: join(tmpdir(), 'droidcheck-report-load.png'), fullPage: true });
  });

  it('draws a sync capacity report: the knee at the top, latency over time and p99 by rate from the sync figures', async () => {
    const rates = [10, 20, 30];
    const capacity = await searchCapacity(
      async (rate) => ({
        rate,
        achievedRate: rate,
        sent: rate * 10,
        dropped: 0,
        errors: 0,
        ack: { count: 0, p50: 0, p99: 0 },
        answer: { count: 0, p50: 0, p99: 0 },
        sync: { count: rate * 10, p50: 20 + rate, p99: 40 + rate * 3 },
        generatorBound: false,
        sendDelayP99Ms: 0.4,
        judgesAck: false,
        answers: { passed: rate === 30 ? rate * 5 : rate * 10, judged: rate * 10 },
      }),
      { strategy: 'step', startRate: 10, stepRate: 10, maxRate: 30, maxSteps: 5 },
      { ackP99Ms: 100, maxErrorRate: 0.01, minPassRate: 0.95, minCapacity: 25 },
    );
    expect(capacity.curve.map((p) => p.rate)).toEqual(rates);
    const points = Array.from({ length: 12 }, (_, i) => ({
      t: i + 1,
      durationS: 1,
      started: 20,
      ended: 20,
      inFlight: 1,
      maxInFlight: 2,
      outcomes: { answered: 20 },
      targetRate: 10 * (1 + Math.floor(i / 4)),
      sync: { count: 20, p50: 25 + i, p99: 0, max: 60 + i, histogram: '' },
    }));
    const input = run(Array.from({ length: 600 }, (_, i) => record({ seq: i, syncMs: 20 + (i % 40) })));
    const report = buildReport({ ...input, kind: 'capacity', timeline: { intervalMs: 1000, points }, capacity });
    expect(report.exitCode).toBe(99); // knee 20 req/s < --min-capacity 25
    const path = await writeHtmlReport(dir, report, 'capacity-sync.html');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    // The knee under the title, before any section.
    const headline = page.locator('body > p.headline');
    expect(await headline.textContent()).toMatch(
      /^Capacity 20 req\/s \(the knee\) · ended at 30 req\/s by answers degraded: .* · --min-capacity 25 req\/s: NOT MET$/,
    );
    const drawn = await page.evaluate(() =>
      Object.fromEntries(
        (
          globalThis as unknown as {
            droidcheckCharts: {
              root: { parentElement: { id: string } | null };
              series: { label?: string }[];
              data: (number | null)[][];
            }[];
          }
        ).droidcheckCharts.map((c) => [
          c.root.parentElement?.id,
          Object.fromEntries(
            c.series.slice(1).map((x, i) => [x.label, (c.data[i + 1] ?? []).filter((v) => v !== null).length]),
          ),
        ]),
      ),
    );
    // Sync figures in both charts that a sync mix used to leave empty.
    expect(drawn['chart-timeline-latency']!['sync p50']).toBe(12);
    expect(drawn['chart-capacity']!['sync p99']).toBe(3);
    // The top of the page: the headline, the sections and their charts (the 600 scenario rows below).
    await page.screenshot({
      path: join(tmpdir(), 'droidcheck-report-capacity-sync.png'),
      fullPage: true,
      clip: { x: 0, y: 1100, width: 1280, height: 1500 },
    });
  });
});
