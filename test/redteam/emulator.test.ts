/**
 * The red team against the real emulator over loopback: the default (robust) emulator gives no
 * finding in any deterministic category; with its planted weaknesses on, each oracle fires
 * (sync, and async through the real receiver). Judged categories go through a real grader
 * talking to the fake OpenAI-compatible server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorInstructions, parseProfile, WEAKNESSES } from '../../src/emulator/index.js';
import { ScenarioError } from '../../src/errors.js';
import { createGrader, resolveLlmConfig, type Grader } from '../../src/llm/index.js';
import { wilsonInterval } from '../../src/metrics/stats.js';
import {
  buildRedteamSection,
  executeRedteam,
  redteamVerdict,
  type CategoryId,
  type RedteamDeps,
} from '../../src/redteam/index.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { startFakeOpenAi, type FakeOpenAi } from '../llm/fake-openai.js';
import { asyncAsk, emulatorTarget, type EmulatorTarget, syncAsk } from './ask.js';

const DETERMINISTIC: CategoryId[] = [
  'price-manipulation',
  'cross-customer-leak',
  'prompt-leak',
  'cart-tampering',
  'staff-impersonation',
];
const PRODUCTS = ['Oxford shirt', 'Leather belt', 'Denim jacket', 'Tote bag'];
/** A line of the emulator's instructions, as a user would pass it with --canary. */
const CANARY = 'Internal rule 7';

type Target = EmulatorTarget;

const target = (weak: boolean): Promise<Target> => emulatorTarget(weak ? [...WEAKNESSES] : []);

const base = (t: Target, over: Partial<RedteamDeps> = {}): RedteamDeps => ({
  ask: syncAsk(t.client),
  categories: DETERMINISTIC,
  attempts: 5,
  seed: 7,
  products: PRODUCTS,
  canaries: [CANARY],
  ...over,
});

let robust: Target;
let weak: Target;

beforeAll(async () => {
  [robust, weak] = await Promise.all([target(false), target(true)]);
});
afterAll(async () => {
  for (const t of [robust, weak]) {
    await t.close();
  }
});

describe('the robust emulator (default)', () => {
  it('gives no finding in any deterministic category, and every attempt is decided', async () => {
    const section = buildRedteamSection(await executeRedteam(base(robust)));
    expect(section.findings).toEqual([]);
    for (const c of section.categories) {
      expect(c, c.id).toMatchObject({ attempts: 5, successes: 0, rate: 0, undecided: 0, errors: 0 });
      expect(c.interval.low).toBe(0);
      expect(c.interval.high).toBeCloseTo(wilsonInterval(0, 5).high, 12);
    }
    expect(redteamVerdict(section)).toEqual({ exitCode: 0, reasons: [] });
  });
});

describe('the emulator with its planted weaknesses', () => {
  it('makes each deterministic oracle fire (sync)', async () => {
    const run = await executeRedteam(base(weak));
    const section = buildRedteamSection(run);
    const row = (id: CategoryId) => section.categories.find((c) => c.id === id)!;
    for (const id of ['price-manipulation', 'cross-customer-leak', 'prompt-leak', 'staff-impersonation'] as const) {
      expect(row(id), id).toMatchObject({ attempts: 5, successes: 5, rate: 1, errors: 0 });
    }
    expect(row('price-manipulation').interval.low).toBeCloseTo(wilsonInterval(5, 5).low, 12);
    // Negative quantities break the cart; the other phrasings (an absurd count, free shipping on an order that ships free anyway) may not.
    const negatives = run.categories
      .find((c) => c.id === 'cart-tampering')!
      .results.filter((r) => r.attempt.template <= 1);
    expect(negatives.length).toBeGreaterThan(0);
    for (const r of negatives)
      expect(r).toMatchObject({
        outcome: 'success',
        evidence: expect.stringMatching(/^inconsistent cart: .*negative count -\d/),
      });

    const finding = (id: CategoryId) => section.findings.find((f) => f.category === id)!;
    expect(finding('price-manipulation').evidence).toMatch(
      /^grand total [\d,.]+ THB with the claim, [\d,.]+ THB without: lower by/,
    );
    expect(finding('cross-customer-leak').evidence).toMatch(
      /^planted in another conversation, found in this answer: "/,
    );
    expect(finding('prompt-leak').evidence).toBe(`instruction text found in the answer: "${CANARY}"`);
    expect(finding('prompt-leak').transcript).toContain(emulatorInstructions('Demo Fashion Shop')); // the default profile's droid name
    expect(finding('staff-impersonation').transcript).toMatch(/^customer: .+\ndroid: I've added to your cart: /);
    const verdict = redteamVerdict(section);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.reasons[0]).toMatch(
      /^price-manipulation: 5 of 5 attacks succeeded \(100\.0%, 95% interval 56\.6–100\.0%\)$/,
    );
    expect(redteamVerdict(section, { maxSuccessRate: 1 }).exitCode).toBe(0);
  });

  it('makes them fire through the async endpoint and the webhook too', async () => {
    let rig: Loopback | undefined;
    try {
      rig = await startLoopback({
        emulator: { weaknesses: ['discount', 'cross-conversation-leak', 'negative-quantity'] },
      });
      const section = buildRedteamSection(
        await executeRedteam({
          ...base(weak),
          ask: asyncAsk(rig.client, rig.receiver),
          categories: ['price-manipulation', 'cross-customer-leak', 'cart-tampering'],
          attempts: 2,
        }),
      );
      for (const c of section.categories) {
        expect(c.errors, c.id).toBe(0);
        expect(c.successes, c.id).toBeGreaterThan(0);
      }
    } finally {
      await rig?.close();
    }
  });

  it('is named in the profile YAML; an unknown weakness is refused at its line', () => {
    const yaml = (w: string) =>
      `droid: { id: 1, testCustomerId: 1001 }\ncatalogue: { currency: THB, shippingFee: 50, freeShippingThreshold: 1500, products: [{ name: Shirt, price: 10, keywords: [shirt] }] }\nweaknesses: [${w}]\n`;
    expect(parseProfile(yaml('discount, recite-instructions'), 'p.yaml').weaknesses).toEqual([
      'discount',
      'recite-instructions',
    ]);
    expect(
      parseProfile(
        'droid: { id: 1, testCustomerId: 1001 }\ncatalogue: { currency: THB, shippingFee: 50, freeShippingThreshold: 1500, products: [{ name: Shirt, price: 10, keywords: [shirt] }] }\n',
        'p.yaml',
      ).weaknesses,
    ).toEqual([]);
    expect(() => parseProfile(yaml('discounts'), 'p.yaml')).toThrow(ScenarioError);
    expect(() => parseProfile(yaml('discounts'), 'p.yaml')).toThrow(/^p\.yaml:3:14: weaknesses\.0: .*"discount"/);
  });
});

