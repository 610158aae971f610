/**
 * `simulate:` scenarios through `droidcheck run` (the CLI in process, the embedded emulator on
 * loopback, the fake OpenAI-compatible server playing the customer and the judge): a simulated
 * purchase passes in sync and async, each customer line one answer turn with its latency, the
 * conversation in report.json and as a chat in report.html; without a model the run stops
 * before sending (exit 2, file:line:col); the key never reaches a report.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../src/report/index.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { isCustomerRequest, playCustomer, startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';
import { unwrapped } from '../helpers/console-text.js';

const KEY = 'sk-test-simulate-run-key-1a2b3c4d5e6f';
const PURCHASE = ['Hi, do you sell Oxford shirts?', "Great, I'll take 2 of them."];
const SUITE = `suite: simulated
scenarios:
  - name: a customer buys two shirts in their own words
    simulate:
      persona: a busy office worker who writes short messages
      goal: buy two Oxford shirts
      maxTurns: 4
    expect:
      turns: { lte: 3 }
      shoppingCart.grandTotal: { money: "2,580.00 THB" }
      transcript: { contains: "Oxford shirt", judge: "The customer ends with two Oxford shirts in the cart" }
`;

let dir: string;
let fake: FakeOpenAi;
const env = (): Record<string, string> => ({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-simulate-run-'));
  await writeFile(join(dir, 'suite.yaml'), SUITE);
  fake = await startFakeOpenAi();
  fake.onChat(playCustomer(PURCHASE));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('simulate: in droidcheck run', () => {
  for (const mode of ['sync', 'async'] as const) {
    it(`passes a simulated purchase (${mode}) with its conversation in report.json and report.html`, async () => {
      const out = join(dir, `out-${mode}`);
      const before = fake.chatRequests().filter(isCustomerRequest).length;
      const r = await cli(['run', 'suite.yaml', '--mode', mode, '--judge-model', 'm-1', '--no-cache', '-o', out], {
        cwd: dir,
        env: env(),
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(fake.chatRequests().filter(isCustomerRequest).length - before).toBe(3); // two lines and the stop
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportDocument;
      const entry = report.scenarios[0]!;
      expect(entry).toMatchObject({ mode, outcome: 'answered', passed: true });
      expect(entry.simulation!.end).toBe('stop');
      expect(entry.simulation!.turns.map((t) => t.customer)).toEqual(PURCHASE);
      expect(entry.simulation!.turns[1]!.droid).toContain('2,580.00 THB');
      for (const t of entry.simulation!.turns) expect(t.latencyMs).toBeGreaterThan(0);
      // The simulator model's cost, apart from the judge's: three calls of 100 + 20 tokens (the fake's usage).
      expect(entry.simulation).toMatchObject({ modelCalls: 3, cacheHits: 0, promptTokens: 300, completionTokens: 60 });
      expect(unwrapped(r.stdout)).toMatch(
        /Simulated customers\s+1 conversation · 3 model calls \(0 lines from the cache\), 360 tokens \(300 prompt, 60 completion\)/,
      );
      // One record for the conversation; each line's latency in the histogram of its mode.
      expect(report.summary.requests).toBe(1);
      expect(report.latency[mode === 'sync' ? 'sync' : 'answer']!.count).toBe(2);
      if (mode === 'async') expect(report.accounting!.webhooks.received).toBe(2);
      expect(entry.grades!.map((g) => g.matcher)).toEqual(['judge']);
      const html = await readFile(join(out, 'report.html'), 'utf8');
      expect(html).toContain('<div class="chat"><div class="msg customer">Hi, do you sell Oxford shirts?</div>');
      for (const f of await readdir(out)) expect(await readFile(join(out, f), 'utf8'), f).not.toContain(KEY);
    });
  }

  it('shows a failed conversation line by line on the console', async () => {
    const suite = SUITE.replace('turns: { lte: 3 }', 'turns: { gte: 3 }');
    await writeFile(join(dir, 'failing.yaml'), suite);
    const r = await cli(
      [
        'run',
        'failing.yaml',
        '--mode',
        'sync',
        '--judge-model',
        'm-1',
        '--no-cache',
        '-o',
        join(dir, 'out-failing'),
        '-r',
        'console',
        '-r',
        'json',
      ],
      { cwd: dir, env: env() },
    );
    expect(r.code).toBe(1);
    expect(unwrapped(r.stdout)).toContain('Simulated conversations that failed');
    expect(unwrapped(r.stdout)).toMatch(/customer\s+Hi, do you sell Oxford shirts\?/);
    expect(unwrapped(r.stdout)).toMatch(/droid\s+.*2,580\.00 THB.*\d ms/);
  });

  it('stops before sending when no model plays the customer: exit 2 at the scenario', async () => {
    await writeFile(
      join(dir, 'unjudged.yaml'),
      SUITE.split('\n')
        .filter((l) => !l.includes('transcript:'))
        .join('\n'),
    );
    const r = await cli(['run', 'unjudged.yaml', '-o', join(dir, 'out-none')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unjudged\.yaml:4:5: "simulate" needs a chat model to play the customer: pass --simulator-model or --judge-model/,
    );
  });
});
