/**
 * report.html in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * the page loads from file:// with no console error and no network request, draws the uPlot
 * charts, and the scenario table has rows that the filters narrow. Skipped (with a message)
 * when Chromium is not installed; .ci/run installs it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, writeHtmlReport } from '../../src/report/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { failingRecord, record, run } from './fixtures.js';

const CHROMIUM = process.env.DROIDCHECK_CHROMIUM ?? '/usr/bin/chromium';
// .ci/run sets DROIDCHECK_REQUIRE_TOOLS: there a missing Chromium fails the test instead of skipping it.
const hasChromium = existsSync(CHROMIUM) || process.env.DROIDCHECK_REQUIRE_TOOLS === '1';
if (!hasChromium) console.warn(`html-browser.test: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does)`);

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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads with no console error, draws the charts and filters the scenario table', async () => {
    const records = [
      ...Array.from({ length: 3 }, (_, i) => record({ seq: i, repeat: i, passed: i !== 1, syncMs: 80 + i * 40, answer: { intents: i === 1 ? ['greeting'] : ['purchase'], addressParsing: { city: 'Bangkok' } } })),
      ...Array.from({ length: 3 }, (_, i) => record({ seq: 3 + i, repeat: i, mode: 'async', syncMs: undefined, ackMs: 8 + i, answerMs: 150 + i * 30, answer: { intents: ['purchase'], addressParsing: { city: i === 0 ? 'Paris' : 'Bangkok' } } })),
      failingRecord({ seq: 6, scenario: 'expects refund', contractViolations: [{ endpoint: 'webhook', path: 'shoppingCart.grandTotal', message: 'expected string' }] }),
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
    // Two uPlot charts (percentiles, histogram) per metric with values: ack, answer, sync.
    expect(await page.locator('.uplot').count()).toBe(6);
    expect(await page.locator('#chart-ack-pct canvas').count()).toBe(1);
    expect(await page.locator('#chart-sync-hist .u-title').textContent()).toContain('sync latency histogram');
    expect(await page.locator('tbody.sc').count()).toBe(7);
    expect(await page.locator('#filter-count').textContent()).toBe('7 of 7');
    await page.selectOption('#filter-status', 'failed');
    expect(await page.locator('#filter-count').textContent()).toBe('2 of 7');
    await page.fill('#filter-text', 'refund');
    expect(await page.locator('tbody.sc:not([hidden])').count()).toBe(1);
    expect(await page.locator('#comparison').textContent()).toContain('regressed');
    expect(await page.locator('#accuracy').count()).toBe(1);
    expect(await page.locator('#parity').count()).toBe(1);
    await page.selectOption('#filter-status', 'all');
    await page.fill('#filter-text', '');
    // Axes fit the data: the 180 s sync limit beside ~160 ms data is a label, not a line that
    // would stretch the log axis to 1,000,000 ms; the ack limit (100 ms, data ~10 ms) is drawn.
    const charts = await page.evaluate(() =>
      (globalThis as unknown as { droidcheckCharts: { root: { parentElement: { id: string } | null }; scales: Record<string, { min?: number; max?: number }>; series: { label?: string }[] }[] }).droidcheckCharts.map((c) => ({
        id: c.root.parentElement?.id,
        yMax: c.scales.y?.max,
        series: c.series.map((x) => x.label),
      })),
    );
    const syncPct = charts.find((c) => c.id === 'chart-sync-pct')!;
    expect(syncPct.yMax).toBeGreaterThanOrEqual(160);
    expect(syncPct.yMax).toBeLessThanOrEqual(1000);
    expect(syncPct.series.some((l) => l?.startsWith('limit'))).toBe(false);
    expect(await page.locator('#chart-sync-pct .u-title').textContent()).toMatch(/limit 180 s \([\d,]+× the max: off scale\)/);
    const ackPct = charts.find((c) => c.id === 'chart-ack-pct')!;
    expect(ackPct.series).toContain('limit 100 ms');
    expect(ackPct.yMax).toBeGreaterThanOrEqual(100);
    await page.screenshot({ path: join(tmpdir(), 'droidcheck-report.png'), fullPage: true });
  }, 60_000);

  it('groups identical failures with a count and shows the answer, the step and the judge beside them', async () => {
    const refused = Array.from({ length: 35 }, (_, i) =>
      record({ seq: i, scenario: `scenario ${i % 7}`, passed: false, outcome: 'transport-error', syncMs: undefined, error: { code: 'DROIDCHECK_ERR_TRANSPORT', message: `connect ECONNREFUSED 127.0.0.1:${9000 + i}` } }),
    );
    const graded = failingRecord({
      seq: 40,
      answer: { intents: ['greeting'], answer: 'Hello! How can I help?' },
      failures: [{ path: 'answer', matcher: 'judge', expected: 'apologises', actual: 'Hello! How can I help?', message: 'answer: no apology', score: 0.1, reason: 'It never apologises.', location: { file: 'shop.yaml', line: 9, col: 7 } }],
      steps: [{ index: 0, kind: 'say', endpoint: 'get-droid-answer-async', outcome: 'answered', passed: false, failures: [] }],
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
    expect(await page.locator('.uplot').count()).toBeGreaterThan(0);
  }, 60_000);
});
