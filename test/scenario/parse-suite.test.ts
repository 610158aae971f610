/**
 * parseSuite / loadSuites: a good suite resolves to the Scenario shapes of src/scenario/types.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { loadSuites, parseSuite } from '../../src/scenario/index.js';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'scenarios');
const at = (file: string, line: number, col: number) => ({ file, line, col });

describe('parseSuite', () => {
  it('resolves the documented format into Scenario objects', async () => {
    const file = join(FIX, 'good', 'purchases.yaml');
    const suite = parseSuite(await readFile(file, 'utf8'), file);
    expect(suite.name).toBe('Purchases');
    expect(suite.file).toBe(file);
    const [buy, price] = suite.scenarios;
    expect(buy).toEqual({
      suite: 'Purchases',
      name: 'buys two Oxford shirts delivered to Bangkok',
      file,
      location: at(file, 3, 5),
      tags: ['cart', 'address'],
      modes: ['sync', 'async'],
      chatHistory: [
        { type: 'human', content: 'Hi, do you sell shirts?' },
        { type: 'ai', content: 'Yes, we have Oxford shirts for 1,290 THB.' },
      ],
      humanMessage: "I'll take 2, please send them to 99 Sukhumvit Rd, Bangkok 10110",
      expect: [
        { path: 'intents', matcher: 'includes', expected: 'purchase', location: at(file, 11, 18) },
        { path: 'shoppingCart.grandTotal', matcher: 'equals', expected: '2,580.00 THB', location: at(file, 12, 7) },
        { path: 'shoppingCart.products.0.quantity', matcher: 'equals', expected: 2, location: at(file, 13, 43) },
        { path: 'addressParsing.postal_code', matcher: 'matches', expected: '^101\\d\\d$', location: at(file, 14, 37) },
        { path: 'answer', matcher: 'contains', expected: 'Oxford', location: at(file, 15, 17) },
        { path: 'customerInsight.contact_info.email', matcher: 'absent', expected: true, location: at(file, 16, 45) },
      ],
      latencyMs: { max: 180_000, location: at(file, 17, 5) },
    });
    expect(price?.modes).toEqual(['async']);
    expect(price?.tags).toEqual([]);
    expect(price?.chatHistory).toEqual([{ type: 'human', content: 'Hello' }]);
    expect(price?.latencyMs?.max).toBe(2500);
    expect(price?.expect.map((e) => [e.path, e.matcher, e.expected, e.options])).toEqual([
      ['answer', 'icontains', 'oxford', { ignoreCase: true }],
      ['answer', 'notContains', 'error', undefined],
      ['executionTime', 'lt', 180000, undefined],
      ['executionTime', 'gte', 0, undefined],
    ]);
  });

  it('leaves modes undefined when omitted, expands "both", de-duplicates lists', () => {
    const text = (modes: string) => `suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n${modes}`;
    expect(parseSuite(text(''), 'm.yaml').scenarios[0]?.modes).toBeUndefined();
    expect(parseSuite(text('    modes: both\n'), 'm.yaml').scenarios[0]?.modes).toEqual(['sync', 'async']);
    expect(parseSuite(text('    modes: sync\n'), 'm.yaml').scenarios[0]?.modes).toEqual(['sync']);
    expect(parseSuite(text('    modes: [async, async]\n'), 'm.yaml').scenarios[0]?.modes).toEqual(['async']);
  });

  it('names a suite without "suite" after its file, and turns latency units into ms', () => {
    const s = parseSuite(
      'scenarios:\n  - name: a\n    humanMessage: hi\n    latency: "< 100ms"\n',
      'dir/smoke-tests.yml',
    );
    expect(s.name).toBe('smoke-tests');
    expect(s.scenarios[0]?.latencyMs?.max).toBe(100);
    const m = parseSuite('scenarios:\n  - name: a\n    humanMessage: hi\n    latency: "<3m"\n', 'x.yaml');
    expect(m.scenarios[0]?.latencyMs?.max).toBe(180_000);
  });

  it('reads matcher options: ignoreCase modifier, value form, (?i) regex flags, money, json', () => {
    const s = parseSuite(
      [
        'suite: s',
        'scenarios:',
        '  - name: a',
        '    humanMessage: hi',
        '    expect:',
        '      answer: { equals: HELLO, ignoreCase: true }',
        '      a: { contains: { value: X, ignoreCase: true } }',
        '      b: { matches: "(?i)oxford" }',
        '      c: { matches: { pattern: "^x$", flags: m } }',
        '      shoppingCart.grandTotal: { money: "2,580.00 THB" }',
        '      d: { money: { amount: 10, currency: USD } }',
        '      e: { json: { sentiment: positive, score: { gt: 0.5 } } }',
      ].join('\n'),
      'o.yaml',
    );
    const e = s.scenarios[0]!.expect;
    expect(e.map((x) => [x.matcher, x.expected, x.options])).toEqual([
      ['equals', 'HELLO', { ignoreCase: true }],
      ['contains', 'X', { ignoreCase: true }],
      ['matches', 'oxford', { flags: 'i' }],
      ['matches', '^x$', { flags: 'm' }],
      ['money', { amount: 2580, currency: 'THB' }, undefined],
      ['money', { amount: 10, currency: 'USD' }, undefined],
      ['json', expect.any(Array), undefined],
    ]);
    const nested = e[6]!.expected as { path: string; matcher: string; location: { line: number } }[];
    expect(nested.map((n) => [n.path, n.matcher, n.location.line])).toEqual([
      ['sentiment', 'equals', 12],
      ['score', 'gt', 12],
    ]);
  });

  it('throws ScenarioError (code, exit 2) with every issue of the file', () => {
    let err: unknown;
    try {
      parseSuite('suite: bad\nscenarios:\n  - name: typo\n    humanMesage: Hello!\n', 'bad.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const se = err as ScenarioError;
    expect(se.code).toBe('DROIDCHECK_ERR_SCENARIO');
    expect(se.exitCode).toBe(2);
    expect(se.message).toBe('bad.yaml:4:5: unknown key "humanMesage" — did you mean "humanMessage"?');
    expect(se.issues).toEqual([{ location: at('bad.yaml', 4, 5), message: expect.stringContaining('humanMesage') }]);
  });
});

describe('loadSuites', () => {
  it('walks directories recursively, sorted, skipping YAML files that are not suites', async () => {
    const suites = await loadSuites([join(FIX, 'good')]);
    expect(suites.map((s) => s.name)).toEqual(['greetings', 'Purchases']);
    expect(suites[0]?.scenarios[0]?.tags).toEqual(['smoke']);
    expect(suites[0]?.scenarios[0]?.expect[0]).toMatchObject({ matcher: 'equals', expected: ['greeting'] });
  });

  it('refuses an explicitly named file that is not a suite', async () => {
    await expect(loadSuites([join(FIX, 'good', 'emulator-profile.yaml')])).rejects.toThrow(
      /emulator-profile\.yaml:1:1: not a scenario suite/,
    );
  });

  it('gathers the issues of every file into one ScenarioError', async () => {
    const err = await loadSuites([join(FIX, 'bad'), join(FIX, 'missing.yaml')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    const msg = (err as ScenarioError).message;
    expect(msg).toContain(`${join(FIX, 'bad', 'syntax.yml')}:5:1: YAML syntax error`);
    expect(msg).toContain(`${join(FIX, 'bad', 'typo.yaml')}:4:5: unknown key "humanMesage"`);
    expect(msg).toContain(
      `${join(FIX, 'bad', 'typo.yaml')}:6:17: unknown matcher "contians" — did you mean "contains"?`,
    );
    expect(msg).toContain(`${join(FIX, 'missing.yaml')}:1:1: no such file or directory`);
  });
});
