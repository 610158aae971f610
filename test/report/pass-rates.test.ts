/** computePassRates: per scenario x mode over repeats, requirements, flaky, per suite. */
import { describe, expect, it } from 'vitest';
import { computePassRates } from '../../src/report/pass-rates.js';
import { parseSuite } from '../../src/scenario/index.js';
import { record } from './fixtures.js';

const suite = parseSuite(
  `suite: Shop
passRate: 0.6
scenarios:
  - name: flaky
    humanMessage: hi
    repeat: 4
    minPasses: 2
  - name: strict
    humanMessage: hi
    repeat: 2
    passRate: 1
  - name: default
    humanMessage: hi
`,
  'shop.yaml',
);

const runs = (scenario: string, results: boolean[], mode: 'sync' | 'async' = 'sync') =>
  results.map((passed, repeat) => record({ scenario, mode, repeat, passed }));

describe('computePassRates', () => {
  it('judges each scenario x mode by its requirement and flags flaky ones', () => {
    const rates = computePassRates(
      [...runs('flaky', [true, false, true, false]), ...runs('strict', [true, false]), ...runs('default', [true]), ...runs('default', [false], 'async')],
      [suite],
    );
    expect(rates.scenarios.map((s) => [s.scenario, s.mode, s.runs, s.passes, s.requiredPasses, s.flaky, s.passed])).toEqual([
      ['flaky', 'sync', 4, 2, 2, true, true],
      ['strict', 'sync', 2, 1, 2, true, false],
      ['default', 'sync', 1, 1, 1, false, true],
      ['default', 'async', 1, 0, 1, false, false],
    ]);
    expect(rates.scenarios[0]).toMatchObject({ passRate: 0.5, required: { minPasses: 2 } });
    // The suite passRate is the default of "default": ceil(0.6 x 1) = 1.
    expect(rates.scenarios[2]?.required).toEqual({ passRate: 0.6 });
    expect(rates.suites).toEqual([{ suite: 'Shop', runs: 8, passes: 4, passRate: 0.5, required: 0.6, passed: false }]);
    expect(rates.passed).toBe(false);
    expect(rates.flaky).toBe(2);
  });

  it('passes a suite that meets every requirement; interrupted runs give no verdict', () => {
    const rates = computePassRates(
      [...runs('flaky', [true, true, false, true]), ...runs('strict', [true, true]), record({ scenario: 'default', passed: true }), record({ scenario: 'default', outcome: 'interrupted', passed: false })],
      [suite],
    );
    expect(rates.passed).toBe(true);
    expect(rates.scenarios.find((s) => s.scenario === 'default')).toMatchObject({ runs: 1, passes: 1, passed: true });
    expect(rates.suites[0]).toMatchObject({ runs: 7, passes: 6, passed: true });
  });

  it('requires every run to pass when no requirement is written', () => {
    const plain = parseSuite('suite: P\nscenarios:\n  - name: a\n    humanMessage: hi\n    repeat: 3\n', 'p.yaml');
    const rates = computePassRates(runs('a', [true, true, false]).map((r) => ({ ...r, suite: 'P' })), [plain]);
    expect(rates.scenarios[0]).toMatchObject({ required: { all: true }, requiredPasses: 3, passed: false, flaky: true });
  });
});
