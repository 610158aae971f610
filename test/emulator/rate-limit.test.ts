/**
 * Per-token rate limit: 429 with Retry-After (off by default), through inject() (no socket needed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { injectClient } from './helpers.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('rate limit', () => {
  it('answers 429 {error, message} with Retry-After after max requests per window', async () => {
    emulator = await createEmulator({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    const client = injectClient(emulator);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof client.call>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await client.call('GET', '/api/droids/1/endpoint/channels');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last!.body.error).toBe('Too Many Requests');
    expect(typeof last!.body.message).toBe('string');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts per token: a bad token is refused with 401, not counted', async () => {
    emulator = await createEmulator({ rateLimit: { max: 1, timeWindowMs: 60_000 } });
    const bad = injectClient(emulator, 'nope');
    for (let i = 0; i < 3; i++) expect((await bad.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(401);
    expect((await injectClient(emulator).call('GET', '/api/droids/1/endpoint/channels')).status).toBe(200);
  });

  it('is off by default', async () => {
    emulator = await createEmulator();
    const client = injectClient(emulator);
    for (let i = 0; i < 30; i++) expect((await client.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(200);
  });
});
