/**
 * Generated malformed files: mutations of a good suite (deleted keys, wrong types, typos in keys
 * and matcher names, bad regexes, bad indentation, tabs, duplicate names, unclosed quotes...).
 * Each must give a ScenarioError whose every line is `file:line:col: message`, with no stack trace.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { parseSuite } from '../../src/scenario/index.js';

const GOOD = `suite: Purchases
scenarios:
  - name: buys two Oxford shirts
    tags: [cart, address]
    modes: [sync, async]
    chatHistory:
      - human: Hi, do you sell shirts?
      - ai: Yes, we have Oxford shirts.
    humanMessage: I'll take 2, to 99 Sukhumvit Rd, Bangkok 10110
    expect:
      intents: { includes: purchase }
      shoppingCart.grandTotal: "2,580.00 THB"
      addressParsing.postal_code: { matches: "^101\\\\d\\\\d$" }
      answer: { contains: Oxford, notContains: sorry }
      customerInsight.contact_info.email: { absent: true }
      executionTime: { lt: 180000 }
    latency: "< 180s"
  - name: greets
    humanMessage: Hello!
    expect:
      intents: { includes: greeting }
`;
const LINES = GOOD.split('\n');
const KEY_LINES = LINES.map((l, i) => [l, i] as const).filter(([l]) => /^\s*(- )?[A-Za-z.]+:/.test(l));

function typo(word: string, n: number): string {
  const i = (n % (word.length - 1)) + 1;
  switch (n % 4) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1); // drop a letter
    case 1:
      return word.slice(0, i - 1) + (word[i] ?? '') + (word[i - 1] ?? '') + word.slice(i + 1); // swap
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i); // double a letter
    default:
      return `${word.slice(0, i)}x${word.slice(i + 1)}`; // replace
  }
}

const replaceLine = (i: number, line: string): string => LINES.map((l, j) => (j === i ? line : l)).join('\n');
const dropLine = (i: number): string => LINES.filter((_, j) => j !== i).join('\n');

function mutations(): [string, string][] {
  const out: [string, string][] = [];
  const SCALAR_KEYS = ['suite', 'name', 'humanMessage', 'latency'];
  // 1. typos in every key and matcher name, four kinds each
  for (const [line, i] of KEY_LINES) {
    for (const m of line.matchAll(/([A-Za-z]+)(?=:)/g)) {
      const word = m[1]!;
      if (word.length < 4 || ['http', 'https'].includes(word)) continue;
      for (let n = 0; n < 4; n++) {
        const bad = typo(word, n);
        if (bad !== word)
          out.push([`typo ${word} -> ${bad} (line ${i + 1})`, replaceLine(i, line.replace(`${word}:`, `${bad}:`))]);
      }
    }
  }
  // 2. deleted required keys
  for (const key of ['scenarios', 'name', 'humanMessage']) {
    LINES.forEach((l, i) => {
      if (new RegExp(`^\\s*(- )?${key}:`).test(l) && !l.includes('- '))
        out.push([`delete ${key} (line ${i + 1})`, dropLine(i)]);
    });
  }
  // 3. wrong types
  const WRONG = ['[1, 2]', '{ a: 1 }', '42', 'true', '""'];
  LINES.forEach((l, i) => {
    const m = /^(\s*(?:- )?)(\w+): (.+)$/.exec(l);
    if (!m || !SCALAR_KEYS.includes(m[2]!)) return;
    for (const w of WRONG)
      if (!(w === '42' && m[2] === 'latency'))
        out.push([`wrong type ${m[2]}=${w}`, replaceLine(i, `${m[1]}${m[2]}: ${w}`)]);
  });
  for (const w of ['3', 'yes', '{ a: b }', '[1]'])
    out.push([`tags=${w}`, GOOD.replace('tags: [cart, address]', `tags: ${w === 'yes' ? '{}' : w}`)]);
  for (const w of ['sometimes', '[sync, later]', '[]', '{ sync: true }', '7'])
    out.push([`modes=${w}`, GOOD.replace('modes: [sync, async]', `modes: ${w}`)]);
  for (const w of [
    'hello',
    '[a, b]',
    '{ human: 1 }',
    '{ type: bot, content: x }',
    '{ type: human }',
    '{ human: a, ai: b }',
  ]) {
    out.push([`chat turn ${w}`, GOOD.replace('- human: Hi, do you sell shirts?', `- ${w}`)]);
  }
  // 4. bad regexes
  for (const re of ['(', '[a-', '*x', 'a{2,1}', '(?<n>a)(?<n>b)', '\\', '+', '(?i)(']) {
    out.push([`bad regex ${re}`, GOOD.replace('"^101\\\\d\\\\d$"', JSON.stringify(re))]);
  }
  // 5. bad matcher values
  for (const v of [
    '{ money: lots }',
    '{ length: { min: 5, max: 1 } }',
    '{ length: -1 }',
    '{ gt: ten }',
    '{ oneOf: [] }',
    '{}',
    '{ ignoreCase: true }',
    '{ json: 3 }',
    '{ contains: [1] }',
    '{ absent: maybe }',
    '{ matches: { pattern: x, flags: z } }',
  ]) {
    out.push([`matcher value ${v}`, GOOD.replace('{ lt: 180000 }', v)]);
  }
  // 6. bad latency values
  for (const v of ['soon', '"< 3h"', '"<< 3s"', '"> 1s"', '"-1s"', '"1,5s"', '"ms"', '"< s"'])
    out.push([`latency ${v}`, GOOD.replace('"< 180s"', v)]);
  // 7. bad paths
  for (const p of ['responses[0].kwargs', 'a..b', '.answer', 'answer.', 'shopping cart'])
    out.push([`path ${p}`, GOOD.replace('executionTime:', `${p}:`)]);
  // 8. YAML damage: indentation, tabs, quotes, duplicates
  LINES.forEach((l, i) => {
    if (!l.trim() || i === 0) return;
    if (/^\s+\S/.test(l))
      out.push([
        `tab indent line ${i + 1}`,
        replaceLine(
          i,
          l.replace(/^(\s+)/, (s) => '\t'.repeat(Math.max(1, s.length / 2))),
        ),
      ]);
  });
  for (const i of [3, 8, 9, 16, 18]) out.push([`indent +1 line ${i + 1}`, replaceLine(i, ` ${LINES[i]}`)]);
  for (const i of [3, 8, 16]) out.push([`indent -1 line ${i + 1}`, replaceLine(i, LINES[i]!.slice(1))]);
  out.push(['unclosed double quote', GOOD.replace('"2,580.00 THB"', '"2,580.00 THB')]);
  out.push(['unclosed single quote', GOOD.replace('"< 180s"', "'< 180s")]);
  out.push(['unclosed flow map', GOOD.replace('{ includes: purchase }', '{ includes: purchase')]);
  out.push(['unclosed flow seq', GOOD.replace('[cart, address]', '[cart, address')]);
  out.push(['duplicate scenario name', GOOD.replace('name: greets', 'name: buys two Oxford shirts')]);
  out.push([
    'duplicate key',
    GOOD.replace('    humanMessage: Hello!', '    humanMessage: Hello!\n    humanMessage: Hi!'),
  ]);
  out.push(['duplicate expect path', GOOD.replace('      executionTime:', '      answer: x\n      executionTime:')]);
  out.push(['empty scenarios', 'suite: s\nscenarios: []\n']);
  out.push(['scenarios as map', 'suite: s\nscenarios: { a: 1 }\n']);
  out.push(['not a suite', 'kind: other\n']);
  out.push(['empty file', '']);
  out.push(['list at top', '- suite: s\n']);
  out.push(['two documents', `${GOOD}---\n${GOOD}`]);
  out.push(['alias to nothing', GOOD.replace('tags: [cart, address]', 'tags: *nope')]);
  return out;
}

describe('malformed suites', () => {
  const cases = mutations();

  it('generates at least 200 distinct malformed files', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map(([, t]) => t)).size).toBe(cases.length);
    expect(() => parseSuite(GOOD, 'good.yaml')).not.toThrow();
  });

  it.each(cases)('%s', (_name, text) => {
    let err: unknown;
    try {
      parseSuite(text, 'fixtures/mutant.yaml');
    } catch (e) {
      err = e;
    }
    expect(err, 'no ScenarioError').toBeInstanceOf(ScenarioError);
    const message = (err as ScenarioError).message;
    expect(message).not.toContain('    at ');
    for (const line of message.split('\n')) expect(line).toMatch(/^fixtures\/mutant\.yaml:\d+:\d+: \S/);
    expect((err as ScenarioError).issues.length).toBeGreaterThan(0);
  });
});
