/**
 * The shop policy inside the runner, against a real emulator and receiver on loopback: each
 * customer line of a `simulate:` conversation (the real simulator over the fake
 * OpenAI-compatible server) is an answer turn judged by the policy, its violations failures of
 * that turn with its number; a plain scenario's answer too, in both modes, with its requestId.
 * Each turn is also counted in the job's coverage: what the simulated customer asked, what
 * reached the cart, the rules' verdicts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { CoverageRecorder } from '../../src/coverage/index.js';
import { simulatorOf } from '../../src/jobs/pipeline/simulator.js';
import { ModelBudget, openModelEndpoint, resolveLlmConfig, type ModelEndpoint } from '../../src/llm/index.js';
import { LatencyRecorder } from '../../src/metrics/index.js';
import { parsePolicy, PolicyJudge } from '../../src/policy/index.js';
import { type ExecuteContext, executeRequest } from '../../src/runner/index.js';
import { parseSuite } from '../../src/scenario/index.js';
import { playCustomer, startFakeOpenAi, type FakeOpenAi } from '../llm/fake-openai.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';

/** The demo shop with the Oxford shirt listed at 990: the emulator's 1,290 breaks it. */
const POLICY = 'currency: THB\ncatalogue:\n  - { name: Oxford shirt, price: 990 }\n';

const suite = parseSuite(
  [
    'suite: s',
    'scenarios:',
    '  - name: buys',
    '    simulate: { persona: busy, goal: two shirts, maxTurns: 4 }',
    '  - name: plain',
    '    humanMessage: I want to buy 2 Oxford shirts',
    '',
  ].join('\n'),
  's.yaml',
);

let rig: Loopback;
let fake: FakeOpenAi;
let dir: string;
let models: ModelEndpoint;
let simulator: ReturnType<typeof simulatorOf>;

beforeAll(async () => {
  rig = await startLoopback();
  fake = await startFakeOpenAi();
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-policy-sim-'));
  const llm = resolveLlmConfig({ judgeModel: 'm' }, { OPENAI_BASE_URL: fake.url }, { retries: 0, timeout: '5s' }, dir)!;
  models = openModelEndpoint(llm);
  simulator = simulatorOf(llm, models, new ModelBudget({ prices: [] }));
});
afterAll(async () => {
  await models.close();
  await fake.close();
  await rig.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (policy: PolicyJudge, coverage?: CoverageRecorder): ExecuteContext => ({
  client: rig.client,
  receiver: rig.receiver,
  clock: systemClock,
  timeoutMs: 5_000,
  latency: new LatencyRecorder(),
  simulator,
  policy,
  coverage,
});

describe('the shop policy in the runner', () => {
  it("judges each simulated customer's turn: the violation fails that turn, with its number", async () => {
    fake.onChat(playCustomer(['Hi, do you sell Oxford shirts?', "Great, I'll take 2 of them."]));
    const judge = new PolicyJudge(parsePolicy(POLICY, 'p.yaml'));
    const coverage = new CoverageRecorder({ shop: judge.policy, rules: true });
    const record = await executeRequest({ seq: 0, scenario: suite.scenarios[0]!, mode: 'sync' }, ctx(judge, coverage));
    coverage.ended(record);
    expect(record.outcome).toBe('answered');
    expect(record.passed).toBe(false);
    expect(record.steps!.map((s) => s.passed)).toEqual([true, false]);
    expect(record.failures).toEqual([
      expect.objectContaining({
        path: 'shoppingCart.products[0].price',
        matcher: 'policy:catalogue-price',
        expected: '990.00 THB',
        actual: '1,290.00 THB',
        location: { file: 'p.yaml', line: 2, col: 1 },
      }),
    ]);
    expect(judge.snapshot()).toMatchObject({
      answers: 2,
      violations: 1,
      findings: [{ rule: 'catalogue-price', turn: 2 }],
    });
    // One simulated conversation: asked about the shirt in both turns, carted in the second.
    const c = coverage.snapshot();
    expect(c.products?.byProduct[0]).toMatchObject({ name: 'Oxford shirt', asked: 2, inCart: 1, quantities: [2] });
    expect(c.funnel).toMatchObject({ conversations: 1, stages: { product: 1, cart: 1, total: 1, address: 0 } });
    expect(c.rules?.byRule.find((r) => r.rule === 'catalogue-price')).toMatchObject({
      status: 'tested',
      broken: 1,
      notApplicable: 1,
    });
    expect(c.service.modes).toEqual({ sync: 2, async: 0 });
  });

  for (const mode of ['sync', 'async'] as const)
    it(`judges a plain scenario's answer (${mode}), its requestId in the evidence`, async () => {
      const judge = new PolicyJudge(parsePolicy(POLICY, 'p.yaml'));
      const record = await executeRequest({ seq: 0, scenario: suite.scenarios[1]!, mode }, ctx(judge));
      expect(record.passed).toBe(false);
      const [finding] = judge.snapshot().findings;
      expect(finding).toMatchObject({ rule: 'catalogue-price', turn: 1, scenario: 'plain' });
      expect(finding!.requestId).toBe(record.requestId);
      // The message reads the same in both modes (the failures group); the requestId is the record's.
      expect(record.failures[0]!.message).toContain('policy catalogue-price (turn 1): ');
    });
});
