/**
 * The coverage and bursts sections of report.html in headless Chromium (Debian's
 * /usr/bin/chromium, driven by playwright-core), from a real load: conversations sent as bursts
 * (`--burst-gap`) to an emulator on 127.0.0.1 that answers each burst's first message late, its
 * demo shop described by a policy file of a real shop's shape. The page loads with no console
 * error and no network request; the coverage section lists every product the load never covered
 * (report.json's `coverage.products.uncovered`) with its figures; the bursts section shows its
 * counts and each finding's requestIds; the burst findings' shares per load interval are drawn
 * (uPlot), one point per interval that judged bursts. Screenshots of both sections are written to
 * the temporary directory (droidcheck-report-coverage.png, droidcheck-report-bursts.png).
 * Skipped (with a message) when Chromium is not installed; .ci/run installs it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoShopPolicy, writeTwoTurnTalk } from '../helpers/two-turn-talk.js';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator } from '../../src/emulator/index.js';
import { runLoad } from '../../src/jobs/index.js';
import { readReportFile, type ReportDocument } from '../../src/report/index.js';
import { chromiumFor, launchChromium } from '../helpers/chromium.js';
import { collectReportDir, freePort } from '../helpers/cli.js';
import { sink } from '../helpers/in-process-cli.js';

const hasChromium = chromiumFor('sections-browser.test');

const SECRET = 'sections-browser-secret-0123456789abcdef';
/** Where the screenshots go (the reader looks at them). */
const SCREENSHOTS = {
  coverage: join(tmpdir(), 'droidcheck-report-coverage.png'),
  bursts: join(tmpdir(), 'droidcheck-report-bursts.png'),
};

describe.skipIf(!hasChromium)('coverage and bursts in report.html, in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let report: ReportDocument;
  let html: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-sections-html-'));
    await writeTwoTurnTalk(dir);
    await writeDemoShopPolicy(dir);
    const port = await freePort();
    const emulator = await createEmulator({
      answerDelayMs: 1000,
      faults: { requests: [{ endpoint: '*', action: 'burst-first-late', delayMs: 1300 }] },
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
    });
    try {
      const baseUrl = await emulator.listen();
      const reportDir = join(dir, 'out');
      const config = resolveConfig(
        'load',
        {
          paths: [join(dir, 'talk.yaml')],
          policy: join(dir, 'shop.policy.yaml'),
          baseUrl,
          droidId: String(emulator.droidId),
          receiverPort: port,
          rate: 4,
          duration: '3s',
          mode: 'async',
          burstGap: '300ms',
          reportDir,
          progress: 0,
          timeout: '20s',
          reporters: ['json', 'html'],
        },
        { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET },
      );
      await runLoad(config, { stdout: sink(), stderr: sink(), env: {} });
      report = await readReportFile(join(reportDir, 'report.json'));
      html = join(reportDir, 'report.html');
    } finally {
      await emulator.close();
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    collectReportDir(join(dir, 'out'));
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the products never covered, shows each finding with its requestIds, and charts the shares per interval', async () => {
    const products = report.coverage!.products!;
    expect(products).toMatchObject({ covered: 2, total: 8 });
    const bursts = report.bursts!;
    expect(bursts.outOfOrder).toBeGreaterThan(0);
    const intervals = report.timeline!.points.filter((p) => p.bursts);
    expect(intervals.length).toBeGreaterThanOrEqual(2);

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
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);

    // Coverage: its figures, and every product never covered named, as a row that says so.
    const coverage = page.locator('#coverage');
    await expect.poll(() => coverage.isVisible()).toBe(true);
    const coverageText = ((await coverage.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(coverageText).toContain('2/8');
    // Each message of a burst is an answer turn of its own: two per burst.
    expect(report.coverage!.service.modes.async).toBe(2 * bursts.total);
    expect(coverageText).toContain(`answer turns: sync 0, async ${2 * bursts.total}`);
    expect(products.uncovered).toHaveLength(6);
    for (const name of products.uncovered) {
      expect(coverageText, name).toContain(name);
      const row = coverage.locator('tr', { hasText: name }).first();
      expect((await row.textContent()) ?? '', name).toContain('never asked about');
    }
    const covered = products.byProduct.filter((p) => !products.uncovered.includes(p.name)).map((p) => p.name);
    expect(covered).toHaveLength(2);
    for (const name of covered)
      expect(await coverage.locator('tr', { hasText: name }).first().textContent(), name).not.toContain(
        'never asked about',
      );
    await coverage.screenshot({ path: SCREENSHOTS.coverage });

    // Bursts: the counts, and each finding's requestIds in its row.
    const section = page.locator('#bursts');
    const burstsText = ((await section.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(burstsText).toContain(`${bursts.total} bursts judged`);
    expect(burstsText).toContain(`${bursts.outOfOrder} out of order`);
    const shown = bursts.findings.slice(0, 5);
    for (const f of shown) {
      const row = section.locator('tr', { hasText: f.requestIds[0]! }).first();
      const text = (await row.textContent()) ?? '';
      for (const id of f.requestIds) expect(text, f.message).toContain(id);
      expect(text).toContain('answered out of order');
    }

    // The shares per interval: one point per interval that judged bursts, the bursts behind each.
    expect(await section.locator('#chart-bursts-timeline .uplot').count()).toBe(1);
    const drawn = await page.evaluate(() => {
      const chart = (
        globalThis as unknown as {
          droidcheckCharts: {
            root: { parentElement: { id: string } | null };
            series: { label?: string }[];
            data: (number | null)[][];
          }[];
        }
      ).droidcheckCharts.find((c) => c.root.parentElement?.id === 'chart-bursts-timeline')!;
      return { labels: chart.series.map((s) => s.label), data: chart.data };
    });
    expect(drawn.labels).toEqual(['s', '% out of order', '% stale last answer', '% cart regressed', 'bursts judged']);
    const points = report.timeline!.points;
    expect(drawn.data[0]).toEqual(points.map((p) => p.t));
    expect(drawn.data[1]).toEqual(
      points.map((p) => (p.bursts ? Math.round(p.bursts.outOfOrder.share! * 1000) / 10 : null)),
    );
    expect(drawn.data[4]).toEqual(points.map((p) => p.bursts?.total ?? 0));
    expect(drawn.data[1]!.filter((v) => v !== null)).toHaveLength(intervals.length);
    await section.screenshot({ path: SCREENSHOTS.bursts });
  });
});
