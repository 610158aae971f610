import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import { buildReport, renderJUnit, writeJUnitReport } from '../../src/report/index.js';
import { settingsProperties, xmlSafe } from '../../src/report/junit.js';
import { SECTIONS } from '../../src/report/sections/index.js';
import { failingRecord, record, run } from './fixtures.js';

const report = buildReport(
  run(
    [
      record(),
      failingRecord(),
      record({
        seq: 2,
        suite: 'Greet',
        scenario: 'says <hi> & "bye"',
        outcome: 'timeout',
        passed: false,
        syncMs: 10_000,
        error: { code: 'DROIDCHECK_ERR_TIMEOUT', message: 'no answer in 10 s' },
      }),
      record({ seq: 3, suite: 'Greet', scenario: 'cut', outcome: 'interrupted', passed: false, syncMs: undefined }),
    ],
    {
      settings: {
        mode: 'both',
        concurrency: 4,
        token: 'SHOULD-NOT-APPEAR',
        target: { baseUrl: 'http://127.0.0.1:1', webhookSecret: 'nope' },
      },
    },
  ),
  { thresholds: ['receiver.orphans > 5'] },
);

describe('renderJUnit', () => {
  const xml = renderJUnit(report);
  // xmlbuilder2's object form keeps entities in attribute values: undo the five.
  const unescape = (_key: string, value: unknown): unknown =>
    typeof value === 'string'
      ? value
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&amp;/g, '&')
      : value;
  const doc = JSON.parse(JSON.stringify(create(xml).end({ format: 'object' })), unescape) as any;
  const suites = doc.testsuites.testsuite as any[];

  it('is well-formed, with a testsuite per suite plus the thresholds suite', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(suites.map((s) => s['@name'])).toEqual(['Shop', 'Greet', 'droidcheck.thresholds']);
    // Skipped: the interrupted request, and ack.p99 judged on 1 sample (too few samples).
    expect(doc.testsuites).toMatchObject({ '@tests': '8', '@failures': '2', '@errors': '1', '@skipped': '2' });
    const thresholds = suites[2].testcase as any[];
    expect(thresholds.find((t) => t['@name'] === 'ack.p99 < 100ms').skipped['@message']).toBe(
      'ack.p99 < 100 ms: too few samples (1 < 100)',
    );
    expect(suites[0]).toMatchObject({ '@tests': '2', '@failures': '1', '@errors': '0' });
  });

  it('has a testcase per scenario x mode with classname, name [mode] and time in seconds', () => {
    const [ok, failed] = suites[0].testcase as any[];
    expect(ok).toMatchObject({
      '@classname': 'Shop',
      '@name': 'buys shirts [sync]',
      '@time': '0.120',
      '@file': 'scenarios/shop.yaml',
    });
    expect(failed['@name']).toBe('expects refund [async]');
    expect(failed['@time']).toBe('0.340');
    const text = failed.failure['#'] as string;
    expect(failed.failure['@type']).toBe('includes');
    expect(text).toContain('expected: "refund"');
    expect(text).toContain('actual:   ["greeting"]');
    expect(text).toContain('at scenarios/shop.yaml:14:7');
  });

  it('gives a testcase one failure holding every failed expectation, and times that add up', () => {
    const three = failingRecord({
      seq: 9,
      scenario: 'three wrongs',
      answerMs: 200.4,
      failures: ['intents', 'addressParsing.city', 'answer'].map((path, i) => ({
        path,
        matcher: 'equals',
        expected: `e${i}`,
        actual: `a${i}`,
        message: `${path} is wrong`,
        location: { file: 'scenarios/shop.yaml', line: 20 + i, col: 7 },
      })),
      contractViolations: [{ endpoint: 'webhook', path: 'shoppingCart', message: 'expected object' }],
    });
    const x = create(
      renderJUnit(buildReport(run([record({ syncMs: 120.4 }), failingRecord({ answerMs: 340.6 }), three])), {
        thresholds: false,
      }),
    ).end({ format: 'object' }) as any;
    const suite = x.testsuites.testsuite;
    const cases = suite.testcase as any[];
    const failing = cases.find((c) => c['@name'] === 'three wrongs [async]');
    // One <failure>, not three: CI counts one failed test per testcase.
    expect(Array.isArray(failing.failure)).toBe(false);
    expect(failing.failure['@message']).toBe('intents: intents is wrong (+3 more)');
    for (const line of [
      'intents equals: intents is wrong',
      'addressParsing.city equals',
      'answer equals',
      'at scenarios/shop.yaml:22:7',
      'contract webhook shoppingCart: expected object',
    ])
      expect(failing.failure['#']).toContain(line);
    // Suite time = sum of its testcases' times; the total = sum of the suites'.
    const sum = (xs: string[]) => xs.reduce((n, t) => n + Math.round(Number(t) * 1000), 0);
    expect(sum(cases.map((c) => c['@time']))).toBe(Math.round(Number(suite['@time']) * 1000));
    expect(x.testsuites['@time']).toBe(suite['@time']);
    expect(suite['@time']).toBe('0.661');
  });

  it('turns a missing answer into an error and an interrupted request into skipped, escaping names', () => {
    const [timeout, cut] = suites[1].testcase as any[];
    expect(timeout['@name']).toBe('says <hi> & "bye" [sync]');
    expect(timeout.error).toMatchObject({
      '@type': 'DROIDCHECK_ERR_TIMEOUT',
      '@message': 'timeout: no answer in 10 s',
    });
    expect(cut.skipped).toBeDefined();
  });

  it('fails a breached threshold and keeps secrets out of properties', () => {
    const t = suites[2].testcase as any[];
    const breached = t.find((c: any) => c['@name'] === 'receiver.orphans > 5');
    expect(breached.failure['@type']).toBe('threshold');
    expect(breached.failure['@message']).toBe('receiver.orphans > 5 (actual 0)');
    const answerMax = t.find((c: any) => c['@name'] === 'answer.max < 180s');
    expect(answerMax.failure).toBeUndefined();
    expect(answerMax.skipped).toBeUndefined();
    const props = (suites[0].properties.property as any[]).map((p) => [p['@name'], p['@value']]);
    expect(props).toEqual(
      expect.arrayContaining([
        ['mode', 'both'],
        ['concurrency', '4'],
        ['target.baseUrl', 'http://127.0.0.1:1'],
      ]),
    );
    expect(xml).not.toContain('SHOULD-NOT-APPEAR');
    expect(xml).not.toContain('webhookSecret');
    expect(settingsProperties({ a: { apiKey: 'k', b: [1] } })).toEqual([['a.b', '[1]']]);
  });

  it("renders the suites the sections' own hooks give, the verdict suites last", () => {
    const bySection = SECTIONS.flatMap((s) => (s.junit?.(report, {}) ?? []).map((suite) => [s.name, suite] as const));
    expect(bySection.map(([section, suite]) => [section, suite.name, suite.cases.length])).toEqual([
      ['thresholds', 'droidcheck.thresholds', report.thresholds.length],
      ['scenarios', 'Shop', 2],
      ['scenarios', 'Greet', 2],
    ]);
    expect(suites.map((s) => s['@name'])).toEqual(['Shop', 'Greet', 'droidcheck.thresholds']);
  });

  it('replaces characters XML 1.0 cannot hold', () => {
    expect(xmlSafe('a\u0001b\uD800c')).toBe('a\uFFFDb\uFFFDc');
    expect(xmlSafe('😀 ok\n')).toBe('😀 ok\n');
    const odd = buildReport(
      run([failingRecord({ failures: [{ ...failingRecord().failures[0]!, actual: 'bell\u0007' }] })]),
    );
    expect(() => create(renderJUnit(odd))).not.toThrow();
  });

  it('writes junit.xml', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-junit-'));
    try {
      const path = await writeJUnitReport(join(dir, 'r'), report, { thresholds: false });
      expect(path.endsWith('junit.xml')).toBe(true);
      expect(await readFile(path, 'utf8')).not.toContain('droidcheck.thresholds');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
