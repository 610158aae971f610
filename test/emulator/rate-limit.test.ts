/**
 * Per-token rate limit: 429 with Retry-After (off by default).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createJsonClient } from './helpers.js';

let emulator: Emulator | undefined;
let client: ReturnType<typeof createJsonClient> | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  emulator = client = undefined;
});

describe('rate limit', () => {
  it('answers 429 {error, message} with Retry-After after max requests per window', async () => {
    emulator = await createEmulator({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    client = createJsonClient(await emulator.listen(), emulator.token);
    const statuses: number[] = [];
    let last;
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
    const url = await emulator.listen();
    const bad = createJsonClient(url, 'nope');
    for (let i = 0; i < 3; i++) expect((await bad.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(401);
    await bad.close();
    client = createJsonClient(url, emulator.token);
    expect((await client.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(200);
  });

  it('is off by default', async () => {
    emulator = await createEmulator();
    client = createJsonClient(await emulator.listen(), emulator.token);
    for (let i = 0; i < 30; i++) expect((await client.call('GET', '/api/droids/1/endpoint/channels')).status).toBe(200);
  });
});
