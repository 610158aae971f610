/**
 * filterScenarios (tags, grep) and exportScenarioJsonSchema.
 */
import { describe, expect, it } from 'vitest';
import { exportScenarioJsonSchema, filterScenarios, MATCHER_NAMES, parseSuite } from '../../src/scenario/index.js';

const A = parseSuite(
  'suite: Purchases\nscenarios:\n  - name: buys shirts\n    tags: [cart, smoke]\n    humanMessage: a\n  - name: asks price\n    tags: [price]\n    humanMessage: b\n',
  'a.yaml',
);
const B = parseSuite(
  'suite: Greetings\nscenarios:\n  - name: says hello\n    tags: smoke\n    humanMessage: c\n',
  'b.yaml',
);
const names = (suites: ReturnType<typeof filterScenarios>) =>
  suites.map((s) => `${s.name}: ${s.scenarios.map((x) => x.name).join(', ')}`);

describe('filterScenarios', () => {
  it('keeps everything with an empty filter', () => {
    expect(names(filterScenarios([A, B], {}))).toEqual(['Purchases: buys shirts, asks price', 'Greetings: says hello']);
  });
  it('keeps scenarios with any of the tags, dropping empty suites', () => {
    expect(names(filterScenarios([A, B], { tags: ['smoke'] }))).toEqual([
      'Purchases: buys shirts',
      'Greetings: says hello',
    ]);
    expect(names(filterScenarios([A, B], { tags: ['price', 'none'] }))).toEqual(['Purchases: asks price']);
  });
  it('greps suite and scenario names: a string ignoring case, or a RegExp', () => {
    expect(names(filterScenarios([A, B], { grep: 'PRICE' }))).toEqual(['Purchases: asks price']);
    expect(names(filterScenarios([A, B], { grep: 'greetings' }))).toEqual(['Greetings: says hello']);
    expect(names(filterScenarios([A, B], { grep: /^Purchases (buys|asks)/ }))).toEqual([
      'Purchases: buys shirts, asks price',
    ]);
    expect(names(filterScenarios([A, B], { grep: /hello/g }))).toEqual(['Greetings: says hello']);
    expect(names(filterScenarios([A, B], { grep: /hello/g }))).toEqual(['Greetings: says hello']);
  });
  it('needs both tags and grep when both are given, and does not mutate its input', () => {
    expect(names(filterScenarios([A, B], { tags: ['smoke'], grep: 'shirts' }))).toEqual(['Purchases: buys shirts']);
    expect(A.scenarios).toHaveLength(2);
  });
});

describe('exportScenarioJsonSchema', () => {
  const schema = exportScenarioJsonSchema() as {
    $schema: string;
    title: string;
    required: string[];
    properties: Record<string, unknown>;
    additionalProperties: boolean;
  };
  it('describes the suite format (draft 2020-12)', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('droidcheck scenario suite');
    expect(schema.required).toEqual(['scenarios']);
    expect(Object.keys(schema.properties)).toEqual(['suite', 'scenarios', 'repeat', 'passRate', 'minPasses']);
    expect(schema.additionalProperties).toBe(false);
  });
  it('names every matcher and every scenario key', () => {
    const text = JSON.stringify(schema);
    for (const m of MATCHER_NAMES) expect(text).toContain(`"${m}"`);
    for (const k of [
      'name',
      'tags',
      'modes',
      'chatHistory',
      'humanMessage',
      'expect',
      'latency',
      'steps',
      'say',
      'call',
      'capture',
      'vars',
      'repeat',
      'passRate',
      'minPasses',
    ])
      expect(text).toContain(`"${k}"`);
    expect(text).toContain('"both"');
  });
  it('is plain JSON (round-trips)', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});
