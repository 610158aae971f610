/**
 * Acknowledgement time over a network (docs/architecture.md, Measurements): the round trip measured
 * by TCP connects, `ackServer` = ack - rtt recorded for every acknowledgement of a remote target,
 * the default ack threshold judged on `ackServer.p99` with the client-side `ack.p99` beside it (the
 * emulator keeps `ack.p99`), report.json's `network`; and the preflight of `run` against a remote
 * target (exit 2 before anything is sent).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { SetupError, TransportError } from '../../src/errors.js';
import { measureRoundTrip, run } from '../../src/jobs/index.js';
import { LatencyRecorder, describeThreshold, evaluateThresholds, type ThresholdData } from '../../src/metrics/index.js';
import {
  buildReport,
  mergeReports,
  parseReportDocument,
  renderConsoleSummary,
  renderHtmlReport,
  renderMarkdownSummary,
} from '../../src/report/index.js';
import { PlanSource, runEngine } from '../../src/runner/index.js';
import { formatMs } from '../../src/units.js';
import { freePort } from '../helpers/cli.js';
import { scenario, suiteOf } from '../helpers/engine.js';
import { startLoopback } from '../helpers/loopback.js';
import { emptyReceiverStats } from '../../src/receiver/index.js';
import { Tally } from '../../src/runner/tally.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

describe('measureRoundTrip', () => {
  it('is the fastest of N TCP connects to the host and port', async () => {
    let accepted = 0;
    const server = createServer((socket) => {
      accepted += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const t0 = performance.now();
    const estimate = await measureRoundTrip(`http://127.0.0.1:${port}/some/base`, { samples: 5 });
    const elapsedMs = performance.now() - t0;
    expect(estimate).toMatchObject({ samples: 5, method: 'tcp-connect' });
    expect(estimate.rttMs).toBeGreaterThan(0);
    // The fastest of five is at most their mean, whatever else the machine runs meanwhile.
    expect(estimate.rttMs).toBeLessThanOrEqual(elapsedMs / 5);
    await expect.poll(() => accepted).toBe(5);
  });

  it('a closed port is a TransportError (ECONNREFUSED)', async () => {
    const port = await freePort();
    await expect(measureRoundTrip(`http://127.0.0.1:${port}`)).rejects.toMatchObject({
      constructor: TransportError,
      causeCode: 'ECONNREFUSED',
    });
  });
});

describe('ackServer: ack minus the round trip, for every acknowledgement', () => {
  it('is recorded beside ack when the engine knows the round trip, and not otherwise', async () => {
    // An ack delay keeps every ack above the round trip, so the difference is exact.
    const rig = await startLoopback({ emulator: { ackDelayMs: 5 } });
    closers.push(() => rig.close());
    const suites = [suiteOf(scenario('greets', { modes: ['async'], repeat: 20 }))];
    const base = {
      scheduler: { kind: 'closed' as const, concurrency: 4 },
      client: rig.client,
      receiver: rig.receiver,
      timeoutMs: 10_000,
    };
    const remote = await runEngine({ ...base, source: PlanSource.of(suites), rttMs: 2 });
    const ack = remote.latency.summary('ack');
    const server = remote.latency.summary('ackServer');
    expect(ack.count).toBe(20);
    expect(server.count).toBe(20);
    expect(ack.mean - server.mean).toBeCloseTo(2, 1);
    const local = await runEngine({ ...base, source: PlanSource.of(suites) });
    expect(local.latency.count('ack')).toBe(20);
    expect(local.latency.count('ackServer')).toBe(0);
  });
});

function sampled(ackMs: number, ackServerMs: number, n = 120): ThresholdData & { recorder: LatencyRecorder } {
  const recorder = new LatencyRecorder();
  for (let i = 0; i < n; i++) {
    recorder.recordMs('ack', ackMs);
    recorder.recordMs('ackServer', ackServerMs);
  }
  return {
    recorder,
    summary: { requests: n, outcomes: { answered: n }, passRate: 1 },
    latency: {
      ack: recorder.summary('ack'),
      answer: recorder.summary('answer'),
      sync: recorder.summary('sync'),
      reply: recorder.summary('reply'),
      ackServer: recorder.summary('ackServer'),
    },
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    histograms: recorder.encodeAll(),
  };
}

describe('the default ack threshold', () => {
  it('a remote target: ackServer.p99 < 100ms, with the client-side ack.p99 beside it', () => {
    const data = sampled(130, 60);
    const [first] = evaluateThresholds([], data, { defaults: true, ackBasis: 'ackServer' });
    expect(first).toMatchObject({ expression: 'ackServer.p99 < 100ms', status: 'passed', count: 120 });
    expect(first!.actual).toBeCloseTo(60, 0);
    expect(first!.beside?.metric).toBe('ack.p99');
    expect(first!.beside?.actual).toBeCloseTo(130, 0);
    expect(describeThreshold(first!)).toMatch(
      /^✓ ackServer\.p99 < 100 ms \(actual 60(\.\d)? ms, 120 samples; client-side ack\.p99 130 ms\)$/,
    );
  });

  it('the embedded emulator: ack.p99 < 100ms, as before', () => {
    const [first] = evaluateThresholds([], sampled(130, 60), { defaults: true });
    expect(first).toMatchObject({ expression: 'ack.p99 < 100ms', status: 'breached' });
    expect(first!.beside).toBeUndefined();
  });

  it('report.json: network, ack judged on ackServer (console: "on ackServer"), both kept through the schema and merge', () => {
    const data = sampled(130, 60);
    const network = { rttMs: 70.5, samples: 7, method: 'tcp-connect' as const };
    const input = {
      kind: 'load' as const,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:10.000Z',
      durationMs: 10_000,
      settings: {},
      tally: new Tally().snapshot(),
      latency: data.recorder,
      receiver: emptyReceiverStats(),
      interrupted: false,
    };
    const remote = buildReport({ ...input, network });
    expect(remote.network).toEqual(network);
    expect(remote.latency.ack).toMatchObject({ judgedOn: 'ackServer', withinLimit: true, limitVerdict: 'ok' });
    expect(remote.thresholds.map((t) => t.expression)).toEqual(['ackServer.p99 < 100ms']);
    expect(remote.exitCode).toBe(0);
    const text = renderConsoleSummary(remote);
    expect(text).toMatch(/^ {2}ack +120 .* on ackServer$/m);
    expect(text).toMatch(/^ {2}ackServer +120 .* 100 ms +ok$/m);
    expect(text).toContain('Network round trip  70.5 ms (fastest of 7 TCP connects)');
    expect(renderMarkdownSummary(remote)).toContain('### Network round trip: 70.5 ms (fastest of 7 TCP connects)');
    expect(renderHtmlReport(remote)).toContain('<h2>Network round trip</h2>\n<p>70.5 ms (fastest of 7 TCP connects)');
    const reread = parseReportDocument(JSON.parse(JSON.stringify(remote)));
    expect(reread.network).toEqual(network);
    expect(reread.thresholds[0]!.beside?.metric).toBe('ack.p99');
    const merged = mergeReports([reread, reread]);
    expect(merged.thresholds.map((t) => t.expression)).toEqual(['ackServer.p99 < 100ms']);
    expect(merged.latency.ack.judgedOn).toBe('ackServer');

    const local = buildReport(input);
    expect(local.network).toBeUndefined();
    expect(local.latency.ack).toMatchObject({ withinLimit: false, limitVerdict: 'breach' });
    expect(local.latency.ack.judgedOn).toBeUndefined();
    expect(local.exitCode).toBe(99);
  });

  it('formatMs prints a minute or more in seconds, one decimal (never `2 min`)', () => {
    expect(formatMs(3_599_600)).toBe('3599.6 s');
    expect(formatMs(119_600)).toBe('119.6 s');
    expect(formatMs(120_100)).toBe('120.1 s');
    expect(formatMs(61_400)).toBe('61.4 s');
    expect(formatMs(59_990)).toBe('60 s');
    expect(formatMs(2_410)).toBe('2.41 s');
  });
});

describe('run against a remote target (the emulator on loopback)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-remote-'));
    await writeFile(
      join(dir, 'suite.yaml'),
      'suite: Remote\nscenarios:\n  - name: greets\n    modes: [sync, async]\n    repeat: 3\n    humanMessage: Hello there!\n',
    );
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function remoteEmulator(port: number): Promise<Emulator> {
    const emulator = await createEmulator({ webhookUrl: `http://127.0.0.1:${port}/webhook` });
    await emulator.listen();
    closers.push(() => emulator.close());
    return emulator;
  }

  function io(): { stdout: PassThrough; stderr: PassThrough; text: () => string } {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let text = '';
    stdout.on('data', (c: Buffer) => (text += c.toString()));
    stderr.on('data', (c: Buffer) => (text += c.toString()));
    return { stdout, stderr, text: () => text };
  }

  it('measures the round trip, records ackServer for every ack and judges the ack limit on it', async () => {
    const port = await freePort();
    const emulator = await remoteEmulator(port);
    const url = `http://127.0.0.1:${(emulator.app.server.address() as AddressInfo).port}`;
    const config = resolveConfig(
      'run',
      {
        paths: [dir],
        baseUrl: url,
        droidId: emulator.droidId,
        receiverPort: port,
        reporters: ['console'],
        reportDir: join(dir, 'out'),
        emulatorThread: 'inline',
        timeout: '10s',
      },
      { DROID_API_TOKEN: emulator.token },
    );
    const out = io();
    const summary = await run(config, { stdout: out.stdout, stderr: out.stderr, env: {} });
    const report = summary.report;
    expect(report.network).toMatchObject({ samples: 7, method: 'tcp-connect' });
    expect(report.latency.ack.count).toBe(3);
    expect(report.latency.ackServer.count).toBe(3);
    expect(report.latency.ackServer.max).toBeLessThanOrEqual(report.latency.ack.max);
    expect(report.latency.ack.judgedOn).toBe('ackServer');
    // Three acks cannot support a p99: the default is there, not judged, the raw ack beside it.
    expect(report.thresholds[0]).toMatchObject({
      expression: 'ackServer.p99 < 100ms',
      status: 'too-few-samples',
      beside: { metric: 'ack.p99', count: 3 },
    });
    expect(out.text()).toMatch(
      /droidcheck: network round trip [\d.]+ ms \(fastest of 7 TCP connects\): the ack limit is judged on ack minus it \(ackServer\)/,
    );
    expect(summary.exitCode).toBe(0);
  });

  it("a refused token stops at the preflight: exit 2 with the doctor's line, nothing of the suite sent", async () => {
    const port = await freePort();
    const emulator = await remoteEmulator(port);
    const url = `http://127.0.0.1:${(emulator.app.server.address() as AddressInfo).port}`;
    const wrong = 'wrong-token-0123456789abcdefghij';
    const config = resolveConfig(
      'run',
      {
        paths: [dir],
        baseUrl: url,
        droidId: emulator.droidId,
        receiverPort: port,
        reporters: ['console'],
        reportDir: join(dir, 'out'),
        emulatorThread: 'inline',
      },
      { DROID_API_TOKEN: wrong },
    );
    const out = io();
    const err = await run(config, { stdout: out.stdout, stderr: out.stderr, env: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SetupError);
    const message = (err as SetupError).message;
    expect(message).toContain(`preflight against ${url} (droid ${emulator.droidId}) failed; nothing was sent:`);
    expect(message).toMatch(/✗ token accepted +GET channels: HTTP 401 Unauthorized: Invalid API key/);
    expect(message).toContain('fix: the token was refused: check DROID_API_TOKEN');
    expect(message).not.toContain(wrong);
    const stats = emulator.stats();
    expect(stats.accepted + stats.syncAnswered).toBe(0);
  });
});