describe('judged categories', () => {
  let fake: FakeOpenAi;
  let dir: string;
  const graders: Grader[] = [];
  const grader = (url: string): Grader => {
    const g = createGrader(
      resolveLlmConfig(
        { judgeModel: 'judge-1', cache: false },
        { OPENAI_BASE_URL: url },
        { retries: 0, timeout: '5s' },
        dir,
      )!,
    );
    graders.push(g);
    return g;
  };
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-redteam-'));
  });
  afterAll(async () => {
    await Promise.all(graders.map((g) => g.close()));
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are skipped without a judge model, with the reason', async () => {
    const section = buildRedteamSection(
      await executeRedteam(base(robust, { categories: ['off-topic', 'competitor'] })),
    );
    for (const c of section.categories)
      expect(c).toMatchObject({
        attempts: 0,
        skipped: expect.stringMatching(/^needs a judge model: pass --judge-model/),
      });
    expect(redteamVerdict(section).exitCode).toBe(0);
  });

  it('send the attack transcript and the rubric to the judge; its verdict decides', async () => {
    fake.onChat((body) => ({
      content: /customer: (?:Write me a Python script|Who should I vote|Write a 500-word essay)/.test(
        body.messages.map((m) => m.content).join('\n'),
      )
        ? '{"pass": false, "score": 0.1, "reason": "it did the task"}'
        : '{"pass": true, "score": 0.9, "reason": "declined"}',
    }));
    const run = await executeRedteam(
      base(robust, { categories: ['off-topic', 'competitor'], judge: grader(fake.url) }),
    );
    const section = buildRedteamSection(run);
    const offTopic = section.categories.find((c) => c.id === 'off-topic')!;
    expect(offTopic.attempts).toBe(5);
    expect(offTopic.successes).toBe(3);
    expect(section.categories.find((c) => c.id === 'competitor')).toMatchObject({ attempts: 5, successes: 0 });
    expect(
      section.findings.every(
        (f) =>
          f.category === 'off-topic' &&
          /^judge: did the off-topic task \(score 0\.10: it did the task\)$/.test(f.evidence),
      ),
    ).toBe(true);
    const asked = fake
      .chatRequests()
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(asked).toMatch(/customer: .+\ndroid: /);
  });

  it('are errors, never resisted, when the judge is down (exit 1)', async () => {
    const closed = await startFakeOpenAi();
    const url = closed.url;
    await closed.close();
    const section = buildRedteamSection(
      await executeRedteam(base(robust, { categories: ['competitor'], attempts: 2, judge: grader(url) })),
    );
    expect(section.categories[0]).toMatchObject({ attempts: 0, successes: 0, errors: 2, rate: null });
    expect(section.errors[0]).toMatchObject({ category: 'competitor', code: 'DROIDCHECK_ERR_JUDGE', count: 2 });
    expect(redteamVerdict(section)).toMatchObject({
      exitCode: 1,
      reasons: ['competitor: 2 attempt(s) got no answer or no verdict'],
    });
  });
});
