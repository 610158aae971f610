/**
 * The coverage section in every format and through every report operation: one console line
 * (within 100 columns), every table in summary.md and report.html, the figures as JUnit
 * properties; shards merged with each conversation counted once; `coverage.*` thresholds judged
 * with the uncovered items named (exit 99 only when the user set one); and a baseline comparison
 * that says what was lost or gained, never a regression.
 */
import { describe, expect, it } from 'vitest';
import { CoverageRecorder } from '../../src/coverage/index.js';
import { parsePolicy } from '../../src/policy/index.js';
import {
  buildReport,
  mergeReports,
  parseReportDocument,
  renderConsoleSummary,
  renderHtmlReport,
  renderJUnit,
  renderMarkdownSummary,
  type ReportDocument,
} from '../../src/report/index.js';
import { record, run } from '../report/fixtures.js';

const SHOP = parsePolicy(
  `currency: THB
catalogue:
  - { name: Oxford shirt, price: 1290, aliases: [shirt] }
  - { name: Denim jacket, price: 2490, aliases: [jacket] }
  - { name: Tote bag, price: 450 }
shipping: { fee: 50, freeFrom: 1500 }
intents: [purchase, complaint]
`,
  'shop.policy.yaml',
);

/** A recorder fed as the runner feeds it: `asked` conversations, one answer each (a cart of the product asked). */
function covered(asked: readonly string[], opts: { address?: boolean } = {}): CoverageRecorder {
  const c = new CoverageRecorder({ shop: SHOP, rules: true });
  for (const product of asked) {
    const said = [`I want 2 ${product}${opts.address ? ', to 99 Sukhumvit Rd, Bangkok 10110' : ''}`];
    c.sent(`conv ${product}`, 'Shop', said);
    c.answered(`conv ${product}`, 'Shop', said, {
      answer: `2 ${product} in your cart`,
      intents: ['purchase'],
      shoppingCart: { products: [{ name: product, count: 2 }], shippingFee: '0', grandTotal: '2,580.00 THB' },
      addressParsing: opts.address ? { street_address: '99 Sukhumvit Rd', city: 'Bangkok', postal_code: '10110' } : {},
    });
    c.ended({ mode: 'sync', outcome: 'answered' });
  }
  return c;
}

const reportOf = (c: CoverageRecorder, thresholds: string[] = []): ReportDocument =>
  parseReportDocument(
    JSON.parse(JSON.stringify(buildReport({ ...run([record()]), coverage: c.snapshot(), thresholds }))),
  );

