/**
 * `droidcheck receive` (docs/scale.md) against a real redis-server: exit codes for usage
 * mistakes and an unreachable Redis (in process); as a child process of the build (`npm run
 * build` first), health checks, /metrics, and a SIGTERM in the middle of a burst of deliveries:
 * the process exits 0 and every delivery it answered 200 is in the stream.
 */
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_MS } from '../helpers/hang.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { answerPayload } from '../receiver/payloads.js';
import { startRedisServer, type RedisServer } from '../receiver/redis-server.js';
import { parsePrometheusText, valueOf } from './metrics-text.js';
import { RIG_ENV, startReceiverCli } from './scale-rig.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.dispose();
});

describe('usage (in process)', () => {
  it('exits 2 without a Redis, naming the flag and the variable', async () => {
    const r = await cli(['receive'], { env: RIG_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--redis redis:\/\/host:6379\/0 or set DROIDCHECK_REDIS_URL/);
  });

  it('exits 2 when Redis cannot be reached at the start, and says so without the password', async () => {
    const r = await cli(['receive', '--port', '0'], {
      env: { ...RIG_ENV, DROIDCHECK_REDIS_URL: 'redis://:hunter2-password@127.0.0.1:1/0' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/DROIDCHECK_ERR_CONFIG: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0/);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses a password in a flag (it shows in the process list)', async () => {
    const r = await cli(['receive', '--redis', 'redis://:pw@127.0.0.1:6379/0'], { env: RIG_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/export DROIDCHECK_REDIS_URL/);
  });

  it('exits 2 when the port is in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const r = await cli(['receive', '--redis', redis.url, '--port', port], { env: RIG_ENV });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--port \d+: the port is already in use/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

it('prints its URLs, answers health checks, serves /metrics, and a SIGTERM mid-burst leaves nothing acknowledged and unpublished', async () => {
  const own = await startRedisServer();
  const stream = 'test:receive-term';
  const r = await startReceiverCli(own.url, stream, 'term', ['--metrics-port', '0']);
  const dispatcher = new Agent({ connections: 32 });
  try {
    expect(r.cli.stdout()).toMatch(/publishing to stream test:receive-term at redis:\/\/127\.0\.0\.1:\d+/);
    expect(r.cli.stdout()).toMatch(
      /answer webhook: +http:\/\/127\.0\.0\.1:\d+\/webhook {3}\(the service appends \?secret=DROID_WEBHOOK_SECRET\)/,
    );
    expect((await request(r.healthUrl, { dispatcher })).statusCode).toBe(200);

    // Deliveries, one with a wrong secret; /metrics says what the receiver did.
    const post = async (id: string, secret = RIG_ENV.DROID_WEBHOOK_SECRET): Promise<number> => {
      const res = await request(`${r.answerUrl}?secret=${secret}`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answerPayload(id)),
      });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await post('tpa-warm-1')).toBe(200);
    expect(await post('tpa-warm-2', 'wrong-secret-000000')).toBe(401);
    const text = await (await request(r.metricsUrl!, { dispatcher })).body.text();
    const families = parsePrometheusText(text);
    expect(
      valueOf(families, 'droidcheck_webhooks_total', { route: 'answer', verdict: 'published', command: 'receive' }),
    ).toBe(1);
    expect(valueOf(families, 'droidcheck_webhooks_total', { route: 'answer', verdict: 'bad_secret' })).toBe(1);
    expect(valueOf(families, 'droidcheck_webhooks_received_total', { route: 'answer' })).toBe(2);

    // A burst, and SIGTERM once 300 were acknowledged.
    const acked: string[] = [];
    let refused = 0;
    const limit = pLimit(32);
    await Promise.all(
      Array.from({ length: 1_500 }, (_, i) =>
        limit(async () => {
          if (acked.length >= 300 && r.cli.child.signalCode === null && !r.cli.child.killed)
            r.cli.child.kill('SIGTERM');
          try {
            if ((await post(`tpa-term-${i}`)) === 200) acked.push(`tpa-term-${i}`);
            else refused++;
          } catch {
            refused++;
          }
        }),
      ),
    );
    expect(await r.cli.exited()).toBe(0);
    expect(acked.length).toBeGreaterThanOrEqual(300);
    expect(refused).toBeGreaterThan(0); // the server stopped accepting
    const client = new Redis(own.url);
    const inStream = new Set((await client.xrange(stream, '-', '+')).map(([, f]) => f[f.indexOf('rid') + 1]));
    client.disconnect();
    expect(acked.filter((id) => !inStream.has(id))).toEqual([]);
    const last = /stopped \(SIGTERM\): received (\d+) · published (\d+) · bad secret (\d+)/.exec(r.cli.stdout());
    expect(last, r.cli.stdout()).not.toBeNull();
    expect(Number(last![2])).toBe(acked.length + 1);
    expect(inStream.size).toBe(acked.length + 2); // + the warm-up pair (the bad secret is published too)
  } finally {
    r.cli.child.kill('SIGKILL');
    await dispatcher.destroy();
    await own.dispose();
  }
});

it('health turns 503 while Redis is away and 200 when it is back', async () => {
  const own = await startRedisServer();
  const r = await startReceiverCli(own.url, 'test:health', 'health');
  try {
    const status = async (): Promise<number> => (await request(r.healthUrl)).statusCode;
    /** The health status once it is `want`, polled every 100 ms for at most HANG_MS. */
    const becomes = async (want: number): Promise<number> => {
      let s = await status();
      for (const end = Date.now() + HANG_MS; s !== want && Date.now() < end; s = await status())
        await new Promise((res) => setTimeout(res, 100));
      return s;
    };
    expect(await status()).toBe(200);
    await own.stop();
    expect(await becomes(503)).toBe(503);
    await own.start();
    expect(await becomes(200)).toBe(200);
  } finally {
    r.cli.child.kill('SIGTERM');
    await r.cli.exited();
    await own.dispose();
  }
});
