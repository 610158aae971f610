import { describe, expect, it } from 'vitest';
import { chartData, scriptJson } from '../../src/report/html-charts.js';
import { buildReport, escapeHtml, renderHtmlReport } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

describe('renderHtmlReport', () => {
  const report = buildReport(run([record({ scenario: '<script>alert(1)</script>' }), failingRecord()]), { thresholds: ['receiver.late == 0'] });
  const html = renderHtmlReport(report);

  it('is one self-contained document: uPlot inlined, no external resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script[^>]*\bsrc=|<link|<img|@import|url\(/i);
    expect(html).toContain('uPlot');
    expect(html.length).toBeGreaterThan(40_000); // the library is in the file
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('shows the verdict, outcomes, latency, thresholds, failures with expected vs actual, settings', () => {
    expect(html).toContain('droidcheck run: 1 passed, 1 failed');
    expect(html).toMatch(/<td><span class="l">transport-error<\/span><\/td><td>0<\/td>/);
    expect(html).toMatch(/<td>ack<\/td><td>1<\/td>/);
    expect(html).toContain('id="chart-ack-pct"');
    expect(html).toContain('✓ receiver.late == 0');
    expect(html).toMatch(/<code>intents<\/code> includes<\/td><td><pre>&quot;refund&quot;<\/pre><\/td><td><pre>\[&quot;greeting&quot;\]<\/pre>/);
    expect(html).toContain('scenarios/shop.yaml:14:7');
    expect(html).toMatch(/<span class="l">concurrency<\/span><\/td><td><span class="l">4<\/span>/);
    expect(html).toContain('data-status="failed" data-mode="async"');
  });

  it('escapes the five characters and JSON inside a script', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(scriptJson({ a: '</script><b>' })).toBe('{"a":"\\u003c/script>\\u003cb>"}');
    expect(renderHtmlReport(buildReport(run([])))).toContain('No latencies recorded');
  });

  it('derives percentile curves and histograms (shares add up to 100%) from the HDR histograms', () => {
    const many = buildReport(run(Array.from({ length: 200 }, (_, i) => record({ seq: i, syncMs: 50 + i }))));
    const [sync] = chartData(many);
    expect(sync?.metric).toBe('sync');
    expect(sync?.limitMs).toBe(180_000);
    expect(sync?.percentiles.ms[0]).toBeCloseTo(50, 0);
    expect(sync?.percentiles.ms.at(-1)).toBeCloseTo(249, 0);
    expect(sync?.percentiles.x.at(-1)).toBeCloseTo(100_000, -1);
    const total = sync!.histogram.pct.reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(100, 0);
    // A uniform spread: no bin holds much more than its share.
    expect(Math.max(...sync!.histogram.pct)).toBeLessThan(6);
  });
});
