/**
 * `runLoad` and `droidcheck load` / `capacity` end to end against the embedded emulator:
 * report.json with the load section, records streamed to records.ndjson (no answers), drops.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCapacityCommand } from '../../src/cli/capacity-command.js';
import { registerLoadCommand } from '../../src/cli/load-command.js';
import type { CliContext } from '../../src/cli/shared.js';
import { resolveLoadConfig } from '../../src/load/load-config.js';
import { runLoad } from '../../src/load/load-run.js';
import { NdjsonWriter, recordLine } from '../../src/load/ndjson-writer.js';

const SUITE = `
suite: Load
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect:
      intents: { includes: greeting }
  - name: buys shirts
    humanMessage: I want to buy 2 Oxford shirts
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-load-'));
  await writeFile(join(dir, 'load.yaml'), SUITE);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe('runLoad against the embedded emulator', () => {
  it('writes report.json (with the load section) and streams records to records.ndjson', async () => {
    const reportDir = join(dir, 'out');
    const config = resolveLoadConfig(
      { paths: [join(dir, 'load.yaml')], rate: 150, duration: '1s', warmup: '200ms', mode: 'both', reportDir, progress: 0, weights: ['greets=3'], timeout: '5s' },
      {},
    );
    const out = sink();
    const err = sink();
    const summary = await runLoad(config, { stdout: out.stream, stderr: err.stream });
    const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8'));
    expect(report.load.model).toBe('open');
    expect(report.load.sent + report.load.warmupSent + report.load.dropped).toBe(150);
    expect(report.summary.requests).toBe(report.load.sent);
    expect(report.summary.outcomes.answered).toBe(report.load.sent);
    expect(report.scenarios).toEqual([]);
    expect(report.load.sendDelay.histogram.length).toBeGreaterThan(10);
    expect(report.settings.load.model.stages[0].target).toBe(150);
    const greets = report.load.scenarios.filter((s: { name: string }) => s.name === 'greets').reduce((a: number, s: { requests: number }) => a + s.requests, 0);
    expect(greets / report.load.sent).toBeGreaterThan(0.6); // weight 3 of 4
    const lines = (await readFile(join(reportDir, 'records.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(report.load.sent + report.load.warmupSent);
    expect(lines.filter((l) => l.warmup).length).toBe(report.load.warmupSent);
    expect(lines.every((l) => l.answer === undefined && typeof l.outcome === 'string')).toBe(true);
    // 0, or 99 when the spec's ack p99 < 100 ms breached on a loaded host.
    expect(summary.exitCode).toBe(report.thresholds.every((t: { passed: boolean }) => t.passed) ? 0 : 99);
    expect(out.text()).toMatch(/Load \(open model\)/);
  });

  it('the CLI commands parse their flags and run (load closed model, capacity step search)', async () => {
    const out = sink();
    const err = sink();
    const ctx: CliContext = { stdout: out.stream, stderr: err.stream, env: {}, color: false, exitCode: -1 };
    const program = new Command('droidcheck').exitOverride();
    registerLoadCommand(program, ctx);
    registerCapacityCommand(program, ctx);
    const yaml = join(dir, 'load.yaml');
    await program.parseAsync(['node', 'droidcheck', 'load', yaml, '-c', '4', '-d', '500ms', '--max-requests', '300', '-m', 'async', '--ack-only', '-o', join(dir, 'closed'), '--progress', '0']);
    const report = JSON.parse(await readFile(join(dir, 'closed', 'report.json'), 'utf8'));
    expect(ctx.exitCode).toBe(report.exitCode);
    expect([0, 99]).toContain(ctx.exitCode);
    expect(report.load.model).toBe('closed');
    expect(report.load.sent).toBeLessThanOrEqual(300);
    expect(report.latency.ack.count).toBe(report.load.sent);
    await program.parseAsync(['node', 'droidcheck', 'capacity', yaml, '--start-rate', '50', '--step', '50', '--max-rate', '100', '--step-duration', '400ms', '--warmup', '100ms', '-m', 'sync', '-o', join(dir, 'cap')]);
    const cap = JSON.parse(await readFile(join(dir, 'cap', 'capacity.json'), 'utf8'));
    const curve = cap.result.curve as { rate: number; passed: boolean }[];
    expect(curve[0]!.rate).toBe(50);
    // Each step passes unless the host is too loaded for ack p99 < 100 ms; the search stops at the first failure.
    expect(curve.map((p) => p.rate)).toEqual(curve[0]!.passed ? [50, 100] : [50]);
    expect(cap.result.maxRate).toBe(curve.filter((p) => p.passed).at(-1)?.rate ?? null);
    expect(out.text()).toMatch(/capacity: (\d+ req\/s|no rate passed)/);
  });

  it('rejects contradictory flags with usage errors', () => {
    expect(() => resolveLoadConfig({ rate: 10, stages: '1s:10' }, {})).toThrow(/either --rate/);
    expect(() => resolveLoadConfig({ rate: 10, concurrency: 3 }, {})).toThrow(/closed model/);
    expect(() => resolveLoadConfig({ rate: 0 }, {})).toThrow(expect.objectContaining({ code: 'DROIDCHECK_ERR_USAGE' }));
  });
});

describe('NdjsonWriter', () => {
  it('writes one line per record without the answer and reports backpressure', async () => {
    const w = await NdjsonWriter.open(join(dir, 'nd'));
    const record = { seq: 1, suite: 's', scenario: 'n', file: 'f', mode: 'async' as const, outcome: 'answered' as const, passed: true, startedAt: 'x', failures: [], contractViolations: [], unknownFields: [], answer: { big: 'x'.repeat(1000) } };
    expect(recordLine(record, true)).toMatch(/"warmup":true}\n$/);
    expect(record.answer.big.length).toBe(1000); // restored
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
