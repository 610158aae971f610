import { describe, expect, it } from 'vitest';
import { chartData, limitScale, scriptJson } from '../../src/report/html-charts.js';
import { groupFailures, messageShape } from '../../src/report/failure-groups.js';
import { buildReport, escapeHtml, renderHtmlReport } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

describe('renderHtmlReport', () => {
  const report = buildReport(run([record({ scenario: '<script>alert(1)</script>' }), failingRecord()]), {
    thresholds: ['receiver.late == 0'],
  });
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
    expect(html).toContain(
      '<section class="section" id="outcomes"><h2>Outcomes</h2>\n<p>answered 2  (2 of 2 planned requests sent)</p>',
    );
    expect(html).toMatch(/<td class="l">ack<\/td><td>1<\/td>/);
    // One sample supports no chart: a line with the figures it does support instead.
    expect(html).not.toContain('id="chart-ack-pct"');
    expect(html).toContain('ack: 1 sample: too few for a chart (max 12 ms)');
    expect(html).toContain('<span class="pass">✓</span> receiver.late == 0');
    expect(html).toMatch(
      /<code>intents<\/code> includes<\/td><td><pre>&quot;refund&quot;<\/pre><\/td><td><pre>\[&quot;greeting&quot;\]<\/pre>/,
    );
    expect(html).toContain('scenarios/shop.yaml:14:7');
    expect(html).toMatch(/<td class="l">concurrency<\/td><td class="l">4<\/td>/);
    expect(html).toContain('data-status="failed" data-mode="async"');
  });

  it('leaves a setting that is not set out of the settings table, never `undefined`', () => {
    const judged = buildReport(
      run([record()], { settings: { mode: 'both', judge: { model: 'gpt-test', embeddingModel: undefined } } }),
    );
    const page = renderHtmlReport(judged);
    expect(page).toMatch(/<td class="l">judge\.model<\/td><td class="l">gpt-test<\/td>/);
    expect(page).not.toContain('judge.embeddingModel');
    expect(page).not.toMatch(/<td class="l">undefined<\/td>/);
  });

  it('escapes the five characters and JSON inside a script', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(scriptJson({ a: '</script><b>' })).toBe('{"a":"\\u003c/script>\\u003cb>"}');
    // Requests that ended without a latency (refused before any answer): the table says so.
    const refused = record({ outcome: 'transport-error', passed: false, syncMs: undefined });
    expect(renderHtmlReport(buildReport(run([refused])))).toContain('No latencies recorded');
    // No request at all: no latency section (nothing was measured).
    expect(renderHtmlReport(buildReport(run([])))).not.toContain('id="latency"');
  });

  it('derives percentile curves and histograms (shares add up to 100%) from the HDR histograms', () => {
    const many = buildReport(run(Array.from({ length: 200 }, (_, i) => record({ seq: i, syncMs: 50 + i }))));
    const [sync] = chartData(many);
    expect(sync?.metric).toBe('sync');
    expect(sync?.limitMs).toBe(180_000);
    expect(sync?.percentiles.ms[0]).toBeCloseTo(50, 0);
    // 200 samples support p99.5, not p99.75 or p99.9: the curve stops there.
    expect(sync?.percentiles.p.at(-1)).toBe(99.5);
    expect(sync?.percentiles.x.at(-1)).toBeCloseTo(200, 0);
    expect(sync?.percentiles.ms.at(-1)).toBeCloseTo(248, 0);
    const total = sync!.histogram!.pct.reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(100, 0);
    // A uniform spread: no bin holds much more than its share.
    expect(Math.max(...sync!.histogram!.pct)).toBeLessThan(6);
  });

  it('draws a chart only where the sample supports it, and says so where it does not', () => {
    const sized = (n: number) =>
      buildReport(run(Array.from({ length: n }, (_, i) => record({ seq: i, syncMs: 50 + i }))));
    expect(chartData(sized(9))).toEqual([]);
    const twenty = sized(20);
    expect(chartData(twenty)[0]).toMatchObject({ metric: 'sync', count: 20 });
    expect(chartData(twenty)[0]!.histogram).toBeUndefined();
    // p90 needs 10, p95 20: the curve of 20 samples ends at p95.
    expect(chartData(twenty)[0]!.percentiles.p.at(-1)).toBe(95);
    const html = renderHtmlReport(twenty);
    expect(html).toContain('id="chart-sync-pct"');
    expect(html).not.toContain('id="chart-sync-hist"');
    expect(html).toContain('sync: 20 samples: too few for a histogram (p50 59 ms, p90 67 ms, max 69.1 ms)');
    expect(renderHtmlReport(sized(5))).toContain('sync: 5 samples: too few for a chart (p50 52 ms, max 54 ms)');
    expect(chartData(sized(50))[0]!.histogram).toBeDefined();
  });
});

