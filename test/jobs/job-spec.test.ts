/**
 * A job is a spec (jobs/pipeline/job-spec.ts): the one pipeline reads the spec's fields, never the
 * command's name. The same `run` configuration through two specs that differ only in how they
 * judge gets the spec's limits judged or not, and every answer or only the failed ones kept in
 * results.ndjson; a job that reads no suite runs without one. webhook-policy, once a job of its
 * own, goes through the same pipeline: its report states the accounting of the receiver like any
 * job's, and the console draws its section and verdict. Real emulator and receiver on 127.0.0.1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type RunConfig } from '../../src/config/index.js';
import { drivenTraffic, type JobSpec } from '../../src/jobs/pipeline/job-spec.js';
import { runJob } from '../../src/jobs/pipeline/pipeline.js';
import { runSpec } from '../../src/jobs/run/run.js';
import { webhookPolicy } from '../../src/jobs/webhook-policy/webhook-policy.js';
import { sink } from '../helpers/in-process-cli.js';

const SUITE = `suite: Spec
scenarios:
  - name: greets
    modes: [sync]
    humanMessage: Hello there!
    expect:
      intents: { includes: greeting }
  - name: expects a refund
    modes: [sync]
    humanMessage: Hello!
    expect:
      intents: { includes: refund }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-spec-'));
  await writeFile(join(dir, 'spec.yaml'), SUITE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = (out: string): RunConfig =>
  resolveConfig(
    'run',
    {
      paths: [join(dir, 'spec.yaml')],
      reportDir: join(dir, out),
      reporters: ['json', 'ndjson'],
      emulatorThread: 'inline',
      warmUp: false,
    },
    {},
  );

/** The answers results.ndjson kept: one per line that has one. */
async function keptAnswers(out: string): Promise<number> {
  const lines = (await readFile(join(dir, out, 'results.ndjson'), 'utf8')).trim().split('\n');
  return lines.map((l) => JSON.parse(l) as { answer?: unknown }).filter((r) => r.answer !== undefined).length;
}

describe('the pipeline reads the spec, not the command', () => {
  it("judges the spec's limits and keeps the answers as the spec says", async () => {
    const io = { stdout: sink(), stderr: sink(), env: {} };
    const asRun = config('as-run');
    const run = await runJob(runSpec(asRun), asRun, io);
    const asLoad = config('as-load');
    const spec = runSpec(asLoad);
    const judged = await runJob(
      { ...spec, judges: { ...spec.judges, defaultThresholds: false }, ndjsonAnswers: 'failed' },
      asLoad,
      io,
    );
    // The same command and configuration: the spec alone decides.
    expect(run.report.settings.command).toBe(judged.report.settings.command);
    expect(run.report.thresholds.map((t) => t.expression)).toContain('sync.max < 180s');
    expect(judged.report.thresholds).toEqual([]);
    expect(await keptAnswers('as-run')).toBe(2);
    expect(await keptAnswers('as-load')).toBe(1);
    expect([run.exitCode, judged.exitCode]).toEqual([1, 1]);
  });

  it('runs a job that reads no suite, its traffic its own', async () => {
    const c = { ...config('none'), paths: [join(dir, 'no-such-folder')] };
    const spec: JobSpec<RunConfig> = {
      kind: 'run',
      reads: { deal: 'none' },
      judges: { defaultThresholds: false },
      settings: () => ({ what: 'nothing sent' }),
      async send(ctx) {
        expect(ctx.suites).toEqual([]);
        const now = new Date();
        return { traffic: drivenTraffic({ startedAt: now, finishedAt: now, durationMs: 0, interrupted: false }) };
      },
    };
    const summary = await runJob(spec, c, { stdout: sink(), stderr: sink(), env: {} });
    expect(summary.exitCode).toBe(0);
    // The spec's settings, and whether the spec's limits were judged (merge reads it).
    expect(summary.report.settings).toEqual({ what: 'nothing sent', defaultThresholds: false });
    expect(summary.report.accounting).toMatchObject({ requests: 0, outcomes: 0 });
  });
});

describe('webhook-policy through the pipeline', () => {
  it("states the receiver's accounting as every job does, and the console draws its section and verdict", async () => {
    const stdout = sink();
    const config = resolveConfig(
      'webhook-policy',
      {
        webhookAttempts: 2,
        webhookBackoff: '100ms',
        webhookTimeout: '1s',
        webhookJitter: 0,
        timeout: '30s',
        quiet: '300ms',
        probes: 'fail',
        reportDir: join(dir, 'policy'),
        emulatorThread: 'inline',
      },
      {},
    );
    const result = await webhookPolicy(config, { stderr: sink(), stdout });
    expect(result.exitCode).toBe(0);
    expect(result.report.webhookPolicy?.attempts).toBe(2);
    // Both attempts reached the receiver and were answered 500 on purpose: counted, none lost.
    expect(result.report.accounting?.webhooks).toEqual({ received: 2, classified: 2 });
    expect(stdout.text).toContain('Webhook retry policy');
    expect(stdout.text).toMatch(/droidcheck webhook-policy: measured in \S+ \S+ · exit 0\n/);
    expect(stdout.text).not.toMatch(/requests in|passed, \d+ failed/);
  });
});
