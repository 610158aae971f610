/**
 * Coverage and bursts in the live metrics (docs/scale.md, Live metrics; docs/telemetry.md,
 * Metrics): the Prometheus endpoint (`--metrics-port`) and the OTLP export carry the job's
 * coverage shares as gauges (`droidcheck_coverage_ratio{what}` / `droidcheck.coverage`,
 * `droidcheck_coverage_funnel_ratio{stage}` / `droidcheck.coverage.funnel`) and its bursts'
 * findings as counters (`droidcheck_bursts_total` / `droidcheck.bursts`,
 * `droidcheck_burst_findings_total{finding}` / `droidcheck.burst.findings`), and at the end of a
 * load of bursts against an emulator that answers each burst's first message late, both say what
 * report.json says: the same shares, the same counts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoShopPolicy, writeTwoTurnTalk } from '../helpers/two-turn-talk.js';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator } from '../../src/emulator/index.js';
import { runLoad } from '../../src/jobs/index.js';
import { createLiveMetrics } from '../../src/metrics/prometheus.js';
import { FUNNEL_STAGES } from '../../src/metrics/index.js';
import { readReportFile } from '../../src/report/index.js';
import { collectReportDir, freePort, until } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';
import { sink } from '../helpers/in-process-cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { parsePrometheusText, sumOf, valueOf, type Family } from './metrics-text.js';

const SECRET = 'live-coverage-secret-0123456789abcdef0123';

describe('the registry', () => {
  it('has a coverage series per share measured (none for the others) and the bursts by finding', async () => {
    const live = createLiveMetrics({ processMetrics: false });
    let shares: { products?: number; funnel?: Record<string, number> } = {};
    live.watchCoverage(() => shares);
    let families = parsePrometheusText(await live.metrics());
    // Nothing measured yet: the gauges are declared, with no series (a 0 would read as "nothing covered").
    expect(families.get('droidcheck_coverage_ratio')?.samples).toEqual([]);
    expect(families.get('droidcheck_coverage_funnel_ratio')?.samples).toEqual([]);
    expect(valueOf(families, 'droidcheck_bursts_total')).toBe(0);
    shares = { products: 0.25, funnel: { product: 1, cart: 0.5, total: 0.5, address: 0, contact: 0 } };
    live.observeBursts({ total: 3, unanswered: 0, declined: 1, outOfOrder: 2, staleLast: 2, cartRegressed: 0 });
    live.observeBursts({ total: 1, unanswered: 1, declined: 0, outOfOrder: 0, staleLast: 0, cartRegressed: 0 });
    families = parsePrometheusText(await live.metrics());
    expect(valueOf(families, 'droidcheck_coverage_ratio', { what: 'products' })).toBe(0.25);
    expect(families.get('droidcheck_coverage_ratio')?.samples).toHaveLength(1);
    expect(valueOf(families, 'droidcheck_coverage_funnel_ratio', { stage: 'cart' })).toBe(0.5);
    expect(valueOf(families, 'droidcheck_coverage_funnel_ratio', { stage: 'address' })).toBe(0);
    expect(valueOf(families, 'droidcheck_bursts_total')).toBe(4);
    expect(valueOf(families, 'droidcheck_burst_findings_total', { finding: 'out_of_order' })).toBe(2);
    expect(valueOf(families, 'droidcheck_burst_findings_total', { finding: 'stale_last' })).toBe(2);
    expect(valueOf(families, 'droidcheck_burst_findings_total', { finding: 'unanswered' })).toBe(1);
    expect(valueOf(families, 'droidcheck_burst_findings_total', { finding: 'declined' })).toBe(1);
    expect(sumOf(families, 'droidcheck_burst_findings_total', { finding: 'cart_regressed' })).toBe(0);
  });
});

describe('a load of bursts with --metrics-port and OTLP export', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-live-coverage-'));
    await writeTwoTurnTalk(dir);
    await writeDemoShopPolicy(dir);
  });
  afterAll(async () => {
    collectReportDir(join(dir, 'out'));
    await rm(dir, { recursive: true, force: true });
  });

  it("ends with the report's coverage shares and burst counts, in both", async () => {
    const otlp = await startOtlpReceiver();
    const port = await freePort();
    const emulator = await createEmulator({
      answerDelayMs: 1000,
      faults: { requests: [{ endpoint: '*', action: 'burst-first-late', delayMs: 1300 }] },
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
    });
    const stop = new AbortController();
    const stderr = sink();
    try {
      const baseUrl = await emulator.listen();
      const reportDir = join(dir, 'out');
      const config = resolveConfig(
        'load',
        {
          paths: [join(dir, 'talk.yaml')],
          policy: join(dir, 'shop.policy.yaml'),
          baseUrl,
          droidId: String(emulator.droidId),
          receiverPort: port,
          rate: 4,
          duration: '2s',
          mode: 'async',
          burstGap: '300ms',
          reportDir,
          progress: 0,
          timeout: '20s',
          reporters: ['json'],
          metricsPort: 0,
          metricsLinger: '60s', // cut short by `stop` once scraped
          otlpEndpoint: otlp.url,
        },
        { DROID_API_TOKEN: emulator.token, DROID_WEBHOOK_SECRET: SECRET },
      );
      const job = runLoad(config, { stdout: sink(), stderr, env: {}, stopSignal: stop.signal });
      await until(() => /metrics at (\S+)/.test(stderr.text), 'the metrics URL');
      const url = /metrics at (\S+)/.exec(stderr.text)![1]!;
      let final: Map<string, Family> | undefined;
      for (const end = Date.now() + HANG_MS; Date.now() < end && !final; ) {
        const families = parsePrometheusText(await (await request(url)).body.text());
        if (valueOf(families, 'droidcheck_job_finished') === 1) final = families;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(final, 'a scrape after the job finished').toBeDefined();
      stop.abort();
      await job;
      const f = final!;
      const report = await readReportFile(join(reportDir, 'report.json'));

      // The figures: bursts answered out of order, with a stale last answer; 2 of 8 products covered.
      const bursts = report.bursts!;
      expect(bursts.total).toBe(report.load!.sent);
      expect(bursts.outOfOrder).toBeGreaterThan(0);
      const coverage = report.coverage!;
      expect(coverage.products).toMatchObject({ covered: 2, total: 8 });
      const shares = {
        products: coverage.products!.share!,
        intents: coverage.intents.declared!.share!,
        rules: coverage.rules!.share!,
      };
      const funnel = Object.fromEntries(
        FUNNEL_STAGES.map((s) => [s, coverage.funnel.stages[s] / coverage.funnel.conversations]),
      );
      expect(funnel.cart).toBeGreaterThan(0);

      // Prometheus.
      for (const [what, share] of Object.entries(shares))
        expect(valueOf(f, 'droidcheck_coverage_ratio', { what }), what).toBeCloseTo(share, 12);
      for (const [stage, share] of Object.entries(funnel))
        expect(valueOf(f, 'droidcheck_coverage_funnel_ratio', { stage }), stage).toBeCloseTo(share, 12);
      expect(valueOf(f, 'droidcheck_bursts_total')).toBe(bursts.total);
      const findings = {
        out_of_order: bursts.outOfOrder,
        stale_last: bursts.staleLast,
        cart_regressed: bursts.cartRegressed,
        unanswered: bursts.unanswered,
        declined: bursts.declined,
      };
      for (const [finding, n] of Object.entries(findings))
        expect(sumOf(f, 'droidcheck_burst_findings_total', { finding }), finding).toBe(n);

      // OTLP: the last export holds the same figures under the same names.
      const last = Math.max(...otlp.points.map((p) => p.export));
      const at = (name: string, attrs: Record<string, string> = {}): number[] =>
        otlp.points
          .filter((p) => p.export === last && p.name === name)
          .filter((p) => Object.entries(attrs).every(([k, v]) => p.attributes[k] === v))
          .map((p) => p.value ?? Number.NaN);
      for (const [what, share] of Object.entries(shares)) expect(at('droidcheck.coverage', { what })).toEqual([share]);
      for (const [stage, share] of Object.entries(funnel))
        expect(at('droidcheck.coverage.funnel', { stage })[0], stage).toBeCloseTo(share, 12);
      expect(otlp.points.find((p) => p.name === 'droidcheck.coverage')?.unit).toBe('1');
      expect(at('droidcheck.bursts')).toEqual([bursts.total]);
      for (const [finding, n] of Object.entries(findings))
        expect(
          at('droidcheck.burst.findings', { finding }).reduce((a, b) => a + b, 0),
          finding,
        ).toBe(n);
      expect(otlp.points.find((p) => p.name === 'droidcheck.bursts')?.attributes['droidcheck.job']).toBe('load');
    } finally {
      stop.abort();
      await emulator.close();
      await otlp.close();
    }
  });
});