describe('report.html failures', () => {
  const refused = (seq: number, scenario: string) =>
    record({
      seq,
      scenario,
      mode: seq % 2 === 0 ? 'sync' : 'async',
      passed: false,
      outcome: 'transport-error',
      syncMs: undefined,
      requestId: `tpa-${seq}x${seq}`,
      error: {
        code: 'DROIDCHECK_ERR_TRANSPORT',
        message: `connect ECONNREFUSED 127.0.0.1:${9000 + (seq % 3)}`,
        cause: 'ECONNREFUSED',
      },
    });

  it('groups identical failures across scenarios and repeats into one block with a count', () => {
    const records = Array.from({ length: 35 }, (_, i) => refused(i, `scenario ${i % 7}`));
    const groups = groupFailures(buildReport(run(records)));
    expect(groups).toHaveLength(1);
    expect(groups[0]!.entries).toHaveLength(35);
    const html = renderHtmlReport(buildReport(run(records)));
    expect(html.match(/class="failure"/g)).toHaveLength(1);
    expect(html).toContain('<span class="count">×35</span>');
    expect(html).toContain('and 6 other scenarios');
    expect(html).toContain('35 entries failed this way');
    expect(html).toContain('Failures (35 in 1 group of identical failures)');
  });

  it('keeps failures apart when the path, the expected value or the message differs', () => {
    const a = failingRecord({ seq: 1 });
    const b = failingRecord({
      seq: 2,
      failures: [{ ...a.failures[0]!, expected: 'purchase', message: 'intents does not include "purchase"' }],
    });
    const c = failingRecord({ seq: 3, requestId: 'tpa-other' });
    expect(groupFailures(buildReport(run([a, b, c]))).map((g) => g.entries.length)).toEqual([2, 1]);
    expect(messageShape('connect ECONNREFUSED 127.0.0.1:9001 tpa-abc_1')).toBe('connect ECONNREFUSED #.#.#.#:# tpa-…');
  });

  it("shows the bot's answer beside the failed expectations, the failed step, the judge's reason and judge errors", () => {
    const answered = failingRecord({
      answer: { intents: ['greeting'], answer: 'Hello! <b>How</b> can I help?' },
      failures: [
        failingRecord().failures[0]!,
        {
          path: 'answer',
          matcher: 'judge',
          expected: 'apologises for the delay',
          actual: 'Hello!',
          message: 'answer: expected a judge pass',
          score: 0.2,
          reason: 'It does not apologise.',
          location: { file: 'scenarios/shop.yaml', line: 16, col: 7 },
        },
      ],
      steps: [
        { index: 0, kind: 'customer', endpoint: 'customer', outcome: 'answered', passed: true, failures: [] },
        {
          index: 1,
          kind: 'conversations',
          endpoint: 'conversations',
          outcome: 'answered',
          passed: false,
          failures: [],
        },
      ],
    });
    const judgeError = record({
      seq: 5,
      scenario: 'graded',
      passed: false,
      judgeErrors: [
        {
          path: 'answer',
          matcher: 'similar',
          code: 'DROIDCHECK_ERR_JUDGE',
          message: 'embedding endpoint unreachable',
          location: { file: 'scenarios/g.yaml', line: 4, col: 9 },
        },
      ],
    });
    const html = renderHtmlReport(buildReport(run([answered, judgeError])));
    expect(html).toMatch(
      /<td class="l" rowspan="2"><pre class="answer">Hello! &lt;b&gt;How&lt;\/b&gt; can I help\?<\/pre><\/td>/,
    );
    expect(html).toContain('Failed at <b>step 2</b>: call conversations (endpoint <code>conversations</code>)');
    expect(html).toContain('<th>judge&#39;s score and reason</th>');
    expect(html).toContain('score 0.20<br><span class="reason">It does not apologise.</span>');
    expect(html).toContain('Judge errors: no verdict');
    expect(html).toContain('DROIDCHECK_ERR_JUDGE: embedding endpoint unreachable');
    expect(html).toContain('scenarios/g.yaml:4:9');
  });

  it('leaves requests never sent out of the failures', () => {
    const html = renderHtmlReport(
      buildReport(run([record({ seq: 0, outcome: 'not-sent', passed: false, syncMs: undefined })])),
    );
    expect(html).toContain('1 request was never sent (interrupted); it is not a failure.');
    expect(html).not.toContain('class="failure"');
  });
});

describe('report.html of a load', () => {
  it('puts the failing scenarios first, with their examples, though a load keeps no entries', () => {
    const records = [
      record({ seq: 0 }),
      failingRecord({ seq: 1, requestId: 'tpa-9' }),
      failingRecord({
        seq: 2,
        outcome: 'timeout',
        error: { code: 'DROIDCHECK_ERR_TIMEOUT', message: 'no webhook in 10 s' },
        failures: [],
      }),
    ];
    // A load streams its records away: it hands the report none, only its tally.
    const html = renderHtmlReport(buildReport({ ...run(records), kind: 'load', records: undefined }));
    const failures = html.indexOf('<h2 id="failures">Failures (2 requests in 1 scenario)</h2>');
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(html.indexOf('id="outcomes"'));
    expect(html).toContain(
      '#1 answered tpa-9; intents: intents does not include &quot;refund&quot; | #2 timeout tpa-123: DROIDCHECK_ERR_TIMEOUT: no webhook in 10 s',
    );
  });
});

describe('report.html chart scales', () => {
  it('draws a limit on the data scale as a line, and one far off it as a label only', () => {
    const report = buildReport(
      run(
        Array.from({ length: 50 }, (_, i) =>
          record({
            seq: i,
            syncMs: 80 + i,
            mode: i % 2 ? 'async' : 'sync',
            ackMs: i % 2 ? 20 + (i % 5) : undefined,
            answerMs: i % 2 ? 100 : undefined,
          }),
        ),
      ),
    );
    const byMetric = Object.fromEntries(chartData(report).map((c) => [c.metric, c]));
    expect(byMetric.ack).toMatchObject({ limitMs: 100, limitOnScale: true, limitLabel: 'limit 100 ms' });
    expect(byMetric.sync?.limitOnScale).toBe(false);
    expect(byMetric.sync?.limitLabel).toMatch(/^limit 180 s \([\d,]+× the max: off scale\)$/);
    expect(limitScale(180_000, 0).label).toBe('limit 180 s (off scale)');
  });
});
