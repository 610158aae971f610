/**
 * The flags of coordinated shards and stream deliveries (docs/scale.md): `load --shard i/n` (an
 * execution segment: the scenarios are not split, the arrivals, virtual users and request budget
 * are), `--start-at` (an instant with its offset, at most 1 s past and 24 h ahead; the sleep is
 * interruptible), `--deliveries` / `--stream` (a real target only; a password only from the
 * environment), `--metrics-*`; the merge of the shards' load sections; the emulator's several
 * answer-webhook URLs (taken in turn, a retry to the next one).
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { checkStartAt, sleepUntil } from '../../src/jobs/pipeline/start-at.js';
import { mergeLoadSections } from '../../src/report/sections/load.js';
import type { LoadSection } from '../../src/report/index.js';
import { loadSpec } from '../../src/jobs/load/load.js';
import { runSpec } from '../../src/jobs/run/run.js';
import { selectSuites } from '../../src/jobs/pipeline/select.js';
import { testClock } from '../receiver/test-clock.js';

const REMOTE = { baseUrl: 'http://127.0.0.1:9', droidId: 1 };
const ENV = { DROID_API_TOKEN: 'tok-0123456789abcdef' };

describe('load --shard: an execution segment of the whole load', () => {
  it('keeps every scenario, takes its share of the virtual users, the request budget and its own seed', async () => {
    const whole = resolveConfig('load', {
      paths: ['scenarios'],
      duration: '5s',
      concurrency: 5,
      maxRequests: 7,
      seed: 10,
    });
    const shards = [1, 2, 3].map((i) =>
      resolveConfig('load', {
        paths: ['scenarios'],
        duration: '5s',
        concurrency: 5,
        maxRequests: 7,
        seed: 10,
        shard: `${i}/3`,
      }),
    );
    const vus = shards.map((c) => (c.load!.model.kind === 'closed' ? c.load!.model.concurrency : 0));
    expect(vus).toEqual([2, 2, 1]);
    expect(shards.map((c) => c.load!.maxRequests)).toEqual([3, 2, 2]);
    expect(shards.map((c) => c.load!.seed)).toEqual([10, 11, 12]);
    expect(shards[1]!.load!.segment).toEqual({ index: 2, total: 3 });
    // Every shard runs every stateless scenario (load --shard splits arrivals); each scenario that
    // acts on a customer's state runs in one shard only (shards cannot take turns on a customer).
    const scenarios = async (c: typeof whole) =>
      (await selectSuites(c, loadSpec(c).reads)).flatMap((s) => s.scenarios).map((sc) => `${sc.suite}/${sc.name}`);
    const all = await scenarios(whole);
    const stateful = (await selectSuites(whole, loadSpec(whole).reads))
      .flatMap((s) => s.scenarios)
      .filter((sc) => sc.steps?.some((st) => st.kind === 'call' && st.customerId !== undefined))
      .map((sc) => `${sc.suite}/${sc.name}`);
    expect(stateful.length).toBeGreaterThan(1);
    const perShard = await Promise.all(shards.map(scenarios));
    for (const mine of perShard)
      expect(mine.filter((n) => !stateful.includes(n)).sort()).toEqual(all.filter((n) => !stateful.includes(n)).sort());
    expect(
      perShard
        .flat()
        .filter((n) => stateful.includes(n))
        .sort(),
    ).toEqual([...stateful].sort());
    const runConfig = resolveConfig('run', { paths: ['scenarios'], shard: '1/3' });
    const run = await selectSuites(runConfig, runSpec(runConfig).reads);
    expect(run.flatMap((s) => s.scenarios).length).toBeLessThan(all.length);
  });

  it('refuses a shard that would get no virtual user', () => {
    expect(() => resolveConfig('load', { duration: '5s', concurrency: 2, shard: '3/3' })).toThrow(
      /--concurrency 2 leaves this shard nothing; use at most 2 shards/,
    );
  });

  it('open model: the stages stay whole in the config, the segment goes to the scheduler', () => {
    const c = resolveConfig('load', { stages: '10s:100,10s:0', shard: '2/4' });
    expect(c.load!.model).toEqual({
      kind: 'open',
      startRate: 0,
      stages: [
        { durationMs: 10_000, target: 100 },
        { durationMs: 10_000, target: 0 },
      ],
    });
    expect(c.load!.segment).toEqual({ index: 2, total: 4 });
  });
});

describe('--start-at', () => {
  it('takes an ISO 8601 instant with its offset, as UTC', () => {
    expect(resolveConfig('load', { rate: 1, startAt: '2026-05-01T14:00:00+02:00' }).load!.startAt).toBe(
      '2026-05-01T12:00:00.000Z',
    );
    expect(resolveConfig('load', { rate: 1, startAt: '2026-05-01T12:00:00.250Z' }).load!.startAt).toBe(
      '2026-05-01T12:00:00.250Z',
    );
    for (const bad of ['2026-05-01T12:00:00', 'tomorrow', '2026-05-01', '+30s']) {
      expect(() => resolveConfig('load', { rate: 1, startAt: bad }), bad).toThrow(
        /is not an ISO 8601 time with its offset/,
      );
    }
    expect(() => resolveConfig('run', { startAt: '2026-05-01T12:00:00Z' })).toThrow(
      /--start-at is an option of `droidcheck load`/,
    );
  });

  it('refuses an instant more than 1 s past or more than 24 h ahead', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(checkStartAt('2026-05-01T11:59:59.500Z', now)).toBe(now - 500);
    expect(() => checkStartAt('2026-05-01T11:59:58.000Z', now)).toThrow(
      expect.objectContaining({ code: 'DROIDCHECK_ERR_USAGE', message: expect.stringMatching(/2 s in the past/) }),
    );
    expect(checkStartAt('2026-05-02T11:59:00Z', now)).toBe(now + 24 * 3_600_000 - 60_000);
    expect(() => checkStartAt('2026-05-02T12:00:01Z', now)).toThrow(/more than 24 h ahead/);
  });

  it('sleeps until the instant on the wall clock given, and an abort ends the sleep', async () => {
    // A clock whose wall clock reads its monotonic ms: 0 at the start.
    const clock = testClock(0, 0);
    let lag: number | undefined;
    const waiting = sleepUntil(40, clock).then((ms) => (lag = ms));
    clock.advance(30);
    await new Promise((r) => setImmediate(r));
    expect(lag).toBeUndefined();
    // The sleep ends once the clock passed the instant; it says by how much.
    clock.advance(11);
    expect(await waiting).toBe(1);
    const stop = new AbortController();
    const long = sleepUntil(60_000, clock, stop.signal);
    stop.abort();
    expect(await long).toBe(0);
  });
});

describe('--deliveries and --metrics-port', () => {
  it('reads a stream of a real target; the URL from the flag or DROIDCHECK_REDIS_URL', () => {
    const c = resolveConfig('load', { ...REMOTE, rate: 1, deliveries: 'redis://10.0.0.5:6380/2', stream: 'x:y' }, ENV);
    expect(c.deliveries).toEqual({ redisUrl: 'redis://10.0.0.5:6380/2', stream: 'x:y' });
    const fromEnv = resolveConfig(
      'run',
      { ...REMOTE, deliveries: true },
      { ...ENV, DROIDCHECK_REDIS_URL: 'redis://:s3cret-pass@redis:6379/0', DROIDCHECK_STREAM: 'env:stream' },
    );
    expect(fromEnv.deliveries).toEqual({ redisUrl: 'redis://:s3cret-pass@redis:6379/0', stream: 'env:stream' });
    expect(resolveConfig('run', { ...REMOTE }, ENV).deliveries).toBeUndefined();
  });

  it('refuses what cannot work, saying what to do', () => {
    expect(() => resolveConfig('run', { deliveries: 'redis://127.0.0.1:6379' })).toThrow(
      /--deliveries reads what `droidcheck receive` publishes for a real target/,
    );
    expect(() => resolveConfig('run', { ...REMOTE, deliveries: true }, ENV)).toThrow(
      /DROIDCHECK_REDIS_URL, which is not set/,
    );
    expect(() => resolveConfig('run', { ...REMOTE, deliveries: 'redis://:pw@h:6379' }, ENV)).toThrow(
      /password in a flag/,
    );
    expect(() => resolveConfig('run', { ...REMOTE, deliveries: 'http://h:6379' }, ENV)).toThrow(
      /must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => resolveConfig('run', { ...REMOTE, deliveries: 'redis://h:6379/x' }, ENV)).toThrow(
      /not a database number/,
    );
    expect(() => resolveConfig('run', { ...REMOTE, deliveries: 'redis://h:6379', receiverPort: 8787 }, ENV)).toThrow(
      /--receiver-port configures a receiver of this process/,
    );
    expect(() => resolveConfig('run', { stream: 'x' })).toThrow(/give --deliveries too/);
  });

  it('--metrics-port with host and linger', () => {
    expect(resolveConfig('run', { metricsPort: '9464' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
      lingerMs: 0,
    });
    expect(resolveConfig('run', { metricsPort: 0, metricsHost: '0.0.0.0', metricsLinger: '15s' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 0,
      lingerMs: 15_000,
    });
    expect(() => resolveConfig('run', { metricsLinger: '5s' })).toThrow(/--metrics-linger needs --metrics-port/);
    expect(() => resolveConfig('run', { metricsPort: 70_000 })).toThrow(/--metrics-port/);
  });
});

describe('merging the load sections of shards', () => {
  const section = (over: Partial<LoadSection>): LoadSection => ({
    model: 'open',
    sent: 100,
    warmupSent: 5,
    dropped: 1,
    measuredMs: 10_000,
    achievedRate: 10,
    answeredRate: 10,
    ...over,
  });

  it('sums the counts over the longest window, keeps every shard, and is generator-bound when one shard was', () => {
    const generator = (p99Ms: number) => ({ generatorBound: p99Ms > 10, p99Ms, limitMs: 10, message: '' });
    const m = mergeLoadSections(
      [
        section({ shards: ['1/2'], startAt: '2026-05-01T12:00:00.000Z', startLagMs: 3, generator: generator(2) }),
        section({
          sent: 101,
          measuredMs: 10_100,
          shards: ['2/2'],
          startAt: '2026-05-01T12:00:00.000Z',
          startLagMs: 7,
          generator: generator(25),
        }),
      ],
      180,
    )!;
    expect(m).toMatchObject({
      sent: 201,
      warmupSent: 10,
      dropped: 2,
      measuredMs: 10_100,
      achievedRate: 19.901,
      answeredRate: 17.822,
      shards: ['1/2', '2/2'],
      startAt: '2026-05-01T12:00:00.000Z',
      startLagMs: 7,
    });
    expect(m.generator).toMatchObject({ generatorBound: true, limitMs: 10 });
    expect(m.generator!.message).toMatch(/generator-bound on 1 of 2 shards \(no send delay kept to pool\)/);
    expect(mergeLoadSections([undefined, undefined], 0)).toBeUndefined();
  });
});

describe('several answer-webhook URLs (a load balancer in front of receivers)', () => {
  let emulator: Emulator | undefined;
  const servers: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    await emulator?.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('deliveries take the URLs in turn, and a failed attempt is retried at the next URL', async () => {
    const got = { a: [] as string[], b: [] as string[] };
    const receiver = async (name: 'a' | 'b', status: number): Promise<string> => {
      const app = Fastify();
      app.post('/webhook', async (req, reply) => {
        got[name].push((req.body as { requestId: string }).requestId);
        return reply.code(status).send({});
      });
      servers.push(app);
      return `${await app.listen({ host: '127.0.0.1', port: 0 })}/webhook`;
    };
    const a = await receiver('a', 503); // a receiver that is down
    const b = await receiver('b', 200);
    emulator = await createEmulator({
      webhookUrl: [a, b],
      webhookSecret: 'whsec-0123456789',
      delivery: { attempts: 2, backoffMs: 1, maxBackoffMs: 1 },
    });
    const base = await emulator.listen();
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${base}/api/droids/${emulator.droidId}/endpoint/get-droid-answer-async`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ humanMessage: { content: `hello ${i}` } }),
      });
      expect(res.status).toBe(200);
    }
    await expect.poll(() => emulator!.stats().pending).toBe(0);
    const s = emulator.stats();
    expect(s.delivered).toBe(6); // every one reached b: first try, or the retry after a
    expect(s.deliveryFailures).toBe(0);
    expect(got.a).toHaveLength(3); // every other first attempt went to a...
    expect(s.retries).toBe(3); // ...and was retried at b
    expect(new Set(got.b).size).toBe(6);
  });
});
