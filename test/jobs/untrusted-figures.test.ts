/**
 * Verdicts only on figures droidcheck trusts (metrics/thresholds-trust.ts, docs/exit-codes.md):
 * a real `load` against the embedded emulator whose generator is bound reports a latency
 * threshold whose figure is within the send delay of its limit `not judged: generator-bound ...`
 * in every format and exits 98, while one far from its limit, and its rates and counts, are still
 * judged; a trusted load with a breached latency threshold still exits 99; the untrusted
 * report.json reads back (report.schema.json, `compare`, `merge`, CLI included).
 *
 * The generator is made bound deterministically, without burning CPU: its injected clock jumps
 * 200 ms ahead after every 50 ms of real time, as a machine that stalls the generator that long
 * that often. Every arrival whose wait spans a jump is sent up to 200 ms after its intended time
 * (the send delay's p99 is about 200 ms). The latency figures are measured on that clock too,
 * from the intended start: the quickest answer (`sync.min`, an arrival sent on time and answered
 * in the emulator's few milliseconds) is within that send delay of a 1 ms limit and cannot be
 * judged against it, while a limit of 10 s on the median is far enough to be judged.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/clock.js';
import { resolveConfig } from '../../src/config/index.js';
import { EXIT } from '../../src/errors.js';
import { compareReports } from '../../src/jobs/reports/compare.js';
import { runLoad } from '../../src/jobs/index.js';
import { mergeReports, readReportFile, type ReportDocument } from '../../src/report/index.js';
import { collectReportDir, REPO } from '../helpers/cli.js';
import { cliInProcess as cli, sink } from '../helpers/in-process-cli.js';

const SUITE = `
suite: Trust
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect:
      answer: { present: true }
`;

/** Real time plus 200 ms after every 50 ms of it: a generator stalled 200 ms every 50 ms. */
const hurried: Clock = {
  ...systemClock,
  now: () => {
    const t = performance.now();
    return t + Math.floor(t / 50) * 200;
  },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-trust-'));
  await writeFile(join(dir, 'trust.yaml'), SUITE);
});
afterAll(async () => {
  for (const sub of await readdir(dir)) collectReportDir(join(dir, sub));
  await rm(dir, { recursive: true, force: true });
});

/** A sync-only load (the receiver keeps its own clock: async answers would mix the two clocks). */
async function load(name: string, flags: Record<string, unknown>, clock?: Clock) {
  const reportDir = join(dir, name);
  const config = resolveConfig(
    'load',
    {
      paths: [join(dir, 'trust.yaml')],
      mode: 'sync',
      reportDir,
      progress: 0,
      timeout: '30s',
      emulatorThread: 'inline',
      ...flags,
    },
    {},
  );
  const out = sink();
  const err = sink();
  const summary = await runLoad(config, { stdout: out, stderr: err, env: {}, ...(clock && { clock }) });
  return { summary, reportDir, stdout: out.text, stderr: err.text };
}

