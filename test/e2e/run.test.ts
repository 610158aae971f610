/**
 * End to end on loopback: emulator + receiver + runner over scenarios, both modes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DroidClient } from '../../src/client/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import type { Receiver } from '../../src/receiver/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { writeJsonReport } from '../../src/report/index.js';
import { reportOf, runPlan } from '../helpers/engine.js';
import { parseSuite } from '../../src/scenario/index.js';

const SECRET = 'e2e-secret-0123456789abcdef0123456789';

const SUITE = `
suite: E2E
scenarios:
  - name: buys two Oxford shirts
    chatHistory:
      - human: Hi, do you sell shirts?
      - ai: Yes, we have Oxford shirts.
    humanMessage: I want to buy 2 Oxford shirts, please send to 99 Sukhumvit Rd, Bangkok 10110
    expect:
      intents: { includes: purchase }
      addressParsing.postal_code: "10110"
      answer: { matches: "(?i)oxford|shirt" }
  - name: greets
    modes: [async]
    humanMessage: Hello there!
    expect:
      intents: { includes: greeting }
  - name: expects the impossible
    modes: [sync]
    humanMessage: Hello there!
    expect:
      answer: { contains: "this text is never in an answer" }
`;

describe('droidcheck run, end to end on 127.0.0.1', () => {
  let rig: Loopback;
  let receiver: Receiver;
  let emulator: Emulator;
  let client: DroidClient;
  let webhookUrl: string;

  beforeAll(async () => {
    rig = await startLoopback({ secret: SECRET, receiver: { orphanGraceMs: 60_000 }, emulator: { answerDelayMs: 20 } });
    ({ receiver, emulator, client, webhookUrl } = rig);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('answers every scenario x mode, matches webhooks by requestId and fills the report', async () => {
    const suite = parseSuite(SUITE.replace('(?i)oxford|shirt', '[Oo]xford|[Ss]hirt'), 'e2e.yaml');
    const result = await runPlan({ client, receiver }, [suite], { concurrency: 4, timeoutMs: 10_000 });

    expect(result.records).toHaveLength(4); // 2 modes + async + sync
    expect(result.records!.every((r) => r.outcome === 'answered')).toBe(true);
    const asyncRecords = result.records!.filter((r) => r.mode === 'async');
    expect(asyncRecords).toHaveLength(2);
    for (const r of asyncRecords) {
      expect(r.requestId).toMatch(/^tpa-/);
      expect((r.answer as { requestId: string }).requestId).toBe(r.requestId);
      expect(r.ackMs).toBeGreaterThan(0);
      expect(r.answerMs!).toBeGreaterThanOrEqual(20);
    }
    const byName = Object.fromEntries(result.records!.map((r) => [`${r.scenario}/${r.mode}`, r]));
    expect(byName['buys two Oxford shirts/sync']!.passed).toBe(true);
    expect(byName['buys two Oxford shirts/async']!.passed).toBe(true);
    expect(byName['greets/async']!.passed).toBe(true);
    const impossible = byName['expects the impossible/sync']!;
    expect(impossible.passed).toBe(false);
    expect(impossible.failures[0]).toMatchObject({
      path: 'answer',
      matcher: 'contains',
      expected: 'this text is never in an answer',
    });
    expect(impossible.failures[0]!.location.line).toBeGreaterThan(1);

    expect(result.latency.summary('ack').count).toBe(2);
    expect(result.latency.summary('answer').count).toBe(2);
    expect(result.latency.summary('sync').count).toBe(2);

    const report = reportOf(result, receiver.stats());
    expect(report.summary.requests).toBe(4);
    expect(report.summary.outcomes.answered).toBe(4);
    expect(Object.values(report.summary.outcomes).reduce((a, b) => a + b, 0)).toBe(4);
    // 1: an expectation failed; 99 (a breached latency limit) wins over it when this shared
    // 2-core machine stalls the in-process emulator past the 100 ms acknowledgement limit.
    const breached = report.thresholds.some((t) => !t.passed);
    expect(report.exitCode).toBe(breached ? 99 : 1);
    expect(report.latency.ack.count).toBe(2);
    expect(report.latency.ack.limitMs).toBe(100);
    expect(report.latency.sync.limitMs).toBe(180_000);
    expect(LatencyRecorder.fromEncoded(report.histograms).summary('answer').count).toBe(2);
    const failed = report.scenarios.find((s) => !s.passed)!;
    expect(failed.failures[0]!.actual).toEqual(expect.any(String));

    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-e2e-'));
    try {
      const path = await writeJsonReport(dir, report);
      const json = JSON.parse(await readFile(path, 'utf8'));
      expect(json.summary.requests).toBe(4);
      expect(Object.keys(json.latency).sort()).toEqual(['ack', 'ackServer', 'answer', 'reply', 'sync']);
      expect(Object.keys(json.receiver).sort()).toEqual(
        expect.arrayContaining(['duplicates', 'late', 'orphans', 'badSecret', 'malformed']),
      );
      expect(JSON.stringify(json)).not.toContain(SECRET);
      expect(JSON.stringify(json)).not.toContain(emulator.token);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts a repeated delivery once as a duplicate and rejects a wrong secret', async () => {
    const suite = parseSuite(
      'suite: dup\nscenarios:\n  - name: hi\n    modes: [async]\n    humanMessage: Hello\n',
      'dup.yaml',
    );
    const before = receiver.stats();
    const result = await runPlan({ client, receiver }, [suite], { timeoutMs: 10_000 });
    const record = result.records![0]!;
    expect(record.outcome).toBe('answered');
    const body = JSON.stringify(record.answer);
    const dispatcher = new Agent();
    const url = new URL(webhookUrl);
    url.searchParams.set('secret', SECRET);
    const again = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher,
    });
    expect(again.statusCode).toBeLessThan(300);
    await again.body.dump();
    url.searchParams.set('secret', 'wrong');
    const bad = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher,
    });
    expect(bad.statusCode).toBe(401);
    await bad.body.dump();
    await dispatcher.close();
    const after = receiver.stats();
    expect(after.duplicates - before.duplicates).toBe(1);
    expect(after.badSecret - before.badSecret).toBe(1);
    expect(after.matched - before.matched).toBe(1);
  });
});
