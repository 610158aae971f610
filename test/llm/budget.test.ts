/**
 * The budget of model calls (docs/llm.md, Budget). Through `droidcheck run` against an
 * OpenAI-compatible server of the test's own that counts calls (test/llm/fake-openai.ts, 100
 * input and 20 output tokens a call): with `--max-cost` set to the price of three judge calls,
 * the judged suite makes at most three, the other checks are "not judged: budget spent" (never
 * a pass) and the run exits 98; the estimate is printed before sending; the report gives the
 * spend per role and per scenario. `--max-tokens` the same in tokens. `--max-cost` without a
 * price for the model stops before sending (exit 2). And ModelBudget's admission alone: never
 * more calls than fit, whatever the concurrency.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BudgetError } from '../../src/errors.js';
import { ModelBudget } from '../../src/llm/index.js';
import type { LlmProvider } from '../../src/llm/provider.js';
import type { ReportDocument } from '../../src/report/index.js';
import { droidcheck } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';

const KEY = 'sk-test-budget-key-0a1b2c3d4e5f6789';
/** Six scenarios, one judge expectation each, sync only: six judge calls without a budget. */
const SUITE = `suite: judged
scenarios:
${[1, 2, 3, 4, 5, 6]
  .map(
    (i) => `  - name: greeting ${i}
    modes: [sync]
    humanMessage: Hello, question ${i}
    expect: { answer: { judge: "Greets the customer (${i})" } }`,
  )
  .join('\n')}
`;
/** USD per million tokens: a call of 100 input and 20 output tokens costs $0.002. */
const PRICE = 'judge-1=10/50';
const CALL_USD = (100 * 10 + 20 * 50) / 1e6;

let dir: string;
let fake: FakeOpenAi;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-budget-'));
  await writeFile(join(dir, 'suite.yaml'), SUITE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  fake?.close();
  fake = await startFakeOpenAi();
});

async function run(
  name: string,
  extra: string[],
): Promise<{ code: number | null; out: string; report: ReportDocument }> {
  const out = join(dir, name);
  const r = await droidcheck(['run', 'suite.yaml', '--judge-model', 'judge-1', '--no-cache', '-o', out, ...extra], {
    cwd: dir,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY },
  });
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;
  return { code: r.code, out: r.stdout + r.stderr, report };
}

