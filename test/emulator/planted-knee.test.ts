/**
 * The planted knee (`degradeAbove`): above that many answers in progress, the emulator's answers
 * keep their shape and their time but lose the cart and the intents and become a generic
 * apology, sync and async alike; off by default. `droidcheck emulate --degrade-above` and the
 * profile's `degradeAbove` set it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { emulateOptions } from '../../src/cli/emulate-command.js';
import { resolveConfig, type JobFlags } from '../../src/config/index.js';
import { DEGRADED_ANSWER } from '../../src/emulator/ai/degrade.js';
import { createEmulator, parseProfile, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';
import { startSink, type Sink } from './helpers.js';

/** `emulate`'s options as the CLI makes them: the one resolution of its flags and environment. */
const optionsOf = async (flags: JobFlags, env: NodeJS.ProcessEnv) =>
  emulateOptions(resolveConfig('emulate', flags, env));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function emulator(degradeAbove?: number, webhookUrl?: string): Promise<{ e: Emulator; url: string }> {
  // Long enough that every request of a batch is accepted before the first is answered, on any machine.
  const e = await createEmulator({
    answerDelayMs: 1500,
    ...(degradeAbove !== undefined && { degradeAbove }),
    ...(webhookUrl && { webhookUrl }),
  });
  const url = await e.listen();
  closers.push(() => e.close());
  return { e, url };
}

type Answer = { answer: string; intents: string[]; shoppingCart: { products: unknown[] } };

async function post(e: Emulator, url: string, path: string, humanMessage: unknown): Promise<unknown> {
  const res = await request(`${url}/api/droids/${e.droidId}/endpoint/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ humanMessage, chatHistory: [] }),
  });
  expect(res.statusCode).toBe(200);
  return res.body.json();
}

const right = (a: Answer): boolean => a.intents.length > 0 && a.shoppingCart.products.length > 0;
const degraded = (a: Answer): boolean =>
  a.answer === DEGRADED_ANSWER && a.intents.length === 0 && a.shoppingCart.products.length === 0;

describe('the planted knee', () => {
  it('sync: above 2 answers in progress, the others are the apology with no cart and no intent', async () => {
    const { e, url } = await emulator(2);
    const answers = (await Promise.all(
      Array.from({ length: 5 }, () => post(e, url, 'get-droid-answer', 'I want to buy 2 shirts')),
    )) as Answer[];
    expect(answers.filter(right)).toHaveLength(2);
    expect(answers.filter(degraded)).toHaveLength(3);
    expect(e.stats().degradedAnswers).toBe(3);
    // Once the load is gone, the answers are right again.
    expect(right((await post(e, url, 'get-droid-answer', 'I want to buy 2 shirts')) as Answer)).toBe(true);
  });

  it('async: counted from the acknowledgement to the answer', async () => {
    const sink: Sink = await startSink();
    closers.push(() => sink.close());
    const { e, url } = await emulator(1, sink.url);
    await Promise.all(
      Array.from({ length: 3 }, () => post(e, url, 'get-droid-answer-async', { content: 'I want to buy 2 shirts' })),
    );
    const bodies = (await sink.waitFor(3, 10_000)).map((d) => d.body as Answer);
    expect(bodies.filter(right)).toHaveLength(1);
    expect(bodies.filter(degraded)).toHaveLength(2);
  });

  it('is off by default', async () => {
    const { e, url } = await emulator();
    const answers = (await Promise.all(
      Array.from({ length: 5 }, () => post(e, url, 'get-droid-answer', 'I want to buy 2 shirts')),
    )) as Answer[];
    expect(answers.every(right)).toBe(true);
    expect(e.stats().degradedAnswers).toBe(0);
  });

  it('emulate --degrade-above and the profile set it; a count below 1 is refused', async () => {
    const base = { host: '127.0.0.1', port: '0', seed: '1' };
    expect((await optionsOf({ ...base, degradeAbove: '4' }, {})).degradeAbove).toBe(4);
    expect(await optionsOf(base, {})).not.toHaveProperty('degradeAbove');
    await expect(optionsOf({ ...base, degradeAbove: '0' }, {})).rejects.toThrow(UsageError);
    await expect(optionsOf({ ...base, degradeAbove: '0' }, {})).rejects.toThrow(/--degrade-above/);
    const yaml =
      'droid: { id: 1, testCustomerId: 1001 }\ncatalogue: { currency: THB, shippingFee: 50, freeShippingThreshold: 1500, products: [{ name: Shirt, price: 100, keywords: [shirt] }] }\n';
    expect(parseProfile(yaml, 'p.yaml').degradeAbove).toBeNull();
    expect(parseProfile(`${yaml}degradeAbove: 4\n`, 'p.yaml').degradeAbove).toBe(4);
    expect(() => parseProfile(`${yaml}degradeAbove: 0\n`, 'p.yaml')).toThrow(/degradeAbove/);
  });
});
