/**
 * The example suites under scenarios/steps pass against the emulator (default profile
 * scenarios/emulator-profile.yaml), in both modes, on 127.0.0.1 port 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DroidClient } from '../../src/client/index.js';
import type { Receiver } from '../../src/receiver/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { runPlan } from '../helpers/engine.js';
import { loadSuites } from '../../src/scenario/index.js';

const SECRET = 'examples-secret-0123456789abcdef012345';

describe('scenarios/steps examples', () => {
  let rig: Loopback;
  let receiver: Receiver;
  let client: DroidClient;

  beforeAll(async () => {
    rig = await startLoopback({ secret: SECRET });
    ({ receiver, client } = rig);
    // As `droidcheck run` wires the embedded emulator: messages and intents to the receiver.
    rig.emulator.setMessageWebhook(receiver.urls()!.messages);
    rig.emulator.setIntentWebhook({ url: receiver.urls()!.intents });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('all pass, with no contract violations', async () => {
    const suites = await loadSuites(['scenarios/steps']);
    expect(suites.map((s) => s.name).sort()).toEqual(['CRM', 'Conversation', 'Human takeover', 'Images']);
    const result = await runPlan({ client, receiver }, suites, { concurrency: 4, timeoutMs: 10_000 });
    const failed = result
      .records!.filter((r) => !r.passed)
      .map((r) => ({ s: r.scenario, m: r.mode, o: r.outcome, f: r.failures.map((f) => f.message), e: r.error }));
    expect(failed).toEqual([]);
    expect(result.records!.flatMap((r) => r.contractViolations)).toEqual([]);
    expect(result.records!.length).toBeGreaterThanOrEqual(6);
  });
});
