/**
 * startEmulatorStandalone: what `droidcheck emulate` wraps.
 */
import { describe, expect, it } from 'vitest';
import { startEmulatorStandalone } from '../../src/emulator/index.js';
import { createJsonClient } from './helpers.js';

describe('startEmulatorStandalone', () => {
  it('listens on 127.0.0.1, uses the echo receiver as webhook and closes', async () => {
    const s = await startEmulatorStandalone({ seed: 5 });
    const client = createJsonClient(s.url, s.emulator.token);
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ack = await client.call('POST', '/api/droids/1/endpoint/get-droid-answer-async', {
        humanMessage: { content: 'Hi' },
      });
      expect(ack.status).toBe(200);
      await expect
        .poll(async () => (await client.call('GET', '/api/droids/1/test-async-answer-webhook')).body.total)
        .toBe(1);
    } finally {
      await client.close();
      await s.close();
    }
    await expect(fetch(`${s.url}/api/droids/1/endpoint/channels`)).rejects.toThrow();
  });
});