describe('the coverage section', () => {
  const report = reportOf(covered(['Oxford shirt']));

  it('is one console line that fits 100 columns: what a reader needs first, then what fits', () => {
    const lines = renderConsoleSummary(report).split('\n');
    expect(lines.filter((l) => l.startsWith('Coverage'))).toEqual([
      'Coverage  products 1/3, 1 in a cart · intents 1/2 · endpoints 1/10 · never reached: address, contact',
    ]);
    expect(lines.filter((l) => l.startsWith('  Products'))).toEqual([]);
    const fuller = reportOf(covered(['Oxford shirt', 'Denim jacket'], { address: true }));
    const line = renderConsoleSummary(fuller)
      .split('\n')
      .find((l) => l.startsWith('Coverage'));
    expect(line).toBe(
      'Coverage  products 2/3, 2 in a cart · not asked: Tote bag · intents 1/2 · never reached: contact',
    );
    expect(line!.length).toBeLessThanOrEqual(100);
  });

  it('draws every table in summary.md and report.html, and gives JUnit its figures as properties', () => {
    const md = renderMarkdownSummary(report);
    expect(md).toContain('### Coverage: products 1/3');
    expect(md).toContain('| Tote bag | 450.00 THB | _0_ | _0_ | _0_ |  | ✗ never asked about |');
    expect(md).toContain('| **all** | 1 | 1 (100%) | 1 (100%) | 1 (100%) | 0 | 0 |');
    expect(md).toMatch(/\| catalogue-price \| untested \|/);
    const html = renderHtmlReport(report);
    expect(html).toContain('<section class="section" id="coverage">');
    expect(html).toContain('Products (1/3 covered, 33.3%; 1 in a cart)');
    const xml = renderJUnit(report);
    expect(xml).toContain('<property name="coverage.products" value="1/3 (33.3%)"/>');
    expect(xml).toContain('<property name="coverage.products.uncovered" value="Denim jacket, Tote bag"/>');
    expect(xml).toContain('<property name="coverage.funnel.address" value="0/1 conversations"/>');
  });

  it('is information: a report that covers little still exits 0 unless a coverage threshold says otherwise', () => {
    expect(report.exitCode).toBe(0);
    const gated = reportOf(covered(['Oxford shirt']), [
      'coverage.products >= 100%',
      'coverage.funnel.address > 0%',
      'coverage.intents >= 50%',
    ]);
    expect(gated.exitCode).toBe(99);
    const judged = gated.thresholds.filter((t) => t.metric.startsWith('coverage.'));
    expect(judged.map((t) => [t.expression, t.status, t.uncovered])).toEqual([
      ['coverage.products >= 100%', 'breached', ['Denim jacket', 'Tote bag']],
      ['coverage.funnel.address > 0%', 'breached', ['Shop']],
      ['coverage.intents >= 50%', 'passed', ['complaint']],
    ]);
    expect(renderConsoleSummary(gated)).toContain(
      '✗ coverage.products >= 100% (actual 33.3%, 3 products; not covered: Denim jacket, Tote bag)',
    );
    expect(renderConsoleSummary(gated)).toContain(
      '✗ coverage.funnel.address > 0% (actual 0%, 1 conversation; reached by no conversation of: Shop)',
    );
  });
});

describe('merged shards', () => {
  it('add the counts and count a conversation both shards ran once', () => {
    const a = reportOf(covered(['Oxford shirt']));
    const b = reportOf(covered(['Oxford shirt', 'Tote bag'], { address: true }));
    const merged = mergeReports([a, b], { thresholds: ['coverage.products >= 100%'] });
    const c = merged.coverage!;
    expect(c.products).toMatchObject({ covered: 2, total: 3, uncovered: ['Denim jacket'] });
    expect(c.products?.byProduct[0]).toMatchObject({ name: 'Oxford shirt', asked: 2, inCart: 2 });
    // "conv Oxford shirt" ran in both shards: one conversation, with what either reached.
    expect(c.funnel).toMatchObject({ conversations: 2, stages: { cart: 2, address: 2 } });
    expect(c.service.modes.sync).toBe(3);
    expect(merged.thresholds.find((t) => t.metric === 'coverage.products')?.uncovered).toEqual(['Denim jacket']);
    expect(merged.exitCode).toBe(99);
  });

  it('leave out a part some input lacks: a partial figure would read as the whole run', () => {
    const bare = parseReportDocument(
      JSON.parse(JSON.stringify(buildReport({ ...run([record()]), coverage: new CoverageRecorder().snapshot() }))),
    );
    const merged = mergeReports([reportOf(covered(['Tote bag'])), bare]);
    expect(merged.coverage?.products).toBeUndefined();
    expect(merged.coverage?.funnel.conversations).toBe(1);
  });
});

describe('against a baseline', () => {
  it('says what coverage was lost or gained, and never calls it a regression', () => {
    const base = reportOf(covered(['Oxford shirt', 'Denim jacket', 'Tote bag'], { address: true }));
    const current = buildReport({ ...run([record()]), coverage: covered(['Oxford shirt']).snapshot(), baseline: base });
    const cmp = current.comparison!;
    expect(cmp.regressed).toBe(false);
    expect(cmp.coverage?.products).toEqual({
      base: { covered: 3, total: 3 },
      current: { covered: 1, total: 3 },
      lost: ['Denim jacket', 'Tote bag'],
      gained: [],
    });
    const text = renderConsoleSummary(current);
    expect(text).toContain('coverage: products 3/3 -> 1/3: Denim jacket, Tote bag no longer asked about');
    expect(text).toContain('coverage: funnel an address 3/3 -> 0/1 conversations');
    expect(current.exitCode).toBe(0);
  });
});
