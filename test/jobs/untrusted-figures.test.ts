/**
 * Verdicts only on figures droidcheck trusts (metrics/thresholds-trust.ts, docs/exit-codes.md):
 * a real `load` against the embedded emulator whose generator is bound says so and by how much
 * its figures may be off; judged on it (`merge --threshold`, through the CLI), a latency
 * threshold whose figure is within that send delay of its limit is `not judged: generator-bound
 * ...` in every format and the job exits 98, while one far from its limit, and its rates and
 * counts, are judged; a breached rate still exits 99; a trusted load with a breached latency
 * threshold exits 99; the untrusted report.json reads back (report.schema.json, `compare`).
 *
 * The generator is made bound deterministically, without burning CPU: its injected clock jumps
 * 200 ms ahead after every 50 ms of real time, as a machine that stalls the generator that long
 * that often. Every arrival whose wait spans a jump is sent up to 200 ms after its intended time.
 * The latency figures are measured on that clock too, and how far they land depends on how busy
 * the machine is: the thresholds are therefore placed from the report's own figures (its p50,
 * and the send delay its generator verdict gives), then judged by `merge`, which judges a
 * report's figures again with the thresholds it is given.
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
import { unwrapped } from '../helpers/console-text.js';
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
  let file: string;
  /** Thresholds within the send delay of the p50 (not judged) and far from it (judged). */
  let near: string;
  let far: string;
  beforeAll(async () => {
    // 120 arrivals 25 ms apart: enough for a p99, and for compare to test the percentiles.
    bound = await load(
      'bound',
      { rate: 40, duration: '3s', warmup: '0s', thresholds: ['outcome.answered.rate > 50%', 'sync.count >= 1'] },
      hurried,
    );
    file = join(bound.reportDir, 'report.json');
    report = await readReportFile(file);
    const p50 = report.latency.sync.p50;
    const offBy = report.load!.generator!.offBy!.ms;
    near = `sync.p50 < ${Math.round(p50 + offBy / 2)}ms`;
    far = `sync.p50 < ${Math.round(p50 + 3 * offBy + 1000)}ms`;
  });

  it('says it was bound and by how much its figures may be off, and judges what the send delay cannot move', () => {
    const g = report.load!.generator!;
    expect(g).toMatchObject({ generatorBound: true, offBy: { stat: 'p99' } });
    expect(g.message).toMatch(/^generator-bound: .*latency figures may be up to [\d.]+ m?s too high/);
    expect(unwrapped(bound.stdout)).toContain(`WARNING generator-bound: send delay p99 `);
    // 180 s is far from any figure of a few seconds, and rates and counts do not depend on when a request was measured.
    const byExpression = new Map(report.thresholds.map((t) => [t.expression, t.status]));
    expect(byExpression.get('sync.max < 180s')).toBe('passed');
    expect(byExpression.get('outcome.answered.rate > 50%')).toBe('passed');
    expect(byExpression.get('sync.count >= 1')).toBe('passed');
    expect(bound.summary.exitCode).toBe(0);
  });

  it('merge --threshold: a threshold within the send delay of its figure is not judged, in every format, exit 98', async () => {
    const out = join(dir, 'judged');
    const res = await cli(['merge', file, '-o', out, '--threshold', near, '--threshold', far]);
    expect(res.code, res.stderr).toBe(98);
    const merged = await readReportFile(join(out, 'report.json'));
    const byExpression = new Map(merged.thresholds.map((t) => [t.expression, t]));
    const g = merged.load!.generator!;
    expect(byExpression.get(near)).toMatchObject({
      status: 'not-judged',
      passed: true,
      notJudged: [
        {
          condition: 'generator-bound',
          reason: expect.stringMatching(/^send delay p99 [\d.]+ m?s > 10 ms, figures up to [\d.]+ m?s too high$/),
          offByMs: g.offBy!.ms,
        },
      ],
    });
    expect(byExpression.get(far)!.status).toBe('passed');
    expect(unwrapped(res.stdout)).toMatch(
      /– sync\.p50 < [\d.,]+ m?s: not judged: generator-bound, send delay p99 [\d.]+ m?s > 10 ms, figures up to [\d.]+ m?s too high \(actual [\d.]+ m?s, 120 samples\)/,
    );
    expect(unwrapped(res.stdout)).toMatch(/1 threshold not judged: generator-bound \(\d+ requests\) · exit 98/);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('1 threshold not judged: generator-bound');
    expect(md).toMatch(/sync\.p50 < [\d.,]+ m?s: not judged: generator-bound/);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toMatch(
      /sync\.p50 &lt; [\d.,]+ m?s: not judged: generator-bound/,
    );
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<skipped message="sync\.p50 &lt; [\d.,]+ m?s: not judged: generator-bound/);
  });

  it('lets a breached rate threshold win: exit 99', () => {
    const merged = mergeReports([report], { thresholds: [near, 'outcome.answered.rate < 50%'] });
    expect(merged.thresholds.find((t) => t.expression === near)!.status).toBe('not-judged');
    expect(merged.exitCode).toBe(EXIT.THRESHOLD_BREACHED);
  });

  it('reads back: report.schema.json, and compare, which does not judge its latency either', async () => {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const merged = mergeReports([report, report], { thresholds: [near] });
    expect(merged.thresholds.find((t) => t.expression === near)!.status).toBe('not-judged');
    expect(merged.exitCode).toBe(98);
    expect(validate(JSON.parse(JSON.stringify(merged)))).toBe(true);
    const cmp = await compareReports(report, report);
    expect(cmp.comparison.regressed).toBe(false);
    expect(cmp.comparison.latencyNotJudged!.current[0]!.condition).toBe('generator-bound');
    // No change at all, and a tolerance (10% of the p50) within the two send delays: the generator could explain any.
    expect(cmp.comparison.latency.find((l) => l.metric === 'sync' && l.stat === 'p50')!.rule).toBe('not-judged');
    expect(unwrapped(cmp.text)).toMatch(
      /latency not judged: the baseline was generator-bound, .*; the current run was generator-bound/,
    );
    expect(cmp.exitCode).toBe(98);
    const compared = await cli(['compare', file, file]);
    expect(compared.stderr).toBe('');
    expect(unwrapped(compared.stdout)).toContain('latency not judged');
    expect(compared.code).toBe(98);
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
