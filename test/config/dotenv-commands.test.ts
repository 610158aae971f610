/**
 * `.env` reaches every command, as docs/options.md says ("flags > environment > `.env` > config
 * file > defaults", for every command): the built CLI in a working directory whose `.env` holds
 * DROID_API_TOKEN (and the other variables a command reads), with none of them in the process's
 * environment. `emulate` serves with the token, `doctor` and `webhook-policy` reach a real target
 * with it (each fails without it: no token is a failed check, or exit 2 before anything is
 * sent), and `receive` publishes to the Redis of DROIDCHECK_REDIS_URL and checks the secret of
 * DROID_WEBHOOK_SECRET (it reads no token: the service never calls it with one).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import { droidcheck, freePort, startCli, until } from '../helpers/cli.js';
import { startRedisServer } from '../receiver/redis-server.js';

const TOKEN = 'dotenv-token-0123456789abcdef';
const SECRET = 'dotenv-secret-0123456789abcdefghij';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-dotenv-'));
  await writeFile(
    join(dir, '.env'),
    `# the project's secrets\nDROID_API_TOKEN=${TOKEN}\nDROID_WEBHOOK_SECRET="${SECRET}"\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DROID_API_TOKEN in .env', () => {
  it('emulate serves with it: the token is accepted, another refused', async () => {
    const cli = startCli(['emulate', '--port', '0'], {}, dir);
    try {
      await until(() => cli.stdout().includes('Press Ctrl+C'), 'emulate to listen');
      expect(cli.stdout()).toContain('token:          (from --token / DROID_API_TOKEN)');
      const url = /listening at (http:\/\/\S+)/.exec(cli.stdout())![1]!;
      const droid = /droid id:\s+(\d+)/.exec(cli.stdout())![1]!;
      const channels = (token: string) =>
        request(`${url}/api/droids/${droid}/endpoint/channels`, { headers: { authorization: `Bearer ${token}` } });
      const ok = await channels(TOKEN);
      await ok.body.dump();
      expect(ok.statusCode).toBe(200);
      const refused = await channels('another-token-0123456789');
      await refused.body.dump();
      expect(refused.statusCode).toBe(401);
    } finally {
      cli.child.kill('SIGINT');
      expect(await cli.exited()).toBe(0);
    }
  });

  it('doctor reaches a real target with it: the token check passes', async () => {
    const emulator = await createEmulator({ token: TOKEN });
    try {
      const url = await emulator.listen();
      const r = await droidcheck(['doctor', '--base-url', url, '--droid-id', String(emulator.droidId)], { cwd: dir });
      expect(r.stdout).toMatch(/✓ token accepted/);
      expect(r.stdout).toMatch(/✓ webhook secret\s+DROID_WEBHOOK_SECRET set, 34 characters/);
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.code).toBe(0);
    } finally {
      await emulator.close();
    }
  });

  it('webhook-policy reaches a real target with it, and its receiver checks the secret of .env', async () => {
    const port = await freePort();
    const emulator = await createEmulator({
      token: TOKEN,
      webhookUrl: `http://127.0.0.1:${port}/webhook`,
      webhookSecret: SECRET,
      delivery: { attempts: 1, jitter: 0 },
    });
    try {
      const url = await emulator.listen();
      const out = join(dir, 'policy');
      const r = await droidcheck(
        [
          'webhook-policy',
          ...['--base-url', url, '--droid-id', String(emulator.droidId), '--receiver-port', String(port)],
          ...['--probes', 'fail', '--quiet', '1s', '--timeout', '30s', '-o', out],
        ],
        { cwd: dir },
      );
      expect(r.stderr).not.toContain('DROID_API_TOKEN');
      expect(r.code).toBe(0);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
        webhookPolicy: { attempts: number };
        receiver: { received: number; badSecret: number };
      };
      expect(report.webhookPolicy.attempts).toBe(1);
      expect(report.receiver).toMatchObject({ received: 1, badSecret: 0 });
    } finally {
      await emulator.close();
    }
  });
});

describe('receive reads .env', () => {
  it('publishes to the Redis of DROIDCHECK_REDIS_URL and checks the secret of DROID_WEBHOOK_SECRET', async () => {
    const redis = await startRedisServer();
    const here = await mkdtemp(join(tmpdir(), 'droidcheck-dotenv-receive-'));
    try {
      await writeFile(join(here, '.env'), `DROIDCHECK_REDIS_URL=${redis.url}\nDROID_WEBHOOK_SECRET=${SECRET}\n`);
      const cli = startCli(['receive', '--port', '0', '--stream', 'dotenv:test'], {}, here);
      try {
        await until(() => cli.stdout().includes('Press Ctrl+C'), 'receive to listen');
        expect(cli.stdout()).toContain(`publishing to stream dotenv:test at ${redis.url}`);
        expect(cli.stdout()).toContain('(the service appends ?secret=DROID_WEBHOOK_SECRET)');
      } finally {
        cli.child.kill('SIGTERM');
        expect(await cli.exited()).toBe(0);
      }
    } finally {
      await redis.dispose();
      await rm(here, { recursive: true, force: true });
    }
  });
});
