/**
 * `droidcheck emulate` as a real child process: prints its base URL and generated token,
 * answers the async endpoint, takes a webhook change at runtime, stops on SIGINT.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startCli, until } from '../helpers/cli.js';

describe('droidcheck emulate (child process)', () => {
  it('serves the API on 127.0.0.1 until SIGINT', async () => {
    const cli = startCli(['emulate', '--port', '0', '--droid-id', '42'], {});
    await until(() => cli.stdout().includes('Press Ctrl+C'), 'the emulator to listen');
    const out = cli.stdout();
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
      const unset = await request(`${url}/__emulator/webhook`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ url: null }),
      });
      expect(await unset.body.json()).toEqual({ webhookConfigured: false });
      const refused = await request(`${url}/api/droids/42/endpoint/get-droid-answer-async`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ humanMessage: { content: 'Hello' } }),
      });
      expect(refused.statusCode).toBe(400);
      await refused.body.dump();
    } finally {
      cli.child.kill('SIGINT');
    }
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).toContain('emulator stopped');
  });
});
