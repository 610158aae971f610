/** buildReport's passRates / parity / accuracy / comparison, their exit codes, schema and merge. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildReport, loadBaseline, renderMarkdownSummary, mergeReports, parseReportDocument, readReportFile, renderConsoleSummary, reportJsonSchema } from '../../src/report/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { record, run } from './fixtures.js';

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
const ans = (intents: string[], city = 'Bangkok') => ({ intents, shoppingCart: { grandTotal: '10.00 THB' }, addressParsing: { city } });
const repeats = (passes: boolean[], mode: 'sync' | 'async' = 'sync') =>
  passes.map((passed, repeat) => record({ seq: repeat, repeat, mode, passed, answer: ans(passed ? ['purchase'] : ['greeting'], passed ? 'Bangkok' : 'Paris') }));

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
    const breached = buildReport(run(repeats([true, false, false, false])), { suites: [suite], thresholds: ['sync.p50 < 1ms'] });
    expect(breached.exitCode).toBe(99);
    const cut = buildReport(run(repeats([false]), { interrupted: true }), { suites: [suite], thresholds: ['sync.p50 < 1ms'] });
    expect(cut.exitCode).toBe(130);
  });

  it('computes parity and accuracy and renders them compactly in the console', () => {
    const records = [
      record({ seq: 0, mode: 'sync', answer: ans(['purchase']) }),
      record({ seq: 1, mode: 'async', ackMs: 9, answerMs: 150, answer: ans(['purchase'], 'Paris') }),
    ];
    const report = buildReport(run(records), { suites: [suite] });
    expect(report.parity).toMatchObject({ compared: 1, differing: 1, byField: { address: 1 } });
    expect(report.accuracy?.intents).toEqual([expect.objectContaining({ intent: 'purchase', support: 2, precision: 1, recall: 1 })]);
    expect(report.accuracy?.fields.map((f) => [f.path, f.hits, f.checks])).toEqual([
      ['addressParsing.city', 1, 2],
      ['shoppingCart.grandTotal', 2, 2],
    ]);
    const text = renderConsoleSummary(report);
    expect(text).toContain('Parity (sync vs async)  compared 1, differing 1');
    expect(text).toContain('addressParsing.city sync "Bangkok" ≠ async "Paris"');
    expect(text).toMatch(/purchase\s+2\s+100%\s+100%\s+100%/);
    expect(text).toContain('address fields: 1/2 hit (50%); missed: addressParsing.city 1/2');
    expect(text).not.toContain('Pass rates'); // each scenario x mode ran once, none flaky
    const md = renderMarkdownSummary(report);
    expect(md).toContain('### Sync/async parity: compared 1, differing 1');
    expect(md).toContain('| purchase | 2 | 100% | 100% | 100% |');
    expect(md).toContain('Field hit rates: cart fields 2/2 (100%), address fields 1/2 (50%).');
  });

  it('shows pass rates in the console when a scenario repeats', () => {
    const text = renderConsoleSummary(buildReport(run(repeats([true, false, true, true])), { suites: [suite] }));
    expect(text).toContain('Pass rates  1 flaky');
    expect(text).toMatch(/Shop › buys shirts \[sync\]\s+3\/4\s+75%\s+≥ 50%\s+ok flaky/);
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
    expect(current.comparison?.regressions).toEqual([{ suite: 'Shop', name: 'buys shirts', mode: 'sync', from: 'pass', to: 'fail' }]);
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
    const b = buildReport(run(repeats([false, false]).map((r) => ({ ...r, repeat: (r.repeat ?? 0) + 2 }))), { suites: [suite] });
    expect(a.exitCode).toBe(0);
    const merged = mergeReports([a, b]);
    expect(merged.passRates?.scenarios[0]).toMatchObject({ runs: 4, passes: 1, requiredPasses: 2, passed: false });
    expect(merged.exitCode).toBe(1);
    expect(merged.accuracy?.intents[0]).toMatchObject({ intent: 'purchase', support: 4, truePositives: 1 });
    expect(() => parseReportDocument(JSON.parse(JSON.stringify(merged)))).not.toThrow();
  });
});

describe('readReportFile / loadBaseline', () => {
  it('reads a valid report and names the file of a bad one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-read-'));
    const good = join(dir, 'report.json');
    await writeFile(good, JSON.stringify(buildReport(run([record()]))));
    expect((await loadBaseline(good)).summary.requests).toBe(1);
    await writeFile(join(dir, 'bad.json'), '{"version": 2}');
    await expect(readReportFile(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: not a droidcheck report \(version 1\): version/);
    await writeFile(join(dir, 'junk.json'), 'nope');
    await expect(readReportFile(join(dir, 'junk.json'))).rejects.toThrow(/junk\.json: not JSON/);
    await expect(readReportFile(join(dir, 'missing.json'))).rejects.toThrow(UsageError);
    await expect(readReportFile(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the report \(ENOENT\)/);
  });
});
