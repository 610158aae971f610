/**
 * The policy file is read like a scenario file: every problem at file:line:col, a did-you-mean
 * for a misspelt key, all at once, in one PolicyError (DROIDCHECK_ERR_POLICY, exit 2); amounts
 * with thousands separators, percents as "10%" or a bare number.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PolicyError } from '../../src/errors.js';
import { validateScenarios } from '../../src/jobs/suites/validate.js';
import { demoShopPolicy, loadPolicy, parsePolicy, policyJsonSchema } from '../../src/policy/index.js';
import { POLICY_TEXT } from './fixtures.js';

const problems = (text: string): string[] => {
  try {
    parsePolicy(text, 'p.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(PolicyError);
    expect((err as PolicyError).code).toBe('DROIDCHECK_ERR_POLICY');
    expect((err as PolicyError).exitCode).toBe(2);
    return (err as PolicyError).message.split('\n');
  }
  throw new Error('expected a PolicyError');
};

describe('parsePolicy', () => {
  it('reads amounts, percents and where each key is', () => {
    const p = parsePolicy(POLICY_TEXT, 'shop.yaml');
    expect(p.catalogue?.[1]).toEqual({ name: 'Canvas Bag', price: 1590, minPrice: 1500 });
    expect(p.maxDiscount).toBeCloseTo(0.1);
    expect(parsePolicy('currency: THB\nmaxDiscount: 5\n', 'x').maxDiscount).toBeCloseTo(0.05);
    expect(p.locations.shipping).toEqual({ file: 'shop.yaml', line: 5, col: 1 });
  });

  it('every problem at file:line:col, a misspelt key with a did-you-mean', () => {
    const lines = problems(`currency: baht
catalog:
  - { name: Tee, price: 390 }
shipping: { fee: cheap }
maxDiscount: 150%
forbidden: ["/unclosed(/"]
languages: [thai]
`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^p\.yaml:1:\d+: .*ISO 4217/),
        expect.stringMatching(/^p\.yaml:2:1: .*catalog.*did you mean "catalogue"/),
        expect.stringMatching(/^p\.yaml:4:\d+: .*amount/),
        expect.stringMatching(/^p\.yaml:5:\d+: .*percent/),
        expect.stringMatching(/^p\.yaml:6:\d+: .*regular expression/),
        expect.stringMatching(/^p\.yaml:7:\d+: .*two-letter/),
      ]),
    );
  });

  it('a minPrice above its price, an empty file, a YAML syntax error', () => {
    expect(problems('currency: THB\ncatalogue:\n  - { name: Bag, price: 10, minPrice: 20 }\n')).toEqual([
      expect.stringMatching(/^p\.yaml:3:\d+: .*minPrice must not be above price/),
    ]);
    expect(problems('')[0]).toMatch(/^p\.yaml:1:1: .*empty/);
    expect(problems('currency: [THB\n')[0]).toMatch(/^p\.yaml:\d+:\d+: YAML syntax error/);
  });

  it('a file that is not there', () => {
    expect(() => loadPolicy('/nonexistent/droidcheck.policy.yaml')).toThrow(/no such file/);
  });
});

describe('droidcheck validate', () => {
  it("checks the policy file run would read (the config file's policy:), without sending", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'droidcheck-policy-validate-'));
    try {
      await writeFile(join(dir, 'suite.yaml'), 'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n');
      await writeFile(join(dir, 'shop.yaml'), 'currency: THB\nshiping: { fee: 50 }\n');
      await writeFile(join(dir, 'droidcheck.config.yaml'), `policy: ${join(dir, 'shop.yaml')}\n`);
      const config = join(dir, 'droidcheck.config.yaml');
      const err = await validateScenarios([join(dir, 'suite.yaml')], { config, env: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PolicyError);
      expect((err as PolicyError).message).toMatch(/shop\.yaml:2:1: unknown key "shiping" — did you mean "shipping"\?/);
      await writeFile(join(dir, 'shop.yaml'), 'currency: THB\nshipping: { fee: 50 }\n');
      expect((await validateScenarios([join(dir, 'suite.yaml')], { config, env: {} })).scenarios).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('droidcheck.policy.schema.json', () => {
  const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(policyJsonSchema());

  it("accepts the demo shop's policy init writes and the documented example; refuses a misspelt key", () => {
    const demo = demoShopPolicy({
      currency: 'THB',
      shippingFee: 50,
      freeShippingThreshold: 1500,
      products: [{ name: 'Oxford shirt', price: 1290, keywords: ['oxford shirt', 'เสื้อเชิ้ต'] }],
    });
    expect(validate(parse(demo)), JSON.stringify(validate.errors)).toBe(true);
    expect(parsePolicy(demo, 'demo.yaml').catalogue).toEqual([
      { name: 'Oxford shirt', price: 1290, aliases: ['เสื้อเชิ้ต'] },
    ]);
    expect(validate(parse(POLICY_TEXT)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ currency: 'THB', catalog: [] })).toBe(false);
  });
});
