/**
 * A publishing receiver killed with SIGKILL mid-run loses no delivery it acknowledged:
 * it answers 200 only after XADD returned. The receiver runs from the build (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerPayload } from './payloads.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const BUILT = fileURLToPath(new URL('../../dist/receiver/index.js', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/publishing-receiver.mjs', import.meta.url));
const SECRET = 'whsec-kill-0123456789abcdef0123456789abcd';
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.dispose();
});

it('a receiver killed with SIGKILL mid-run loses no delivery it acknowledged', async () => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" before this test`);
  const stream = 'test:kill';
  const child = spawn(process.execPath, [CHILD, redis.url, stream], {
    env: { PATH: process.env.PATH ?? '', SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}: ${stderr}`)));
  });
  const dispatcher = new Agent({ connections: 32 });
  const acked: string[] = [];
  let failed = 0;
  const limit = pLimit(32);
  await Promise.all(
    Array.from({ length: 2_000 }, (_, i) =>
      limit(async () => {
        const id = `tpa-kill-${i}`;
        if (acked.length === 300 && !child.killed) child.kill('SIGKILL');
        try {
          const res = await request(`${url}?secret=${SECRET}`, {
            dispatcher,
            method: 'POST',
            body: JSON.stringify(answerPayload(id)),
          });
          await res.body.dump();
          if (res.statusCode === 200) acked.push(id);
          else failed++;
        } catch {
          failed++;
        }
      }),
    ),
  );
  await exited;
  await dispatcher.destroy();
  expect(acked.length).toBeGreaterThanOrEqual(300);
  expect(failed).toBeGreaterThan(0);
  const client = new Redis(redis.url);
  const inStream = new Set(
    (await client.xrange(stream, '-', '+')).map(([, fields]) => fields[fields.indexOf('rid') + 1]),
  );
  client.disconnect();
  expect(acked.filter((id) => !inStream.has(id))).toEqual([]);
});
