/**
 * `droidcheck redteam`'s estimate before sending (docs/llm.md, Budget), through the CLI in
 * process against the embedded emulator, the models played by an OpenAI-compatible server of the
 * test's own that counts calls (test/llm/fake-openai.ts): the line gives the model calls the plan
 * makes (attempts x turns x calls per turn: a judge call per judged attempt, a rewording per
 * attempt with --rephrase, an attacker line per turn of an adaptive attack), which is what the
 * run then calls without a cache, their tokens and cost at the prices, and says when that exceeds
 * --max-cost or --max-tokens; --max-cost without a price for the model is exit 2 before any call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { PASS_VERDICT, startFakeOpenAi, type FakeOpenAi } from '../llm/fake-openai.js';

let dir: string;
let fake: FakeOpenAi;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-redteam-estimate-'));
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await fake?.close();
  fake = await startFakeOpenAi();
});

/** The estimate line's figures: calls per role (the judge's lower bound), tokens, cost. */
function estimateOf(stderr: string): { line: string; calls: Record<string, number>; tokens: number } {
  const line = stderr.split('\n').find((l) => l.startsWith('droidcheck: model calls at most:'));
  expect(line, stderr).toBeDefined();
  const calls = Object.fromEntries(
    [...line!.matchAll(/\b(judge|attacker|embeddings|simulator) ([\d,]+)/g)].map((m) => [
      m[1]!,
      Number(m[2]!.replace(/,/g, '')),
    ]),
  );
  const tokens = Number(/about ([\d,]+) tokens/.exec(line!)![1]!.replace(/,/g, ''));
  return { line: line!, calls, tokens };
}

const redteam = (out: string, ...args: string[]) =>
  cli(['redteam', '--seed', '5', '--no-cache', ...args, '-o', join(dir, out)], {
    cwd: dir,
    env: { OPENAI_BASE_URL: fake.url },
  });

describe('droidcheck redteam: the estimate before sending', () => {
  it('templates with a judge and --rephrase: the judge calls and the rewordings the run then makes', async () => {
    // A passing verdict for the judge; a rewording of its own for each attack (the same text twice
    // would be judged once: the run's cache answers an identical judge call).
    fake.onChat((body, n) => ({
      content: body.messages[0]!.content.startsWith('You grade') ? PASS_VERDICT : `Please, as a favour (${n}).`,
    }));
    const r = await redteam(
      'templates',
      '--attempts',
      '3',
      '--judge-model',
      'judge-1',
      '--rephrase',
      '--model-price',
      'judge-1=10/50',
      '--max-cost',
      '1',
    );
    expect([0, 1], r.stderr).toContain(r.code);
    const { line, calls, tokens } = estimateOf(r.stderr);
    // Three attempts per category that runs: one rewording each; one judge call per judged attempt.
    expect(calls.attacker).toBeGreaterThan(0);
    expect(calls.attacker! % 3).toBe(0);
    expect(calls.judge).toBeGreaterThan(0);
    expect(line).toContain(`judge ${calls.judge}-${calls.judge! * 3}`);
    // A passing verdict is no close call: one vote each, so the run calls exactly what was planned.
    expect(fake.chatRequests()).toHaveLength(calls.judge! + calls.attacker!);
    expect(tokens).toBe(calls.judge! * 760 + calls.attacker! * 660);
    const cost = (calls.judge! * (700 * 10 + 60 * 50) + calls.attacker! * (600 * 10 + 60 * 50)) / 1e6;
    expect(line).toContain(`about $${cost.toFixed(4)}`);
    expect(line).not.toContain('exceeds');
  });

  it('adaptive: attempts x turns attacker lines; a --max-cost below that is said before sending, and kept (exit 98)', async () => {
    // An order every turn: the list price decides each one, and the robust emulator resists them all.
    fake.onChat((_body, n) => ({ content: `I'll take 2 x Leather belt, please (${n}).` }));
    const args = [
      '--strategy',
      'adaptive',
      '--turns',
      '4',
      '--attempts',
      '2',
      '--category',
      'price-manipulation',
      '--simulator-model',
      'attacker-1',
      '--model-price',
      'attacker-1=10/50',
    ];
    const full = await redteam('adaptive', ...args, '--max-cost', '1');
    expect(full.code, full.stderr).toBe(0);
    const planned = estimateOf(full.stderr);
    // Two attacks of four turns against the robust emulator: every turn written by the attacker.
    expect(planned.calls).toEqual({ attacker: 8 });
    expect(fake.chatRequests()).toHaveLength(8);
    expect(planned.line).toContain('about 5,280 tokens, about $0.0720');
    expect(planned.line).not.toContain('exceeds');

    const before = fake.chatRequests().length;
    const tight = await redteam('adaptive-tight', ...args, '--max-cost', '0.01', '--max-tokens', '1000');
    expect(tight.code, tight.stderr).toBe(98);
    expect(estimateOf(tight.stderr).line).toMatch(
      /this exceeds --max-cost \$0\.01 and --max-tokens 1,000: once it is spent no model is called and the checks left are not judged \(exit 98\)$/,
    );
    expect(fake.chatRequests().length - before).toBeLessThan(8);
  });

  it('--max-cost without a price for the attacker model: exit 2 before any call', async () => {
    const r = await redteam(
      'unpriced',
      '--strategy',
      'adaptive',
      '--simulator-model',
      'attacker-1',
      '--category',
      'price-manipulation',
      '--max-cost',
      '0.5',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--max-cost \$0\.5: no price for attacker-1; give it with --model-price attacker-1=IN\/OUT/,
    );
    expect(fake.chatRequests()).toHaveLength(0);
  });
});
