/**
 * `code:` assertions: a function exported by a module beside the suite judges the value at its
 * path (or, `expect: { code: ... }`, the whole payload) with the context { payload, vars,
 * scenario, mode, turn }; its verdict, its message, a throw or a rejection become that
 * expectation's result, never a crash. A module that is missing, lacks the export or does not
 * load is a load-time problem at the `code:` key, naming the module's path.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { evaluateExpectations, loadSuites, type Scenario } from '../../src/scenario/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-code-'));
  await writeFile(
    join(dir, 'checks.mjs'),
    `globalThis.__droidcheckChecksLoaded = (globalThis.__droidcheckChecksLoaded ?? 0) + 1;
/** The answer text names the cart's grand total. */
export function namesGrandTotal(answer, ctx) {
  const total = ctx.payload?.shoppingCart?.grandTotal;
  if (typeof total !== 'string') return { pass: false, message: 'no shoppingCart.grandTotal in the payload' };
  return typeof answer === 'string' && answer.includes(total)
    ? true
    : { pass: false, message: \`the answer does not name the grand total \${total}\` };
}
export const plainFalse = () => false;
export async function later(value) { await new Promise((r) => setTimeout(r, 1)); return value === 'ok'; }
export function broken() { throw new TypeError('cannot read the cart'); }
export async function rejects() { throw new Error('the lookup failed'); }
export const odd = () => 'yes';
export function context(payload, ctx) { globalThis.__droidcheckContext = { sameAsPayload: payload === ctx.payload, ...ctx }; return true; }
export const notAFunction = 42;
`,
  );
  await writeFile(join(dir, 'syntax.mjs'), 'export function f( { return 1 }\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The scenarios of a suite file written with `text` (its modules loaded by loadSuites). */
async function scenarios(name: string, text: string): Promise<Scenario[]> {
  const file = join(dir, name);
  await writeFile(file, text);
  const [suite] = await loadSuites([file]);
  return suite!.scenarios;
}

const PAYLOAD = {
  answer: 'Two Oxford shirts: 2,580.00 THB in all.',
  shoppingCart: { products: [], shippingFee: '0.00 THB', grandTotal: '2,580.00 THB' },
};

describe('code: a function judges the value', () => {
  it('passes and fails as the function says, with its message', async () => {
    const [sc] = await scenarios(
      'total.yaml',
      'scenarios:\n  - name: total\n    humanMessage: hi\n    expect:\n      answer: { code: ./checks.mjs#namesGrandTotal }\n',
    );
    expect((await evaluateExpectations(sc!.expect, PAYLOAD)).failures).toEqual([]);
    const wrong = { ...PAYLOAD, answer: 'Two Oxford shirts: 2,480.00 THB in all.' };
    const { failures } = await evaluateExpectations(sc!.expect, wrong);
    expect(failures).toEqual([
      {
        path: 'answer',
        matcher: 'code',
        expected: './checks.mjs#namesGrandTotal',
        actual: wrong.answer,
        message: 'answer: ./checks.mjs#namesGrandTotal: the answer does not name the grand total 2,580.00 THB',
        location: { file: join(dir, 'total.yaml'), line: 5, col: 17 },
      },
    ]);
  });

  it('reports a throw, a rejection, false and an odd return as failures; awaits a promise', async () => {
    const [sc] = await scenarios(
      'kinds.yaml',
      `scenarios:
  - name: kinds
    humanMessage: hi
    expect:
      answer: { code: ./checks.mjs#broken }
      intents: { code: ./checks.mjs#rejects }
      shoppingCart.grandTotal: { code: ./checks.mjs#plainFalse }
      shoppingCart.shippingFee: { code: ./checks.mjs#odd }
      customerId: { code: ./checks.mjs#later }
`,
    );
    const { failures } = await evaluateExpectations(sc!.expect, { ...PAYLOAD, customerId: 'ok' });
    expect(failures.map((f) => f.message)).toEqual([
      'answer: ./checks.mjs#broken threw TypeError: cannot read the cart',
      'intents: ./checks.mjs#rejects threw Error: the lookup failed',
      'shoppingCart.grandTotal: ./checks.mjs#plainFalse returned false',
      'shoppingCart.shippingFee: ./checks.mjs#odd returned "yes": a check returns true/false or { pass, message }',
    ]);
    expect((await evaluateExpectations(sc!.expect, { ...PAYLOAD, customerId: 'no' })).failures).toHaveLength(5);
  });

  it('gives the whole payload to `code:` at the top of expect, with the context, under load too', async () => {
    const [sc] = await scenarios(
      'whole.yaml',
      'scenarios:\n  - name: whole\n    each: [{ sku: A1 }]\n    humanMessage: hi\n    expect:\n      code: ./checks.mjs#context\n',
    );
    expect(sc!.expect.map((e) => [e.path, e.matcher])).toEqual([['$', 'code']]);
    const ctx = {
      vars: { sku: 'A1' },
      scenario: { name: 'whole [A1]', suite: 'whole' },
      mode: 'async' as const,
      turn: 2,
    };
    const ev = await evaluateExpectations(sc!.expect, PAYLOAD, { code: ctx, skipGraded: true });
    expect(ev.failures).toEqual([]);
    expect((globalThis as Record<string, unknown>).__droidcheckContext).toEqual({
      sameAsPayload: true,
      payload: PAYLOAD,
      ...ctx,
    });
  });

  it('imports each module once per process', async () => {
    await scenarios(
      'once-a.yaml',
      'scenarios:\n  - name: a\n    humanMessage: hi\n    expect: { answer: { code: ./checks.mjs#later } }\n',
    );
    await scenarios(
      'once-b.yaml',
      'scenarios:\n  - name: b\n    humanMessage: hi\n    expect: { code: ./checks.mjs#plainFalse }\n',
    );
    expect((globalThis as Record<string, unknown>).__droidcheckChecksLoaded).toBe(1);
  });
});

describe('code: a module that cannot serve is a load-time problem at the key', () => {
  it('names the path of a missing module, a missing export, a non-function, a syntax error', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(
      file,
      `scenarios:
  - name: broken
    humanMessage: hi
    expect:
      answer: { code: ./nope.mjs#f }
      intents: { code: ./checks.mjs#namesGrandTota }
      customerId: { code: ./checks.mjs#notAFunction }
      code: ./syntax.mjs#f
`,
    );
    const err = await loadSuites([file]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    const lines = (err as ScenarioError).issues.map((i) => `${i.location.line}:${i.location.col}: ${i.message}`);
    // The loader's own words differ under the test runner's module loader: the CLI test
    // (test/cli/tables-and-code.test.ts) checks them as droidcheck prints them.
    const cannotLoad = (file: string) =>
      expect.stringMatching(
        new RegExp(`^code: cannot load ${join(dir, file)} \\(\\./${file.replace('.', '\\.')}#f\\): .+`),
      );
    expect(lines).toEqual([
      expect.stringMatching(/^5:17: /),
      `6:18: code: ${join(dir, 'checks.mjs')} exports no "namesGrandTota"; its functions: namesGrandTotal, plainFalse, later, broken, rejects, odd, context`,
      `7:21: code: ${join(dir, 'checks.mjs')}: "notAFunction" is number, not a function`,
      expect.stringMatching(/^8:7: /),
    ]);
    expect(lines.map((l) => l.replace(/^\d+:\d+: /, ''))).toEqual([
      cannotLoad('nope.mjs'),
      expect.any(String),
      expect.any(String),
      cannotLoad('syntax.mjs'),
    ]);
  });

  it('says a misspelt export once, however many rows of a table share it', async () => {
    const file = join(dir, 'rows.yaml');
    await writeFile(
      file,
      `scenarios:
  - name: "row {{ vars.n }}"
    each: [{ n: 1 }, { n: 2 }, { n: 3 }]
    humanMessage: hi
    expect:
      intents: { code: ./checks.mjs#namesGrandTota }
`,
    );
    const err = await loadSuites([file]).catch((e: unknown) => e);
    expect((err as ScenarioError).issues.map((i) => `${i.location.line}: ${i.message}`)).toEqual([
      expect.stringMatching(/^6: code: .* exports no "namesGrandTota"/),
    ]);
  });

  it('refuses a reference without #name where it is written', async () => {
    const file = join(dir, 'ref.yaml');
    await writeFile(
      file,
      'scenarios:\n  - name: ref\n    humanMessage: hi\n    expect:\n      code: ./checks.mjs\n      answer: { code: checks }\n',
    );
    const err = (await loadSuites([file]).catch((e: unknown) => e)) as ScenarioError;
    expect(err.issues.map((i) => `${i.location.line}:${i.location.col}: ${i.message}`)).toEqual([
      '5:13: code takes ./file.mjs#name: a module beside the suite (.mjs, .js, .cjs or .ts) and the name of a function it exports',
      '6:23: code takes ./file.mjs#name: a module beside the suite (.mjs, .js, .cjs or .ts) and the name of a function it exports',
    ]);
  });
});
