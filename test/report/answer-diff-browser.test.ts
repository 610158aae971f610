/**
 * The changed answers of a comparison in headless Chromium (Debian's /usr/bin/chromium, driven
 * by playwright-core): in a run's report.html (`--baseline`) and on compare's own page, the
 * baseline's answer and the current one stand side by side (one row, two columns), the words
 * only the baseline has struck through and highlighted in its column, those only the current
 * one has highlighted in its own. Skipped (with a message) when Chromium is not installed;
 * .ci/run installs it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareReports } from '../../src/jobs/reports/compare.js';
import { buildReport, writeHtmlReport } from '../../src/report/index.js';
import { chromiumFor, launchChromium } from '../helpers/chromium.js';
import { record, run } from './fixtures.js';

const hasChromium = chromiumFor('answer-diff-browser.test');

/** The page's getComputedStyle (the tests compile without the DOM's types; the cast is erased before the page runs it). */
type Styled = { getComputedStyle(e: unknown): { textDecorationLine: string; backgroundColor: string } };

const payload = (text: string) => ({ answer: text, intents: ['purchase'] });
const runOf = (order: string, greeting: string) =>
  run([
    record({ seq: 0, scenario: 'orders', answer: payload(order) }),
    record({ seq: 1, scenario: 'greets', answer: payload(greeting) }),
  ]);

describe.skipIf(!hasChromium)('changed answers in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-answer-diff-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The boxes of the diff table's two answer cells and of their highlighted words. */
  async function layout(page: Page) {
    const row = page.locator('table.answer-diff tr').nth(1);
    const [base, current] = [row.locator('td').nth(1), row.locator('td').nth(2)];
    return {
      rows: await page.locator('table.answer-diff tr').count(),
      base: await base.boundingBox(),
      current: await current.boundingBox(),
      removed: await base.locator('del').allTextContents(),
      added: await current.locator('ins').allTextContents(),
      baseIns: await base.locator('ins').count(),
      currentDel: await current.locator('del').count(),
      struck: await base
        .locator('del')
        .first()
        .evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).textDecorationLine),
      highlighted: await current
        .locator('ins')
        .first()
        .evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).backgroundColor),
    };
  }

  const expectSideBySide = (l: Awaited<ReturnType<typeof layout>>): void => {
    expect(l.rows).toBe(2); // the header and the one changed answer: the unchanged greeting is not listed
    expect(l.base && l.current).toBeTruthy();
    if (!l.base || !l.current) return;
    expect(Math.abs(l.base.y - l.current.y)).toBeLessThan(1); // one row...
    expect(l.current.x).toBeGreaterThanOrEqual(l.base.x + l.base.width - 1); // ...the current answer right of the baseline's
    expect(l.removed).toEqual(['2', 'To pay:']);
    expect(l.added).toEqual(['3', 'Total due:']);
    expect([l.baseIns, l.currentDel]).toEqual([0, 0]);
    expect(l.struck).toBe('line-through');
    expect(l.highlighted).not.toBe('rgba(0, 0, 0, 0)');
  };

  it("draws the two answers side by side in a run's report.html and on compare's page", async () => {
    const base = buildReport(runOf('Your order: 2 x Oxford shirt. To pay: 1,780 THB.', 'Hello!'));
    const current = buildReport(runOf('Your order: 3 x Oxford shirt. Total due: 1,780 THB.', 'Hello!'), {
      baseline: base,
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(await writeHtmlReport(dir, current)).href);
    expectSideBySide(await layout(page));

    const html = join(dir, 'compare.html');
    await writeFile(html, (await compareReports(base, current)).html);
    await page.goto(pathToFileURL(html).href);
    expectSideBySide(await layout(page));
    expect(errors).toEqual([]);
    await page.close();
  });
});
