import { describe, expect, it } from 'vitest';
import { buildReport, escapeHtml, renderHtmlReport } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

describe('renderHtmlReport', () => {
  const report = buildReport(run([record({ scenario: '<script>alert(1)</script>' }), failingRecord()]), { thresholds: ['receiver.late == 0'] });
  const html = renderHtmlReport(report);

  it('is one self-contained document: no script, no external resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|\bsrc=|\bhref=|https?:\/\//i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shows the verdict, outcomes, latency with a curve, thresholds and failures', () => {
    expect(html).toContain('droidcheck: 1 passed, 1 failed');
    expect(html).toContain('<th>transport-error</th>');
    expect(html).toMatch(/<td>ack<\/td><td>1<\/td>/);
    expect(html).toContain('<polyline');
    expect(html).toContain('✓ receiver.late == 0');
    expect(html).toContain('expected: &quot;refund&quot;');
    expect(html).toContain('at scenarios/shop.yaml:14:7');
  });

  it('escapes the five characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(renderHtmlReport(buildReport(run([])))).toContain('No latencies recorded');
  });
});