const schema = JSON.parse(readFileSync(join(REPO, 'report.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

describe('a generator-bound load', () => {
  let bound: Awaited<ReturnType<typeof load>>;
  let report: ReportDocument;
  beforeAll(async () => {
    // 120 arrivals 25 ms apart: enough for a p99, and for compare to test the percentiles.
    bound = await load(
      'bound',
      {
        rate: 40,
        duration: '3s',
        warmup: '0s',
        thresholds: ['sync.min < 1ms', 'sync.p50 < 10s', 'outcome.answered.rate > 50%', 'sync.count >= 1'],
      },
      hurried,
    );
    report = await readReportFile(join(bound.reportDir, 'report.json'));
  });

  it('judges no latency threshold the send delay could move across its limit, says why in every format, and exits 98', async () => {
    const g = report.load!.generator!;
    expect(g.generatorBound).toBe(true);
    expect(g.message).toMatch(/latency figures may be up to [\d.]+ ms too high/);
    expect(bound.summary.exitCode).toBe(EXIT.FIGURES_NOT_TRUSTED);
    expect(report.exitCode).toBe(98);
    const byExpression = new Map(report.thresholds.map((t) => [t.expression, t]));
    const near = byExpression.get('sync.min < 1ms')!;
    expect(near.status).toBe('not-judged');
    expect(near.passed).toBe(true);
    expect(near.notJudged).toEqual([
      {
        condition: 'generator-bound',
        reason: expect.stringMatching(/^send delay p99 [\d.]+ ms > 10 ms, figures up to [\d.]+ ms too high$/),
        offByMs: g.offBy!.ms,
      },
    ]);
    expect(near.actual! - 1).toBeLessThanOrEqual(g.offBy!.ms);
    // Far from their limits, whatever the send delay did: judged.
    expect(byExpression.get('sync.p50 < 10s')!.status).toBe('passed');
    expect(byExpression.get('sync.max < 180s')!.status).toBe('passed');
    // Rates and counts do not depend on when a request was measured: judged.
    expect(byExpression.get('outcome.answered.rate > 50%')!.status).toBe('passed');
    expect(byExpression.get('sync.count >= 1')!.status).toBe('passed');
    expect(bound.stdout).toMatch(
      /– sync\.min < 1 ms: not judged: generator-bound, send delay p99 [\d.]+ ms > 10 ms, figures up to [\d.]+ ms too high \(actual [\d.]+ m?s, 120 samples\)/,
    );
    expect(bound.stdout).toMatch(/1 threshold not judged: generator-bound \(\d+ requests\) · exit 98/);
    const md = await readFile(join(bound.reportDir, 'summary.md'), 'utf8');
    expect(md).toContain('1 threshold not judged: generator-bound');
    expect(md).toMatch(/sync\.min < 1 ms: not judged: generator-bound/);
    expect(await readFile(join(bound.reportDir, 'report.html'), 'utf8')).toMatch(
      /sync\.min &lt; 1 ms: not judged: generator-bound/,
    );
    const junit = await readFile(join(bound.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /name="sync\.min &lt; 1ms"[^>]*>\s*<skipped message="sync\.min &lt; 1 ms: not judged: generator-bound/,
    );
    expect(junit).toMatch(/<testsuite name="droidcheck\.thresholds" tests="6" failures="0" errors="0" skipped="1"/);
  });

  it('lets a breached rate threshold win: exit 99', async () => {
    const r = await load(
      'bound-breach',
      { rate: 20, duration: '1s', warmup: '0s', thresholds: ['sync.min < 1ms', 'outcome.answered.rate < 50%'] },
      hurried,
    );
    expect(r.summary.report.load!.generator!.generatorBound).toBe(true);
    expect(r.summary.report.thresholds.find((t) => t.expression === 'sync.min < 1ms')!.status).toBe('not-judged');
    expect(r.summary.exitCode).toBe(EXIT.THRESHOLD_BREACHED);
  });

  it('reads back: report.schema.json, compare and merge, which do not judge its latency either', async () => {
    const json: unknown = JSON.parse(await readFile(join(bound.reportDir, 'report.json'), 'utf8'));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const merged = mergeReports([report, report]);
    expect(merged.thresholds.find((t) => t.expression === 'sync.min < 1ms')!.status).toBe('not-judged');
    expect(merged.exitCode).toBe(98);
    expect(validate(JSON.parse(JSON.stringify(merged)))).toBe(true);
    const cmp = await compareReports(report, report);
    expect(cmp.comparison.regressed).toBe(false);
    expect(cmp.comparison.latencyNotJudged!.current[0]!.condition).toBe('generator-bound');
    expect(cmp.comparison.latency.find((l) => l.metric === 'sync' && l.stat === 'p50')!.rule).toBe('not-judged');
    expect(cmp.text).toMatch(
      /latency not judged: the baseline was generator-bound, .*; the current run was generator-bound/,
    );
    expect(cmp.exitCode).toBe(98);
  });

  it('the CLI: compare and merge of it exit 98', async () => {
    const file = join(bound.reportDir, 'report.json');
    const compared = await cli(['compare', file, file]);
    expect(compared.stderr).toBe('');
    expect(compared.stdout).toContain('latency not judged');
    expect(compared.code).toBe(98);
    const merged = await cli(['merge', file, file, '-o', join(dir, 'merged')]);
    expect(merged.stdout).toMatch(/not judged: generator-bound/);
    expect(merged.code).toBe(98);
  });
});

describe('a trusted load', () => {
  it('still exits 99 on a breached latency threshold', async () => {
    // The closed model has no arrival schedule to fall behind: its figures are trusted.
    const r = await load('trusted', { concurrency: 2, duration: '500ms', thresholds: ['sync.max < 0.001ms'] });
    expect(r.summary.report.load!.generator).toBeUndefined();
    const t = r.summary.report.thresholds.find((x) => x.expression === 'sync.max < 0.001ms')!;
    expect(t.status).toBe('breached');
    expect(r.stdout).toMatch(/✗ sync\.max < 0\.001 ms \(actual/);
    expect(r.summary.exitCode).toBe(EXIT.THRESHOLD_BREACHED);
  });
});
