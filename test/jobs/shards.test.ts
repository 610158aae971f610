/**
 * Issue 13, "Done when", with the real parts on loopback: a redis-server, two `droidcheck
 * receive` processes behind the emulator's answer webhook (`emulate --webhook-url` twice: the
 * emulator takes them in turn, like a load balancer), and two `droidcheck load --shard i/2
 * --deliveries redis://` processes started with one `--start-at`, then `droidcheck merge` (in
 * process).
 * The merged report's requests equal the emulator's accepted count, every answer is matched
 * exactly once, and the counts add up per shard and merged. A few seconds of load at a modest
 * rate; nothing here asserts a latency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';
import { cliInProcess } from '../helpers/in-process-cli.js';
import { renderHtmlReport, renderMarkdownSummary } from '../../src/report/index.js';
import { startRedisServer, type RedisServer } from '../receiver/redis-server.js';
import { RIG_ENV, readRecords, readReport, shardArgs, startEmulatorCli, startReceiverCli, stop } from './scale-rig.js';

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await startRedisServer();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-shards-'));
});
afterAll(async () => {
  await redis.dispose();
  await rm(dir, { recursive: true, force: true });
});

it('two receivers behind the emulator, two shards with one --start-at, merged: every accepted request answered and matched once', async () => {
  const stream = 'test:shards';
  const receivers = [await startReceiverCli(redis.url, stream, 'r1'), await startReceiverCli(redis.url, stream, 'r2')];
  const emulator = await startEmulatorCli(
    receivers.map((r) => r.answerUrl),
    ['--answer-delay', '100ms'],
  );
  let stopped: (number | NodeJS.Signals)[] = [];
  try {
    // Both shards must have parsed --start-at before it passes (more than 1 s late is refused,
    // exit 2): give them three times what starting a CLI costs on this machine now (the receivers'
    // and the emulator's start just measured), and 20 s at least. A fixed 6 s lost one shard when
    // the machine was busy, and twice the measured start lost one when `npm test` ran this file
    // at a low priority beside the timing project, which stalls a starting CLI for seconds. The
    // wait is idle: it costs this file time, not the suite's CPU.
    const lead = Math.max(20_000, 3 * Math.max(emulator.startMs, ...receivers.map((r) => r.startMs)));
    const startAt = new Date(Date.now() + lead).toISOString();
    const outs = [join(dir, 'shard-1'), join(dir, 'shard-2')];
    const shards = outs.map((out, i) =>
      startCli(
        shardArgs({
          baseUrl: emulator.baseUrl,
          redisUrl: redis.url,
          stream,
          out,
          rate: 40,
          duration: '3s',
          shard: `${i + 1}/2`,
          startAt,
        }),
        RIG_ENV,
      ),
    );
    const codes = await Promise.all(shards.map((s) => s.exited(lead + HANG_MS))); // they sleep through the lead first
    expect(codes, shards.map((s) => s.stderr()).join('\n')).toEqual([0, 0]);
    for (const s of shards) expect(s.stderr()).toMatch(/waiting until/);

    const stats = await emulator.stats();
    const [one, two] = await Promise.all(outs.map((o) => readReport(join(o, 'report.json'))));
    const reports = [one!, two!];

    // Each shard: its share of the arrivals (120 in all: 60 and 60), all answered, its invariant.
    for (const [i, r] of reports.entries()) {
      expect(r.load!.shards).toEqual([`${i + 1}/2`]);
      expect(r.load!.startAt).toBe(startAt);
      expect(r.summary.requests).toBe(60);
      expect(r.summary.outcomes.answered).toBe(60);
      expect(r.receiver.matched).toBe(60);
      expect(
        r.receiver.duplicates + r.receiver.orphans + r.receiver.late + r.receiver.badSecret + r.receiver.malformed,
      ).toBe(0);
      const c = r.receiver;
      expect(c.received).toBe(c.matched + c.duplicates + c.late + c.orphans + c.foreign + c.badSecret + c.malformed);
      expect(r.accounting!.webhooks.received).toBe(r.accounting!.webhooks.classified);
      expect(r.stream!.shards).toHaveLength(1);
      expect(r.stream!.shards[0]!.receivers.map((x) => x.receiverId).sort()).toEqual(['r1', 'r2']);
      // The shard's requestIds: its own, answered (NDJSON records).
      const records = await readRecords(join(outs[i]!, 'results.ndjson'));
      expect(records.filter((x) => x.outcome === 'answered')).toHaveLength(60);
    }
    const ids = (await Promise.all(outs.map((o) => readRecords(join(o, 'results.ndjson')))))
      .flat()
      .map((x) => x.requestId);
    expect(new Set(ids).size).toBe(120);

    // Both receivers took deliveries, in turn.
    const log = await emulator.deliveries();
    const taken = receivers.map((r) => log.filter((d) => d.ok && d.targetUrl === r.answerUrl).length);
    expect(taken[0]! + taken[1]!).toBe(120);
    for (const n of taken) expect(n).toBeGreaterThanOrEqual(50); // 60 each unless an attempt failed and went to the other

    // merge: one load of 120 arrivals, requests = the emulator's accepted count, every answer matched once.
    const merged = await cliInProcess(
      [
        'merge',
        join(outs[0]!, 'report.json'),
        join(outs[1]!, 'report.json'),
        '-o',
        join(dir, 'merged'),
        '-r',
        'json',
        '-r',
        'console',
      ],
      { env: RIG_ENV },
    );
    expect(merged.code, merged.stderr).toBe(0);
    const m = await readReport(join(dir, 'merged', 'report.json'));
    expect(stats.accepted).toBe(120);
    expect(m.summary.requests).toBe(stats.accepted);
    expect(m.summary.outcomes.answered).toBe(stats.accepted);
    expect(m.receiver.matched).toBe(stats.accepted);
    expect(m.receiver.duplicates + m.receiver.orphans + m.receiver.late).toBe(0);
    expect(m.latency.answer.count).toBe(stats.accepted);
    // Over the shards, received - foreign counts every stream entry once.
    const client = new Redis(redis.url);
    const entries = await client.xlen(stream);
    client.disconnect();
    expect(entries).toBe(stats.delivered);
    expect(m.receiver.received - m.receiver.foreign).toBe(entries);
    expect(m.accounting!.requests).toBe(120);
    expect(m.load!.sent).toBe(120);
    expect(m.load!.shards).toEqual(['1/2', '2/2']);
    expect(m.load!.startAt).toBe(startAt);
    expect(m.stream!.shards).toHaveLength(2);
    expect(merged.stdout).toMatch(/Stream {2}test:shards/);
    // Shards and the start are in every format (they were on the console only).
    for (const text of [merged.stdout, renderMarkdownSummary(m), renderHtmlReport(m)]) {
      expect(text).toContain('1/2, 2/2 (execution segments of one load)');
      expect(text).toContain(`${startAt}, `);
    }
    // The same section in summary.md and report.html, rendered from the merged report.
    expect(renderMarkdownSummary(m)).toMatch(
      /### Stream: test:shards at redis:\/\/127\.0\.0\.1:\d+\S* · foreign \d+ .* · 2 shards\n\n_clock skew: receivers vs shards at most /,
    );
    expect(renderHtmlReport(m)).toContain('<section class="section" id="stream"><h2>Stream</h2>\n<p>test:shards at ');
    // Timelines line up: interval i of the merge holds interval i of each shard.
    const started = (r: typeof m): number[] => r.timeline!.points.map((p) => p.started);
    const sum = started(m).reduce((a, b) => a + b, 0);
    expect(sum).toBe(120);
    expect(started(m).slice(0, 3)).toEqual(
      [0, 1, 2].map((k) => (started(reports[0]!)[k] ?? 0) + (started(reports[1]!)[k] ?? 0)),
    );
  } finally {
    await stop(emulator.cli);
    stopped = await Promise.all(receivers.map((r) => stop(r.cli)));
  }
  // After the try, not in its finally: a failure above is reported as itself, not as the count
  // of the receivers' last line that followed from it.
  expect(stopped).toEqual([0, 0]);
  const published = receivers.map((r) =>
    Number(/stopped \(SIGTERM\): received \d+ · published (\d+)/.exec(r.cli.stdout())?.[1]),
  );
  expect(published[0]! + published[1]!).toBe(120);
});
