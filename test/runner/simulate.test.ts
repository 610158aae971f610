/**
 * The runner's `simulate:` path (runner/simulate.ts) against a real emulator and receiver on
 * loopback, with the real simulator (jobs/pipeline/simulator.ts over src/llm) talking to the fake
 * OpenAI-compatible server: each customer line is one answer turn (a `say` step, its latency
 * recorded), and how the conversation ends decides the record: a model that cannot be reached is
 * a judge error (never a pass), a turn the droid does not answer is that turn's outcome.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { simulatorOf } from '../../src/jobs/pipeline/simulator.js';
import { ModelBudget, openModelEndpoint, resolveLlmConfig, type ModelEndpoint } from '../../src/llm/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { executeRequest, verdictOf, type ExecuteContext } from '../../src/runner/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { playCustomer, startFakeOpenAi, type FakeOpenAi } from '../llm/fake-openai.js';

const suite = parseSuite(
  [
    'suite: s',
    'scenarios:',
    '  - name: buys',
    '    simulate: { persona: busy, goal: two shirts, maxTurns: 4 }',
    '    expect:',
    '      turns: 2',
    '      shoppingCart.grandTotal: { money: "2,580.00 THB" }',
    '',
  ].join('\n'),
  's.yaml',
);
const scenario = suite.scenarios[0]!;
const PURCHASE = ['Hi, do you sell Oxford shirts?', "Great, I'll take 2 of them."];

let rig: Loopback;
let slow: Loopback;
let fake: FakeOpenAi;
let dir: string;
let models: ModelEndpoint;
let simulator: ReturnType<typeof simulatorOf>;

beforeAll(async () => {
  rig = await startLoopback();
  slow = await startLoopback({ emulator: { answerDelayMs: 2_000 } });
});
afterAll(async () => {
  await rig.close();
  await slow.close();
});
beforeEach(async () => {
  fake = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-runner-simulate-'));
  const llm = resolveLlmConfig({ judgeModel: 'm' }, { OPENAI_BASE_URL: fake.url }, { retries: 0, timeout: '5s' }, dir)!;
  models = openModelEndpoint(llm);
  simulator = simulatorOf(llm, models, new ModelBudget({ prices: [] }));
});
afterEach(async () => {
  await models.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (r: Loopback, latency: LatencyRecorder, timeoutMs = 5_000): ExecuteContext => ({
  client: r.client,
  receiver: r.receiver,
  clock: systemClock,
  timeoutMs,
  latency,
  simulator,
});

describe('a simulate: scenario in the runner', () => {
  for (const mode of ['sync', 'async'] as const) {
    it(`sends each customer line as one answer turn and judges the last payload (${mode})`, async () => {
      fake.onChat(playCustomer(PURCHASE));
      const latency = new LatencyRecorder();
      const record = await executeRequest({ seq: 0, scenario, mode }, ctx(rig, latency));
      expect(record).toMatchObject({ outcome: 'answered', passed: true, failures: [] });
      expect(record.steps!.map((s) => [s.kind, s.outcome])).toEqual([
        ['say', 'answered'],
        ['say', 'answered'],
      ]);
      expect(record.simulation!.turns.map((t) => t.customer)).toEqual(PURCHASE);
      expect(record.simulation!.end).toBe('stop');
      expect(latency.count(mode === 'sync' ? 'sync' : 'answer')).toBe(2);
    });
  }

  it('makes a model that cannot be reached a judge error, never a pass', async () => {
    fake.onChat(() => ({ status: 400, body: { error: { message: 'no such model' } } }));
    const record = await executeRequest({ seq: 0, scenario, mode: 'sync' }, ctx(rig, new LatencyRecorder()));
    expect(record.passed).toBe(false);
    expect(verdictOf(record)).toBe('judge-error');
    expect(record.judgeErrors![0]).toMatchObject({
      path: 'simulate',
      code: 'DROIDCHECK_ERR_JUDGE',
      location: { file: 's.yaml', line: 4 },
    });
    expect(record.judgeErrors![0]!.message).toMatch(/simulator model m/);
  });

  it('gives the record the outcome of the turn the droid did not answer, with the conversation so far', async () => {
    fake.onChat(playCustomer(PURCHASE));
    const record = await executeRequest({ seq: 0, scenario, mode: 'async' }, ctx(slow, new LatencyRecorder(), 300));
    expect(record.outcome).toBe('timeout');
    expect(record.error!.code).toBe('DROIDCHECK_ERR_TIMEOUT');
    expect(record.steps).toHaveLength(1);
    expect(record.simulation).toMatchObject({ end: 'droid-error', turns: [] });
  });
});
