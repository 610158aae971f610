/**
 * Every kind of mistake in a suite file is a ScenarioError naming file:line:col, and all the
 * issues of a file are reported together.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/errors.js';
import { parseSuite } from '../../src/scenario/index.js';

function issuesOf(text: string, file = 's.yaml'): string[] {
  try {
    parseSuite(text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return (err as ScenarioError).message.split('\n');
  }
  throw new Error('expected a ScenarioError');
}

const HEAD = 'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n';

describe('ScenarioError locations', () => {
  it.each([
    [
      'YAML syntax: unclosed quote',
      'suite: s\nscenarios:\n  - name: "x\n',
      /^s\.yaml:4:1: YAML syntax error: Missing closing "quote/,
    ],
    [
      'YAML syntax: tab indentation',
      'suite: s\nscenarios:\n\t- name: a\n',
      /^s\.yaml:3:1: YAML syntax error: Tabs are not allowed/,
    ],
    [
      'YAML syntax: duplicate key',
      'suite: s\nsuite: t\nscenarios: []\n',
      /^s\.yaml:2:1: YAML syntax error: Map keys must be unique/,
    ],
    [
      'YAML syntax: bad indentation',
      'suite: s\nscenarios:\n  - name: a\n   humanMessage: hi\n',
      /^s\.yaml:4:\d+: YAML syntax error/,
    ],
    [
      'missing humanMessage',
      'suite: s\nscenarios:\n  - name: a\n    tags: [x]\n',
      /^s\.yaml:3:5: missing required key "humanMessage"$/,
    ],
    ['missing name', 'suite: s\nscenarios:\n  - humanMessage: hi\n', /^s\.yaml:3:5: missing required key "name"$/],
    ['missing scenarios', 'suite: s\n', /^s\.yaml:1:1: missing required key "scenarios"$/],
    ['empty scenarios', 'suite: s\nscenarios: []\n', /^s\.yaml:2:12: scenarios is empty/],
    ['wrong type', `${HEAD}    tags: 3\n`, /^s\.yaml:5:11: "tags": must be a list or a string, got a number$/],
    [
      'wrong type in list',
      'suite: s\nscenarios:\n  - name: a\n    humanMessage: [hi]\n',
      /^s\.yaml:4:19: "humanMessage" must be a string, got a list$/,
    ],
    ['scenarios not a list', 'suite: s\nscenarios: {}\n', /^s\.yaml:2:12: "scenarios" must be a list, got a map$/],
    [
      'unknown top-level key',
      'suite: s\nscenario:\n  - name: a\n',
      /^s\.yaml:2:1: unknown key "scenario" — did you mean "scenarios"\?$/,
    ],
    [
      'unknown scenario key',
      `${HEAD}    expects: {}\n`,
      /^s\.yaml:5:5: unknown key "expects" — did you mean "expect"\?$/,
    ],
    [
      'unknown key, no suggestion',
      `${HEAD}    colour: red\n`,
      /^s\.yaml:5:5: unknown key "colour"; allowed keys: name, tags/,
    ],
    [
      'unknown matcher',
      `${HEAD}    expect:\n      answer: { contians: x }\n`,
      /^s\.yaml:6:17: unknown matcher "contians" — did you mean "contains"\?$/,
    ],
    [
      'unknown matcher, no suggestion',
      `${HEAD}    expect:\n      shoppingCart: { grandTotal: x }\n`,
      /^s\.yaml:6:23: unknown matcher "grandTotal"; matchers: equals, contains/,
    ],
    [
      'unknown option key',
      `${HEAD}    expect:\n      a: { contains: { value: x, ignorCase: true } }\n`,
      /^s\.yaml:6:34: unknown key "ignorCase" — did you mean "ignoreCase"\?$/,
    ],
    [
      'bad regex',
      `${HEAD}    expect:\n      answer: { matches: "([a-z" }\n`,
      /^s\.yaml:6:26: bad regular expression: .*Unterminated/,
    ],
    [
      'bad regex flags',
      `${HEAD}    expect:\n      answer: { matches: { pattern: x, flags: gq } }\n`,
      /^s\.yaml:6:47: flags may only hold i, m, s, u$/,
    ],
    ['bad latency', `${HEAD}    latency: soon\n`, /^s\.yaml:5:14: latency must look like/],
    ['bad latency unit', `${HEAD}    latency: "< 3h"\n`, /^s\.yaml:5:14: latency must look like/],
    [
      'bad mode',
      `${HEAD}    modes: [sync, later]\n`,
      /^s\.yaml:5:19: item 2 of "modes" must be one of: sync, async; got "later"$/,
    ],
    [
      'bad mode string',
      `${HEAD}    modes: sideways\n`,
      /^s\.yaml:5:12: "modes" must be one of: sync, async, both; got "sideways"$/,
    ],
    ['empty modes', `${HEAD}    modes: []\n`, /^s\.yaml:5:12: modes is empty/],
    [
      'bad chat turn',
      `${HEAD}    chatHistory:\n      - hello\n`,
      /^s\.yaml:6:9: item 1 of "chatHistory": a chat turn is/,
    ],
    [
      'chat turn typo',
      `${HEAD}    chatHistory:\n      - humna: hello\n`,
      /^s\.yaml:6:9: unknown key "humna" — did you mean "human"\?$/,
    ],
    [
      'chat turn bad type',
      `${HEAD}    chatHistory:\n      - { type: bot, content: x }\n`,
      /^s\.yaml:6:17: "type" must be one of: human, ai; got "bot"$/,
    ],
    [
      'bracket path',
      `${HEAD}    expect:\n      responses[0].kwargs.content: x\n`,
      /^s\.yaml:6:7: path "responses\[0\]\.kwargs\.content" uses brackets; write array indices as dotted segments: "responses\.0\.kwargs\.content"$/,
    ],
    ['empty path segment', `${HEAD}    expect:\n      a..b: x\n`, /^s\.yaml:6:7: path "a\.\.b" has an empty segment/],
    ['empty matcher object', `${HEAD}    expect:\n      a: {}\n`, /^s\.yaml:6:10: empty matcher object/],
    [
      'bad money',
      `${HEAD}    expect:\n      a: { money: lots }\n`,
      /^s\.yaml:6:19: expected an amount and a currency code/,
    ],
    [
      'bad length bounds',
      `${HEAD}    expect:\n      a: { length: { min: 3, max: 1 } }\n`,
      /^s\.yaml:6:20: length: min is greater than max$/,
    ],
    [
      'bad nested json matcher',
      `${HEAD}    expect:\n      a: { json: { b: { equls: 1 } } }\n`,
      /^s\.yaml:6:25: unknown matcher "equls" — did you mean "equals"\?$/,
    ],
    [
      'misspelt payload field',
      `${HEAD}    expect:\n      shopingCart.grandTotal: x\n`,
      /^s\.yaml:6:7: unknown field "shopingCart" in the answer payload — did you mean "shoppingCart"\?$/,
    ],
    [
      'misspelt nested field',
      `${HEAD}    expect:\n      addressParsing.postal_cod: x\n`,
      /^s\.yaml:6:7: unknown field "postal_cod" in "addressParsing" — did you mean "postal_code"\?$/,
    ],
    [
      'list not indexed',
      `${HEAD}    expect:\n      responses.kwargs.content: x\n`,
      /^s\.yaml:6:7: "responses" is a list: index it with a number/,
    ],
    ['not a suite', 'hello: world\n', /^s\.yaml:1:1: not a scenario suite/],
    ['empty file', '# nothing here\n', /^s\.yaml:1:1: the file is empty/],
  ])('%s', (_name, text, pattern) => {
    const issues = issuesOf(text);
    expect(issues[0]).toMatch(pattern);
  });

  it('accepts paths to fields the contract does not name (the service may add fields)', () => {
    const text = `${HEAD}    expect:\n      loyaltyPoints: 3\n      customExtractedInfo.anything.at.all: x\n      shoppingCart.products.0.colour: blue\n`;
    expect(parseSuite(text, 's.yaml').scenarios[0]?.expect).toHaveLength(3);
  });

  it('reports duplicate scenario names at the second name, pointing to the first', () => {
    const text = 'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n  - name: a\n    humanMessage: ho\n';
    expect(issuesOf(text)).toEqual([
      's.yaml:5:11: duplicate scenario name "a" (first used at line 3); names must be unique in a suite',
    ]);
  });

  it('collects every issue of a file, sorted by position', () => {
    const text = [
      'suite: s',
      'scenarios:',
      '  - name: a',
      '    humanMesage: hi',
      '    modes: sideways',
      '    expect:',
      '      answer: { contians: x, matches: "(" }',
      '    latency: soon',
      '  - name: a',
      '    humanMessage: hi',
    ].join('\n');
    const issues = issuesOf(text);
    expect(issues.map((i) => i.split(': ')[0])).toEqual([
      's.yaml:4:5',
      's.yaml:5:12',
      's.yaml:7:17',
      's.yaml:7:39',
      's.yaml:8:14',
      's.yaml:9:11',
    ]);
  });

  it('locates issues under YAML aliases at the alias', () => {
    const text = 'suite: s\nscenarios:\n  - &base\n    name: a\n    humanMessage: hi\n  - *base\n';
    expect(issuesOf(text)[0]).toMatch(/^s\.yaml:6:5: duplicate scenario name "a"/);
  });
});