describe('--max-cost through droidcheck run', () => {
  it('makes at most three judge calls for the price of three, the rest not judged, exit 98', async () => {
    const { code, out, report } = await run('cost', ['--model-price', PRICE, '--max-cost', String(3 * CALL_USD)]);
    expect(code, out).toBe(98);
    expect(fake.chatRequests().length).toBeLessThanOrEqual(3);
    expect(fake.chatRequests().length).toBe(3);
    // The estimate, before sending: six judge calls (up to three votes each) and their cost.
    expect(out).toMatch(
      /model calls at most: judge 6-18 \(about 4,560 tokens, about \$0\.0600;.*this exceeds --max-cost \$0\.006/,
    );
    const judged = report.scenarios.filter((s) => s.grades?.length);
    const notJudged = report.scenarios.filter((s) => s.judgeErrors?.length);
    expect(judged).toHaveLength(3);
    expect(notJudged).toHaveLength(3);
    for (const s of notJudged) {
      expect(s.passed).toBe(false);
      expect(s.failures).toEqual([]);
      expect(s.judgeErrors![0]).toMatchObject({ code: 'DROIDCHECK_ERR_BUDGET', matcher: 'judge' });
      expect(s.judgeErrors![0]!.message).toContain('not judged: budget spent');
    }
    expect(report.summary).toMatchObject({ passed: 3, failed: 0, judgeErrors: 3, notJudged: 3 });
    expect(report.budget).toMatchObject({
      maxCostUsd: 3 * CALL_USD,
      total: { calls: 3, inputTokens: 300, outputTokens: 60 },
      byRole: { judge: { calls: 3 } },
      refused: 3,
      spent: true,
    });
    expect(report.budget!.total.costUsd).toBeCloseTo(3 * CALL_USD, 10);
    expect(Object.keys(report.budget!.byScenario)).toHaveLength(3);
    expect(report.budget!.prices).toEqual([{ model: 'judge-1', inputPerMTok: 10, outputPerMTok: 50 }]);
    expect(out).toContain('3 not judged: budget spent');
    expect(out).toMatch(/Model calls +3 model calls, 360 tokens, \$0\.0060 of --max-cost \$0\.006/);
    expect(out).not.toContain(KEY);
  });

  it('--max-tokens: at most the calls whose tokens fit', async () => {
    const { code, out, report } = await run('tokens', ['--max-tokens', '240']);
    expect(code, out).toBe(98);
    expect(fake.chatRequests().length).toBe(2);
    expect(report.summary.notJudged).toBe(4);
    expect(report.budget).toMatchObject({ maxTokens: 240, total: { calls: 2 }, spent: true });
    expect(report.budget!.total.costUsd).toBeUndefined(); // judge-1 has no price
  });

  it('a budget that covers the plan changes nothing: exit 0, every check judged', async () => {
    const { code, out, report } = await run('enough', ['--model-price', PRICE, '--max-cost', '1']);
    expect(code, out).toBe(0);
    expect(fake.chatRequests().length).toBe(6);
    expect(report.budget).toMatchObject({ total: { calls: 6 }, refused: 0, spent: false });
    expect(out).not.toContain('exceeds');
  });

  it('--max-cost without a price for the judge model: exit 2 before sending', async () => {
    const r = await droidcheck(
      ['run', 'suite.yaml', '--judge-model', 'judge-1', '--max-cost', '0.01', '-o', join(dir, 'np')],
      {
        cwd: dir,
        env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY },
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-cost \$0\.01: no price for judge-1; give it with --model-price judge-1=IN\/OUT/);
    expect(fake.chatRequests()).toHaveLength(0);
  });
});

describe('ModelBudget', () => {
  /** A provider whose calls end when the test says, each 100 + 20 tokens. */
  function slowProvider(): { provider: LlmProvider; started: () => number; release: () => void } {
    let started = 0;
    let waiting: (() => void)[] = [];
    return {
      provider: {
        async chat() {
          started += 1;
          await new Promise<void>((r) => waiting.push(r));
          return { content: 'ok', promptTokens: 100, completionTokens: 20 };
        },
        async embed() {
          throw new Error('not used');
        },
        async close() {},
      },
      started: () => started,
      release: () => {
        const w = waiting;
        waiting = [];
        for (const r of w) r();
      },
    };
  }

  it('runs the first call alone, then never more than the budget covers, and refuses the rest', async () => {
    const budget = new ModelBudget({
      maxCostUsd: 3 * CALL_USD,
      prices: [{ model: 'm', inputPerMTok: 10, outputPerMTok: 50 }],
    });
    const slow = slowProvider();
    const metered = budget.meter(slow.provider, 'judge');
    const calls = Array.from({ length: 10 }, () =>
      metered.chat('m', []).then(
        () => 'made',
        (e) => e,
      ),
    );
    await new Promise((r) => setImmediate(r));
    expect(slow.started()).toBe(1); // nothing known of a call's cost yet
    slow.release();
    for (let i = 0; i < 5 && slow.started() < 3; i++) await new Promise((r) => setImmediate(r));
    expect(slow.started()).toBe(3); // spent $0.002 + two in flight expected at $0.002 each
    slow.release();
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === 'made')).toHaveLength(3);
    const refused = results.filter((r) => r instanceof BudgetError);
    expect(refused).toHaveLength(7);
    expect((refused[0] as BudgetError).message).toMatch(
      /^not judged: budget spent \(\$0\.0060 of --max-cost \$0\.006 spent\)$/,
    );
    expect(budget.snapshot()).toMatchObject({ refused: 7, spent: true, total: { calls: 3 } });
  });
});
