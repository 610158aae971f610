/**
 * `load` and `capacity` through the one job pipeline, against the embedded emulator: every report
 * format (report.json with `kind`, the load section and the timeline; junit.xml, report.html,
 * summary.md, results.ndjson with answers only for failures, redacted), accounting, steps
 * scenarios in the mix, the config file, flags; and the NDJSON writer.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCapacityCommand } from '../../src/cli/capacity-command.js';
import { registerLoadCommand } from '../../src/cli/load-command.js';
import type { CliContext } from '../../src/cli/shared.js';
import { resolveConfig } from '../../src/config/index.js';
import { runLoad } from '../../src/jobs/index.js';
import { NdjsonWriter, readReportFile, recordLine } from '../../src/report/index.js';
import type { RequestRecord } from '../../src/runner/index.js';
import { collectReportDir } from '../helpers/cli.js';
import { sink } from '../helpers/in-process-cli.js';

const SUITE = `
suite: Load
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect:
      answer: { present: true }
  - name: buys shirts
    humanMessage: I want to buy 2 Oxford shirts
  - name: reads a customer
    vars: { customer: 1001 }
    steps:
      - call: customer
        customerId: "{{ vars.customer }}"
        expect: { botEnabled: { present: true } }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-load-'));
  await writeFile(join(dir, 'load.yaml'), SUITE);
});
afterAll(async () => {
  // Every report these in-process jobs wrote goes to the readback project (reports.readback.test.ts).
  for (const sub of await readdir(dir)) collectReportDir(join(dir, sub));
  await rm(dir, { recursive: true, force: true });
});

describe('runLoad against the embedded emulator', () => {
  it('writes every report format, with the load section, the timeline and the accounting', async () => {
    const reportDir = join(dir, 'out');
    const config = resolveConfig(
      'load',
      {
        paths: [join(dir, 'load.yaml')],
        rate: 100,
        duration: '2500ms',
        warmup: '200ms',
        mode: 'both',
        reportDir,
        progress: 0,
        weights: ['greets=3'],
        timeout: '30s',
        defaultThresholds: false,
        emulatorThread: 'inline',
      },
      {},
    );
    const out = sink();
    const err = sink();
    const summary = await runLoad(config, { stdout: out, stderr: err, env: {} });
    expect(summary.exitCode).toBe(0);
    expect((await readdir(reportDir)).sort()).toEqual([
      'junit.xml',
      'report.html',
      'report.json',
      'results.ndjson',
      'summary.md',
    ]);
    // Another droidcheck command reads it back.
    const report = await readReportFile(join(reportDir, 'report.json'));
    expect(report.kind).toBe('load');
    expect(report.load!.model).toBe('open');
    expect(report.load!.sent + report.load!.warmupSent + report.load!.dropped).toBe(250);
    expect(report.summary.requests).toBe(report.load!.sent);
    expect(report.accounting).toMatchObject({ requests: report.load!.sent, outcomes: report.load!.sent, notSent: 0 });
    expect(report.accounting!.webhooks.received).toBe(report.accounting!.webhooks.classified);
    expect(report.summary.outcomes.answered).toBe(report.load!.sent);
    expect(report.scenarios).toEqual([]);
    expect(report.load!.sendDelay!.histogram.length).toBeGreaterThan(10);
    expect((report.settings.load as { model: { stages: { target: number }[] } }).model.stages[0]!.target).toBe(100);
    // An open model has no requests-in-flight setting to show: the model is under `load`.
    expect(report.settings).not.toHaveProperty('concurrency');
    // No user threshold given: no empty list beside the default ones' switch.
    expect(report.settings).not.toHaveProperty('thresholds');
    expect(report.settings.defaultThresholds).toBe(false);
    // Steps scenarios are part of the mix now.
    expect(report.tallies!.some((t) => t.name === 'reads a customer' && t.requests > 0)).toBe(true);
    const greets = report.tallies!.filter((s) => s.name === 'greets').reduce((a, s) => a + s.requests, 0);
    expect(greets / report.load!.sent).toBeGreaterThan(0.45); // weight 3 of 3 + 1 + 1 (modes counted apart)
    // Per-interval figures: started requests add up to the measured ones.
    expect(report.timeline!.points.reduce((n, p) => n + p.started, 0)).toBe(report.load!.sent);
    const lines = (await readFile(join(reportDir, 'results.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RequestRecord & { warmup?: boolean });
    expect(lines).toHaveLength(report.load!.sent + report.load!.warmupSent);
    expect(lines.filter((l) => l.warmup).length).toBe(report.load!.warmupSent);
    // load keeps answers of failed records only: all passed here.
    expect(lines.every((l) => l.answer === undefined && typeof l.outcome === 'string')).toBe(true);
    const html = await readFile(join(reportDir, 'report.html'), 'utf8');
    expect(html).toContain('id="chart-timeline-rate"');
    expect(html).toMatch(/<section class="section" id="load"><h2>Load \(open model\)<\/h2>/);
    const junit = await readFile(join(reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="Load" name="greets \[sync\]"/);
    expect(await readFile(join(reportDir, 'summary.md'), 'utf8')).toMatch(/### Load \(open model\)/);
    expect(out.text).toMatch(/Load \(open model\)/);
    expect(out.text).toMatch(/achieved [\d.]+ req\/s/);
  });

  it('--shard: the scenario acting on customer 1001 runs in one shard only, which says so', async () => {
    const ran = await Promise.all(
      [1, 2].map(async (i) => {
        const reportDir = join(dir, `lane-${i}`);
        const config = resolveConfig(
          'load',
          {
            paths: [join(dir, 'load.yaml')],
            rate: 40,
            duration: '1s',
            mode: 'sync',
            shard: `${i}/2`,
            reportDir,
            progress: 0,
            timeout: '30s',
            defaultThresholds: false,
            emulatorThread: 'inline',
          },
          {},
        );
        const err = sink();
        const summary = await runLoad(config, { stdout: sink(), stderr: err, env: {} });
        const report = await readReportFile(join(reportDir, 'report.json'));
        return { code: summary.exitCode, log: err.text, names: new Set((report.tallies ?? []).map((t) => t.name)) };
      }),
    );
    expect(ran.map((r) => r.code)).toEqual([0, 0]);
    expect(ran[0]!.log).toContain(
      "droidcheck load: scenarios that act on a customer's state run in one shard each; this shard runs 1: Load › reads a customer",
    );
    expect(ran[0]!.names.has('reads a customer')).toBe(true);
    expect(ran[1]!.log).not.toContain("act on a customer's state");
    expect(ran[1]!.names.has('reads a customer')).toBe(false);
    for (const r of ran) expect(r.names.has('greets')).toBe(true);
  });

  it('reads its defaults from the config file (load section), flags over them', async () => {
    const cwd = join(dir, 'project');
    await rm(cwd, { recursive: true, force: true });
    await writeFile(
      join(dir, 'cfg.yaml'),
      `reportDir: ${join(dir, 'from-file')}\ndefaultThresholds: false\nload:\n  rate: 80\n  duration: 500ms\n  seed: 7\n`,
    );
    const out = sink();
    const ctx: CliContext = { stdout: out, stderr: sink(), env: {}, color: false, exitCode: -1 };
    const program = new Command('droidcheck').exitOverride();
    registerLoadCommand(program, ctx);
    await program.parseAsync([
      'node',
      'droidcheck',
      'load',
      join(dir, 'load.yaml'),
      '--config',
      join(dir, 'cfg.yaml'),
      '--seed',
      '9',
      '--progress',
      '0',
      '-m',
      'sync',
    ]);
    const report = await readReportFile(join(dir, 'from-file', 'report.json'));
    expect(ctx.exitCode).toBe(0);
    expect(report.settings.load).toMatchObject({
      seed: 9,
      model: { kind: 'open', stages: [{ durationMs: 500, target: 80 }] },
    });
  });

  it('the CLI commands parse their flags and run (load closed model, capacity step search)', async () => {
    const out = sink();
    const err = sink();
    const ctx: CliContext = { stdout: out, stderr: err, env: {}, color: false, exitCode: -1 };
    const program = new Command('droidcheck').exitOverride();
    registerLoadCommand(program, ctx);
    registerCapacityCommand(program, ctx);
    const yaml = join(dir, 'load.yaml');
    await program.parseAsync([
      'node',
      'droidcheck',
      'load',
      yaml,
      '-c',
      '4',
      '-d',
      '500ms',
      '--max-requests',
      '300',
      '-m',
      'async',
      '--ack-only',
      '-o',
      join(dir, 'closed'),
      '--progress',
      '0',
      '--no-default-thresholds',
    ]);
    const report = await readReportFile(join(dir, 'closed', 'report.json'));
    expect(ctx.exitCode).toBe(report.exitCode);
    expect(ctx.exitCode).toBe(0);
    expect(report.load!.model).toBe('closed');
    expect(report.load!.sent).toBeLessThanOrEqual(300);
    // Every async draw acknowledged; the steps scenario runs its calls in its one mode.
    const asyncSent = report
      .tallies!.filter((t) => t.mode === 'async' && t.name !== 'reads a customer')
      .reduce((n, t) => n + t.requests, 0);
    expect(report.latency.ack.count).toBe(asyncSent);
    await program.parseAsync([
      'node',
      'droidcheck',
      'capacity',
      yaml,
      '--start-rate',
      '100',
      '--step',
      '100',
      '--max-rate',
      '200',
      '--step-duration',
      '1200ms',
      '--warmup',
      '100ms',
      '-m',
      'async',
      '-o',
      join(dir, 'cap'),
    ]);
    const cap = await readReportFile(join(dir, 'cap', 'report.json'));
    expect(cap.kind).toBe('capacity');
    const curve = cap.capacity!.curve;
    expect(curve[0]!.rate).toBe(100);
    // Each step passes unless the host is too loaded for ack p99 < 100 ms; the search stops at the first failure.
    expect(curve.map((p) => p.rate)).toEqual(curve[0]!.passed ? [100, 200] : [100]);
    expect(cap.capacity!.maxRate).toBe(curve.filter((p) => p.passed).at(-1)?.rate ?? null);
    // No rate passed: 99, or 98 when the search ended only at a step whose latency a bound
    // generator left unjudged (metrics/thresholds-trust.ts; a loaded host).
    const unjudged = cap.capacity!.endedBy?.criteria.every((c) => c === 'generator') ?? false;
    expect(ctx.exitCode).toBe(cap.capacity!.maxRate === null ? (unjudged ? 98 : 99) : 0);
    expect(cap.accounting!.requests).toBe(cap.summary.requests);
    expect(out.text).toMatch(/Capacity {2}(\d+ req\/s|no rate passed)/);
    expect((await readdir(join(dir, 'cap'))).sort()).toEqual([
      'junit.xml',
      'report.html',
      'report.json',
      'results.ndjson',
      'summary.md',
    ]);
  });

  it('rejects contradictory or malformed flags with usage errors', () => {
    expect(() => resolveConfig('load', { rate: 10, stages: '1s:10' }, {})).toThrow(/either --rate/);
    expect(() => resolveConfig('load', { rate: 10, concurrency: 3 }, {})).toThrow(/closed model/);
    expect(() => resolveConfig('load', { rate: 0 }, {})).toThrow(
      expect.objectContaining({ code: 'DROIDCHECK_ERR_USAGE' }),
    );
    expect(() => resolveConfig('capacity', { seed: 'abc' }, {})).toThrow(/--seed: "abc" must be a whole number/);
    expect(() => resolveConfig('load', { duration: '30' }, {})).toThrow(/--duration: "30" needs a unit/);
  });
});

describe('NdjsonWriter', () => {
  const record: RequestRecord = {
    seq: 1,
    suite: 's',
    scenario: 'n',
    file: 'f',
    mode: 'async',
    outcome: 'answered',
    passed: true,
    startedAt: 'x',
    failures: [],
    contractViolations: [],
    answer: { big: 'x'.repeat(1000) },
  };

  it('serialises each record once, per the answer policy, redacted, and reports backpressure', async () => {
    expect(recordLine(record, true, { answers: 'none' })).toMatch(/"warmup":true}\n$/);
    expect(recordLine(record, false, { answers: 'all' })).toContain('"answer":{"big":');
    expect(recordLine(record, false, { answers: 'failed' })).not.toContain('"answer"');
    expect(recordLine({ ...record, passed: false }, false, { answers: 'failed' })).toContain('"answer"');
    expect(recordLine(record, false, { answers: 'all', maxAnswerChars: 100 })).toContain('"answerOmitted":');
    expect(
      recordLine({ ...record, scenario: 'tok-12345678' }, false, {
        redact: (t) => t.replaceAll('tok-12345678', '[REDACTED]'),
      }),
    ).toContain('"scenario":"[REDACTED]"');
    expect((record.answer as { big: string }).big.length).toBe(1000); // restored
    const w = await NdjsonWriter.open(join(dir, 'nd', 'records.ndjson'), { answers: 'none' });
    let pressured = false;
    for (let i = 0; i < 20_000; i++) if (!w.writeRecord({ ...record, seq: i })) pressured = true;
    expect(pressured).toBe(true);
    await w.drained();
    await w.close();
    const lines = (await readFile(w.path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(JSON.parse(lines[19_999]!)).toMatchObject({ seq: 19_999, outcome: 'answered' });
    expect(lines[0]).not.toMatch(/big/);
  });
});
