/**
 * Live metrics (docs/scale.md): `/metrics` is valid Prometheus text (read by a strict
 * tokenizer, metrics-text.ts) and, at the end of a job, says what its report says: requests by
 * outcome, pass/fail counts, latency histogram counts, webhooks by verdict, dropped arrivals and
 * send delay. The CLI tests run the build (`npm run build` first).
 */
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/metrics/metrics-server.js';
import { createLiveMetrics, LATENCY_METRIC_NAMES } from '../../src/metrics/prometheus.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import type { ReportDocument } from '../../src/report/index.js';
import { startCli, until } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';
import { parsePrometheusText, sumOf, valueOf, type Family } from './metrics-text.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-metrics-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scrape(url: string): Promise<{ text: string; families: Map<string, Family>; contentType: string }> {
  const res = await request(url);
  const text = await res.body.text();
  expect(res.statusCode).toBe(200);
  return { text, families: parsePrometheusText(text), contentType: String(res.headers['content-type']) };
}

describe('the registry', () => {
  it('turns HDR histograms into cumulative buckets in seconds, and counts requests, verdicts and webhooks', async () => {
    const metrics = createLiveMetrics({ labels: { command: 'load', shard: '1/2' }, processMetrics: false });
    const latency = new LatencyRecorder();
    for (const ms of [0.05, 1, 4, 60, 99, 140, 2_000]) latency.recordMs('ack', ms);
    latency.recordMs('answer', 12_000);
    metrics.setLatencySources([{ ack: () => latency.buckets('ack'), answer: () => latency.buckets('answer') }]);
    metrics.observeRequest({
      outcome: 'answered',
      verdict: 'passed',
      suite: 'S',
      scenario: 'a "quoted" name',
      mode: 'async',
    });
    metrics.observeRequest({ outcome: 'answered', verdict: 'failed', suite: 'S', scenario: 'b', mode: 'sync' });
    metrics.observeRequest({ outcome: 'timeout', verdict: 'failed', suite: 'S', scenario: 'b', mode: 'sync' });
    metrics.observeRequest({ outcome: 'not-sent', verdict: 'none', suite: 'S', scenario: 'b', mode: 'sync' });
    metrics.observeProgress({ inFlight: 7, openConversations: 4, droppedTotal: 3, targetRate: 25 });
    metrics.observeProgress({ inFlight: 2, droppedTotal: 5, targetRate: 30 });
    metrics.watchWebhooks(() => ({ answer: { received: 4, parked: 1, verdicts: { matched: 2, bad_secret: 1 } } }));
    metrics.watchClockSkew(() => ({ 'host-a:12': 0.0021 }));
    const server = await startMetricsServer(metrics, { port: 0 });
    try {
      const { families, contentType } = await scrape(server.url);
      expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      const ack = LATENCY_METRIC_NAMES.ack;
      expect(families.get(ack)?.type).toBe('histogram');
      const le = (b: string): number => valueOf(families, `${ack}_bucket`, { le: b });
      expect(le('0.001')).toBe(2); // 50 us and 1 ms
      expect(le('0.005')).toBe(3);
      expect(le('0.075')).toBe(4);
      expect(le('0.1')).toBe(5); // the spec's ack limit is a bucket bound: 99 ms is within it
      expect(le('0.15')).toBe(6);
      expect(le('2.5')).toBe(7);
      expect(le('+Inf')).toBe(7);
      expect(valueOf(families, `${ack}_count`)).toBe(7);
      expect(valueOf(families, `${ack}_sum`)).toBeCloseTo(2.30405, 2); // exact to HDR's 0.1 %
      expect(valueOf(families, `${LATENCY_METRIC_NAMES.answer}_bucket`, { le: '10' })).toBe(0);
      expect(valueOf(families, `${LATENCY_METRIC_NAMES.answer}_bucket`, { le: '20' })).toBe(1);
      expect(valueOf(families, `${LATENCY_METRIC_NAMES.sync}_count`)).toBe(0);
      expect(valueOf(families, 'droidcheck_requests_total', { outcome: 'answered' })).toBe(2);
      expect(valueOf(families, 'droidcheck_requests_total', { outcome: 'not-sent' })).toBe(1);
      expect(
        valueOf(families, 'droidcheck_scenario_results_total', { scenario: 'a "quoted" name', result: 'passed' }),
      ).toBe(1);
      expect(valueOf(families, 'droidcheck_scenario_results_total', { scenario: 'b', result: 'failed' })).toBe(2);
      expect(valueOf(families, 'droidcheck_requests_in_flight')).toBe(2);
      // Set by the tick that knew it; a tick of a run without conversations leaves it be.
      expect(valueOf(families, 'droidcheck_open_conversations')).toBe(4);
      expect(valueOf(families, 'droidcheck_arrivals_dropped_total')).toBe(5);
      expect(valueOf(families, 'droidcheck_arrival_rate_target')).toBe(30);
      expect(valueOf(families, 'droidcheck_webhooks_received_total', { route: 'answer' })).toBe(4);
      expect(valueOf(families, 'droidcheck_webhooks_total', { route: 'answer', verdict: 'bad_secret' })).toBe(1);
      expect(valueOf(families, 'droidcheck_webhooks_parked')).toBe(1);
      expect(valueOf(families, 'droidcheck_clock_skew_seconds', { receiver: 'host-a:12' })).toBeCloseTo(0.0021, 6);
      expect(valueOf(families, 'droidcheck_job_finished')).toBe(0);
      // Default labels on every series.
      for (const f of families.values())
        for (const s of f.samples) expect(s.labels).toMatchObject({ command: 'load', shard: '1/2' });
      // Counters never go down between scrapes.
      latency.recordMs('ack', 3);
      metrics.finish();
      const again = await scrape(server.url);
      expect(valueOf(again.families, `${ack}_count`)).toBe(8);
      expect(valueOf(again.families, 'droidcheck_job_finished')).toBe(1);
      expect((await request(server.url.replace('/metrics', '/nope'))).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('the process metrics parse too (prom-client defaults, droidcheck_ prefix)', async () => {
    const metrics = createLiveMetrics();
    const families = parsePrometheusText(await metrics.metrics());
    expect([...families.keys()].some((n) => n.startsWith('droidcheck_process_'))).toBe(true);
    expect(families.get('droidcheck_nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
  });
});

describe('--metrics-port of a running job', () => {
  it('load: /metrics parses while it runs, and its final counters equal the report', async () => {
    const out = join(dir, 'load');
    const cli = startCli(
      [
        'load',
        'scenarios/contacts.yaml',
        'scenarios/purchases.yaml',
        '--mode',
        'both',
        '--rate',
        '60',
        '--duration',
        '3s',
        '--metrics-port',
        '0',
        '--metrics-linger',
        '60s', // killed once scraped: a long linger only spares a slow machine's last scrape
        '-o',
        out,
        '-r',
        'json',
        '--no-default-thresholds',
      ],
      { CI: 'true' },
    );
    try {
      await until(() => /metrics at (\S+)/.test(cli.stderr()), 'the metrics URL');
      const url = /metrics at (\S+)/.exec(cli.stderr())![1]!;
      // While it runs: valid text, requests counted, not finished.
      let running: Map<string, Family> | undefined;
      for (const end = Date.now() + HANG_MS; Date.now() < end && !running; ) {
        const { families } = await scrape(url);
        if (valueOf(families, 'droidcheck_job_finished') === 0 && sumOf(families, 'droidcheck_requests_total') > 0)
          running = families;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(running, 'a scrape while the load was running').toBeDefined();
      expect(valueOf(running!, 'droidcheck_requests_in_flight', { command: 'load' })).toBeGreaterThanOrEqual(0);

      let final: Map<string, Family> | undefined;
      for (const end = Date.now() + HANG_MS; Date.now() < end && !final; ) {
        const { families } = await scrape(url);
        if (valueOf(families, 'droidcheck_job_finished') === 1) final = families;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(final, 'a scrape after the job finished').toBeDefined();
      const f = final!;
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;

      for (const [outcome, n] of Object.entries(report.summary.outcomes))
        expect(sumOf(f, 'droidcheck_requests_total', { outcome }), outcome).toBe(n);
      expect(sumOf(f, 'droidcheck_requests_total')).toBe(report.summary.requests);
      expect(sumOf(f, 'droidcheck_scenario_results_total', { result: 'passed' })).toBe(report.summary.passed);
      expect(sumOf(f, 'droidcheck_scenario_results_total', { result: 'failed' })).toBe(report.summary.failed);
      for (const m of ['ack', 'answer', 'sync'] as const)
        expect(valueOf(f, `${LATENCY_METRIC_NAMES[m]}_count`), m).toBe(report.latency[m].count);
      expect(report.latency.ack.count).toBeGreaterThan(0);
      expect(report.latency.sync.count).toBeGreaterThan(0);
      expect(valueOf(f, `${LATENCY_METRIC_NAMES.sendDelay}_count`)).toBe(report.load!.sendDelay!.count);
      expect(valueOf(f, 'droidcheck_arrivals_dropped_total')).toBe(report.load!.dropped);
      const r = report.receiver;
      expect(valueOf(f, 'droidcheck_webhooks_received_total', { route: 'answer' })).toBe(r.received);
      const verdicts = {
        matched: r.matched,
        duplicate: r.duplicates,
        late: r.late,
        orphan: r.orphans,
        foreign: r.foreign,
        bad_secret: r.badSecret,
        malformed: r.malformed,
      };
      for (const [verdict, n] of Object.entries(verdicts))
        expect(valueOf(f, 'droidcheck_webhooks_total', { route: 'answer', verdict }), verdict).toBe(n);
      expect(r.matched).toBe(report.latency.answer.count);
    } finally {
      cli.child.kill('SIGKILL');
      await cli.exited();
    }
  });

  it('run: the request and verdict counters equal the report', async () => {
    const out = join(dir, 'run');
    const cli = startCli(
      [
        'run',
        'scenarios/contacts.yaml',
        '--metrics-port',
        '0',
        '--metrics-linger',
        '60s', // killed once scraped: a long linger only spares a slow machine's last scrape
        '-o',
        out,
        '-r',
        'json',
        '--no-default-thresholds',
      ],
      { CI: 'true' },
    );
    try {
      await until(() => /metrics at (\S+)/.test(cli.stderr()), 'the metrics URL');
      const url = /metrics at (\S+)/.exec(cli.stderr())![1]!;
      let final: Map<string, Family> | undefined;
      for (const end = Date.now() + HANG_MS; Date.now() < end && !final; ) {
        const { families } = await scrape(url);
        if (valueOf(families, 'droidcheck_job_finished') === 1) final = families;
        else await new Promise((r) => setTimeout(r, 100));
      }
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;
      expect(sumOf(final!, 'droidcheck_requests_total', { command: 'run' })).toBe(report.summary.requests);
      expect(sumOf(final!, 'droidcheck_scenario_results_total', { result: 'passed' })).toBe(report.summary.passed);
      expect(valueOf(final!, `${LATENCY_METRIC_NAMES.answer}_count`)).toBe(report.latency.answer.count);
    } finally {
      cli.child.kill('SIGKILL');
      await cli.exited();
    }
  });
});
