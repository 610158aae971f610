/**
 * A receiver killed (SIGKILL) in the middle of a sharded run loses no delivery it acknowledged
 * (docs/scale.md): two `droidcheck receive` behind `emulate --webhook-url` twice, one `load
 * --deliveries` reading the stream; one receiver is killed once it has taken 40 deliveries.
 * Every delivery the emulator saw it acknowledge (200 in the delivery log) reaches the shard as
 * an answer, and the emulator's retries (to the next URL, the live receiver) answer the rest.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';
import { startRedisServer, type RedisServer } from '../receiver/redis-server.js';
import { RIG_ENV, readRecords, readReport, shardArgs, startEmulatorCli, startReceiverCli, stop } from './scale-rig.js';

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await startRedisServer();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-kill-'));
});
afterAll(async () => {
  await redis.dispose();
  await rm(dir, { recursive: true, force: true });
});

it('a receiver killed mid-run loses no delivery it acknowledged; the retries go to the other one', async () => {
  const stream = 'test:kill-receiver';
  const [victim, survivor] = [
    await startReceiverCli(redis.url, stream, 'victim'),
    await startReceiverCli(redis.url, stream, 'survivor'),
  ];
  const emulator = await startEmulatorCli([victim!.answerUrl, survivor!.answerUrl], ['--answer-delay', '50ms']);
  try {
    const out = join(dir, 'load');
    const load = startCli(
      shardArgs({ baseUrl: emulator.baseUrl, redisUrl: redis.url, stream, out, rate: 40, duration: '4s' }),
      RIG_ENV,
    );
    const exited = load.exited();
    // Kill the victim once it acknowledged 40 deliveries (about a third of the run).
    let killedAfter = 0;
    for (const end = Date.now() + HANG_MS; Date.now() < end && load.child.exitCode === null; ) {
      killedAfter = (await emulator.deliveries()).filter((d) => d.ok && d.targetUrl === victim!.answerUrl).length;
      if (killedAfter >= 40) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    victim!.cli.child.kill('SIGKILL');
    expect(await victim!.cli.exited()).toBe('SIGKILL');
    expect(await exited, load.stderr()).toBe(0);

    const log = await emulator.deliveries();
    const stats = await emulator.stats();
    const acknowledgedByVictim = new Set(
      log.filter((d) => d.ok && d.targetUrl === victim!.answerUrl).map((d) => d.requestId),
    );
    expect(acknowledgedByVictim.size).toBeGreaterThanOrEqual(killedAfter);
    expect(log.some((d) => !d.ok && d.targetUrl === victim!.answerUrl)).toBe(true); // deliveries did hit the dead receiver
    expect(stats.retries).toBeGreaterThan(0);

    const records = await readRecords(join(out, 'results.ndjson'));
    const answered = new Set(records.filter((r) => r.outcome === 'answered').map((r) => r.requestId));
    expect([...acknowledgedByVictim].filter((id) => !answered.has(id))).toEqual([]);
    // The retries reached the survivor: every accepted request was answered.
    expect(answered.size).toBe(stats.accepted);
    const report = await readReport(join(out, 'report.json'));
    expect(report.summary.outcomes.answered).toBe(stats.accepted);
    const c = report.receiver;
    expect(c.received).toBe(c.matched + c.duplicates + c.late + c.orphans + c.foreign + c.badSecret + c.malformed);
    expect(c.matched).toBe(stats.accepted);
  } finally {
    await stop(emulator.cli);
    await stop(survivor!.cli);
    victim!.cli.child.kill('SIGKILL');
  }
});
