/**
 * The example suites under scenarios/steps pass against the emulator (default profile
 * scenarios/emulator-profile.yaml), in both modes, on 127.0.0.1 port 0.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { runSuites } from '../../src/runner/index.js';
import { loadSuites } from '../../src/scenario/index.js';

const SECRET = 'examples-secret-0123456789abcdef012345';

describe('scenarios/steps examples', () => {
  let receiver: Receiver;
  let emulator: Emulator;
  let dispatcher: Agent;
  let client: DroidClient;

  beforeAll(async () => {
    receiver = createReceiver({ secret: SECRET });
    const webhookUrl = await receiver.listen();
    emulator = await createEmulator({ webhookUrl, webhookSecret: SECRET });
    const baseUrl = await emulator.listen();
    dispatcher = new Agent();
    client = new DroidClient({ baseUrl, droidId: emulator.droidId, token: emulator.token, dispatcher });
  });
  afterAll(async () => {
    await emulator?.close();
    await receiver?.close();
    await dispatcher?.close();
  });

  it('all pass, with no contract violations', async () => {
    const suites = await loadSuites(['scenarios/steps']);
    expect(suites.map((s) => s.name).sort()).toEqual(['CRM', 'Conversation', 'Human takeover', 'Images']);
    const result = await runSuites({ suites, client, receiver, concurrency: 4, timeoutMs: 10_000 });
    const failed = result.records.filter((r) => !r.passed).map((r) => ({ s: r.scenario, m: r.mode, o: r.outcome, f: r.failures.map((f) => f.message), e: r.error }));
    expect(failed).toEqual([]);
    expect(result.records.flatMap((r) => r.contractViolations)).toEqual([]);
    expect(result.records.length).toBeGreaterThanOrEqual(6);
  });
});
