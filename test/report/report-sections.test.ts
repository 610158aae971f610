/** buildReport's passRates / parity / accuracy / comparison, their exit codes, schema and merge. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  buildReport,
  loadBaseline,
  renderHtmlReport,
  renderJUnit,
  renderMarkdownSummary,
  mergeReports,
  parseReportDocument,
  readReportFile,
  renderConsoleSummary,
  reportJsonSchema,
} from '../../src/report/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { record, run } from './fixtures.js';
import { unwrapped } from '../helpers/console-text.js';

const suite = parseSuite(
  `suite: Shop
scenarios:
  - name: buys shirts
    humanMessage: two shirts
    repeat: 4
    passRate: 0.5
    expect:
      intents: { includes: purchase }
      shoppingCart.grandTotal: "10.00 THB"
      addressParsing.city: Bangkok
`,
  'shop.yaml',
);
const ans = (intents: string[], city = 'Bangkok') => ({
  intents,
  shoppingCart: { grandTotal: '10.00 THB' },
  addressParsing: { city },
});
const repeats = (passes: boolean[], mode: 'sync' | 'async' = 'sync') =>
  passes.map((passed, repeat) =>
    record({
      seq: repeat,
      repeat,
      mode,
      passed,
      answer: ans(passed ? ['purchase'] : ['greeting'], passed ? 'Bangkok' : 'Paris'),
    }),
  );

describe('buildReport sections', () => {
  it('lets a flaky scenario that meets its passRate pass (exit 0), and fails it below (exit 1)', () => {
    const ok = buildReport(run(repeats([true, false, true, false])), { suites: [suite] });
    expect(ok.summary.failed).toBe(2);
    expect(ok.passRates).toMatchObject({ passed: true, flaky: 1 });
    expect(ok.exitCode).toBe(0);
    const bad = buildReport(run(repeats([true, false, false, false])), { suites: [suite] });
    expect(bad.passRates?.passed).toBe(false);
    expect(bad.exitCode).toBe(1);
    // Without suites every run must pass, and accuracy is left out.
    const noSuites = buildReport(run(repeats([true, false, true, false])));
    expect(noSuites.exitCode).toBe(1);
    expect(noSuites.accuracy).toBeUndefined();
  });

  it('keeps 99 over 1 and 130 over all', () => {
    const breached = buildReport(run(repeats([true, false, false, false])), {
      suites: [suite],
      thresholds: ['sync.p50 < 1ms'],
    });
    expect(breached.exitCode).toBe(99);
    const cut = buildReport(run(repeats([false]), { interrupted: true }), {
      suites: [suite],
      thresholds: ['sync.p50 < 1ms'],
    });
    expect(cut.exitCode).toBe(130);
  });

  it('computes parity and accuracy and renders them compactly in the console', () => {
    const records = [
      record({ seq: 0, mode: 'sync', answer: ans(['purchase']) }),
      record({ seq: 1, mode: 'async', ackMs: 9, answerMs: 150, answer: ans(['purchase'], 'Paris') }),
    ];
    const report = buildReport(run(records), { suites: [suite] });
    expect(report.parity).toMatchObject({ compared: 1, differing: 1, byField: { address: 1 } });
    expect(report.accuracy?.intents).toEqual([
      expect.objectContaining({ intent: 'purchase', support: 2, precision: 1, recall: 1 }),
    ]);
    expect(report.accuracy?.fields.map((f) => [f.path, f.hits, f.checks])).toEqual([
      ['addressParsing.city', 1, 2],
      ['shoppingCart.grandTotal', 2, 2],
    ]);
    const text = unwrapped(renderConsoleSummary(report, { verbose: true }));
    expect(text).toContain('Parity (sync vs async)  compared 1, differing 1');
    expect(text).toMatch(/Shop › buys shirts\s+addressParsing\.city\s+"Bangkok"\s+"Paris"/);
    expect(text).toMatch(/purchase\s+2\s+2\s+0\s+0\s+100%\s+100%\s+100%/);
    expect(text).toContain('address fields: 1/2 hit (50%); addressParsing.city missed 1 of 2');
    expect(text).not.toContain('Pass rates'); // each scenario x mode ran once, none flaky
    const md = renderMarkdownSummary(report);
    expect(md).toContain(
      '### Parity (sync vs async): compared 1, differing 1 (intents 0, cart 0, address 1, language 0)',
    );
    expect(md).toContain('| purchase | 2 | 2 | 0 | 0 | 100% | 100% | 100% |');
    // The same lines as the console's: one view, every format.
    expect(md).toContain('address fields: 1/2 hit (50%); addressParsing.city missed 1 of 2');
    // The console's default: one accuracy line and what went wrong, the difference in full.
    const brief = unwrapped(renderConsoleSummary(report));
    expect(brief).toMatch(/Shop › buys shirts\s+addressParsing\.city\s+"Bangkok"\s+"Paris"/);
    expect(brief).toContain('Accuracy  2 labelled answers · intents 2/2, 0 wrong · fields: cart 2/2, address 1/2 hit');
    expect(brief).toContain('address fields: addressParsing.city missed 1 of 2');
    expect(brief).not.toMatch(/purchase\s+2\s+2\s+0\s+0/); // no intent went wrong: no table
  });

  it('shows pass rates in the console when a scenario repeats: by default only the flaky or failing rows', () => {
    const report = buildReport(
      run([...repeats([true, false, true, true]), ...repeats([true, true, true, true], 'async')]),
      {
        suites: [suite],
      },
    );
    const text = unwrapped(renderConsoleSummary(report));
    expect(text).toContain('Pass rates  1 flaky');
    expect(text).not.toMatch(/Shop › buys shirts \[async\]\s+4\/4/);
    expect(renderConsoleSummary(report, { verbose: true })).toMatch(/Shop › buys shirts \[async\]\s+4\/4\s+100%/);
    // Every repeat passed: nothing to look at, no section.
    expect(
      renderConsoleSummary(buildReport(run(repeats([true, true, true, true])), { suites: [suite] })),
    ).not.toContain('Pass rates');
    expect(text).toMatch(/scenario\s+passes\s+rate\s+95% CI\s+pass\^k\s+required\s+verdict/);
    expect(text).toMatch(/Shop › buys shirts \[sync\]\s+3\/4\s+75%\s+30–95%\s+pass\^4 ✗\s+≥ 50%\s+ok flaky/);
  });

  it('writes sections the schema accepts, and the JSON Schema describes them', () => {
    const report = buildReport(run(repeats([true, false])), { suites: [suite] });
    const back = parseReportDocument(JSON.parse(JSON.stringify(report)));
    expect(back.passRates).toEqual(report.passRates);
    expect(back.accuracy).toEqual(report.accuracy);
    const props = (reportJsonSchema() as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['passRates', 'parity', 'accuracy', 'comparison']));
  });

  it('compares with a baseline: a regression exits 1, and survives JSON', () => {
    const base = buildReport(run(repeats([true, true, true, true])), { suites: [suite] });
    const current = buildReport(run(repeats([false, false, false, false])), { suites: [suite], baseline: base });
    expect(current.comparison?.regressed).toBe(true);
    expect(current.comparison?.regressions).toEqual([
      { suite: 'Shop', name: 'buys shirts', mode: 'sync', from: 'pass', to: 'fail' },
    ]);
    expect(current.exitCode).toBe(1);
    expect(renderConsoleSummary(current)).toContain('REGRESSED against the baseline');
    expect(parseReportDocument(JSON.parse(JSON.stringify(current))).comparison?.regressed).toBe(true);
    // Flaky within passRate against an all-pass baseline: no flip.
    const flaky = buildReport(run(repeats([true, false, true, true])), { suites: [suite], baseline: base });
    expect(flaky.comparison?.regressions).toEqual([]);
  });
});

describe('mergeReports sections', () => {
  it('sums pass rates over shards and judges the requirement on the sums', () => {
    const a = buildReport(run(repeats([true, false])), { suites: [suite] });
    const b = buildReport(run(repeats([false, false]).map((r) => ({ ...r, repeat: (r.repeat ?? 0) + 2 }))), {
      suites: [suite],
    });
    expect(a.exitCode).toBe(0);
    const merged = mergeReports([a, b]);
    expect(merged.passRates?.scenarios[0]).toMatchObject({ runs: 4, passes: 1, requiredPasses: 2, passed: false });
    expect(merged.exitCode).toBe(1);
    // purchase expected 4 times, found once; greeting stood in for it 3 times (false positives).
    expect(merged.accuracy?.intents).toEqual([
      expect.objectContaining({ intent: 'greeting', support: 0, falsePositives: 3 }),
      expect.objectContaining({ intent: 'purchase', support: 4, truePositives: 1, falseNegatives: 3 }),
    ]);
    expect(() => parseReportDocument(JSON.parse(JSON.stringify(merged)))).not.toThrow();
  });
});

describe('readReportFile / loadBaseline', () => {
  it('reads a valid report and names the file of a bad one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-read-'));
    const good = join(dir, 'report.json');
    await writeFile(good, JSON.stringify(buildReport(run([record()]))));
    expect((await loadBaseline(good)).summary.requests).toBe(1);
    await writeFile(join(dir, 'bad.json'), '{"version": 1}');
    await expect(readReportFile(join(dir, 'bad.json'))).rejects.toThrow(
      /bad\.json: not a droidcheck report \(format 1\): tool/,
    );
    await writeFile(join(dir, 'junk.json'), 'nope');
    await expect(readReportFile(join(dir, 'junk.json'))).rejects.toThrow(/junk\.json: not JSON/);
    await expect(readReportFile(join(dir, 'missing.json'))).rejects.toThrow(UsageError);
    await expect(readReportFile(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json: cannot read the report \(ENOENT\)/,
    );
  });
});

describe('flakiness in every report', () => {
  const report = buildReport(run(repeats([true, false, true, true])), { suites: [suite] });

  it('writes the interval, pass^k and status in JSON, and the schema keeps them', () => {
    expect(report.passRates?.scenarios[0]).toMatchObject({
      status: 'flaky',
      allPassed: false,
      interval: { low: expect.closeTo(0.3006, 3), high: expect.closeTo(0.9544, 3) },
    });
    expect(parseReportDocument(JSON.parse(JSON.stringify(report))).passRates).toEqual(report.passRates);
  });

  it('puts the pass rate in JUnit as properties of each repeat and in the failure message', () => {
    const xml = renderJUnit(report);
    expect(xml).toContain('<property name="droidcheck.status" value="flaky"/>');
    expect(xml).toContain('<property name="droidcheck.passRate.ci95" value="0.3006..0.9544"/>');
    expect(xml).toContain('<property name="droidcheck.passK" value="false"/>');
    expect(xml).toMatch(
      /<failure message="[^"]*\(flaky: passed 3 of 4 runs \(75%, 95% CI 30–95%\), pass\^4 ✗, required ≥ 50%\)"/,
    );
    // A scenario that ran once gets no pass-rate noise.
    expect(renderJUnit(buildReport(run([record()]), { suites: [suite] }))).not.toContain('droidcheck.status');
  });

  it('shows it in HTML and Markdown', () => {
    const html = renderHtmlReport(report);
    expect(html).toContain('<th>95% CI</th><th class="l">pass^k</th>');
    expect(html).toMatch(
      /<td>3\/4<\/td><td>75%<\/td><td>30–95%<\/td><td class="l">pass\^4 ✗<\/td>.*<span class="warn"> flaky<\/span>/,
    );
    expect(renderMarkdownSummary(report)).toContain(
      '| Shop › buys shirts [sync] | 3/4 | 75% | 30–95% | pass^4 ✗ | ≥ 50% | ok flaky |',
    );
  });
});

describe('reports of another format or a pre-release droidcheck', () => {
  // Reports are read back by compare, merge and --baseline; the format's major version is
  // checked first (one sentence, exit 2), then the schema, strictly: nothing is filled in.
  it('refuse another major version in one sentence, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-version-'));
    const file = join(dir, 'report.json');
    await writeFile(file, JSON.stringify({ ...buildReport(run([record()])), version: 2 }));
    const err = await readReportFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).code).toBe('DROIDCHECK_ERR_USAGE');
    expect((err as Error).message).toBe(
      `${file}: written in report format 2, and this droidcheck reads format 1 only; compare and merge reports written by droidcheck versions of one format`,
    );
    await expect(loadBaseline(file)).rejects.toThrow(/^--baseline .*report format 2/);
  });

  it('refuse a report missing a field, and one with a field this droidcheck does not know, naming the path', () => {
    const report = JSON.parse(JSON.stringify(buildReport(run([record()]), { thresholds: ['sync.p99 < 1s'] })));
    const { retries: _drop, ...summary } = report.summary;
    expect(() => parseReportDocument({ ...report, summary })).toThrow(/summary.*retries|retries/);
    const { status: _s, ...threshold } = report.thresholds[0];
    expect(() => parseReportDocument({ ...report, thresholds: [threshold] })).toThrow(/status/);
    // Strict: a field nobody described is refused, never dropped silently on the way through merge.
    expect(() => parseReportDocument({ ...report, load: undefined, extra: 1 })).toThrow(/extra/);
    expect(() => parseReportDocument({ ...report, summary: { ...report.summary, novel: 1 } })).toThrow(/novel/);
  });
});
