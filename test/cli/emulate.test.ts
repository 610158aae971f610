/**
 * `droidcheck emulate` as a real child process: prints its base URL and generated token,
 * answers the async endpoint, takes a webhook change at runtime, stops on SIGINT.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../dist/cli/main.js');

describe('droidcheck emulate (child process)', () => {
  it('serves the API on 127.0.0.1 until SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'emulate', '--port', '0', '--droid-id', '42'], {
      env: { ...process.env, DROID_API_TOKEN: '', DROID_WEBHOOK_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const deadline = Date.now() + 15_000;
    while (!out.includes('Press Ctrl+C') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    try {
      const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const token = /token:\s+(\S+)\s+\(generated/.exec(out)?.[1];
      expect(url).toBeDefined();
      expect(token).toBeDefined();
      expect(out).toContain('droid id:       42');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const ack = await request(`${url}/api/droids/42/endpoint/get-droid-answer-async`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ humanMessage: { content: 'Hello' } }),
      });
      expect(ack.statusCode).toBe(200);
      expect(((await ack.body.json()) as { requestId: string }).requestId).toMatch(/^tpa-/);
      const unset = await request(`${url}/__emulator/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: null }) });
      expect(await unset.body.json()).toEqual({ webhookConfigured: false });
      const refused = await request(`${url}/api/droids/42/endpoint/get-droid-answer-async`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ humanMessage: { content: 'Hello' } }),
      });
      expect(refused.statusCode).toBe(400);
      await refused.body.dump();
    } finally {
      child.kill('SIGINT');
    }
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
    expect(out).toContain('emulator stopped');
  });
});
