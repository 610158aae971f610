/** computePassRates: per scenario x mode over repeats, requirements, flaky, per suite. */
import { describe, expect, it } from 'vitest';
import { mergePassRates } from '../../src/report/sections/pass-rates.js';
import { computePassRates } from '../../src/report/sections/pass-rates.js';
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
      [
        ...runs('flaky', [true, false, true, false]),
        ...runs('strict', [true, false]),
        ...runs('default', [true]),
        ...runs('default', [false], 'async'),
      ],
      [suite],
    );
    expect(
      rates.scenarios.map((s) => [s.scenario, s.mode, s.runs, s.passes, s.requiredPasses, s.flaky, s.passed]),
    ).toEqual([
      ['flaky', 'sync', 4, 2, 2, true, true],
      ['strict', 'sync', 2, 1, 2, true, false],
      ['default', 'sync', 1, 1, 1, false, true],
      ['default', 'async', 1, 0, 1, false, false],
    ]);
    expect(rates.scenarios[0]).toMatchObject({ passRate: 0.5, required: { minPasses: 2 } });
    // The suite passRate is the default of "default": ceil(0.6 x 1) = 1.
    expect(rates.scenarios[2]?.required).toEqual({ passRate: 0.6 });
    expect(rates.suites).toEqual([
      {
        suite: 'Shop',
        runs: 8,
        passes: 4,
        passRate: 0.5,
        interval: { low: expect.closeTo(0.2152, 3), high: expect.closeTo(0.7848, 3) },
        required: 0.6,
        passed: false,
      },
    ]);
    expect(rates.passed).toBe(false);
    expect(rates.flaky).toBe(2);
  });

  it('passes a suite that meets every requirement; interrupted runs give no verdict', () => {
    const rates = computePassRates(
      [
        ...runs('flaky', [true, true, false, true]),
        ...runs('strict', [true, true]),
        record({ scenario: 'default', passed: true }),
        record({ scenario: 'default', outcome: 'interrupted', passed: false }),
      ],
      [suite],
    );
    expect(rates.passed).toBe(true);
    expect(rates.scenarios.find((s) => s.scenario === 'default')).toMatchObject({ runs: 1, passes: 1, passed: true });
    expect(rates.suites[0]).toMatchObject({ runs: 7, passes: 6, passed: true });
  });

  it('requires every run to pass when no requirement is written', () => {
    const plain = parseSuite('suite: P\nscenarios:\n  - name: a\n    humanMessage: hi\n    repeat: 3\n', 'p.yaml');
    const rates = computePassRates(
      runs('a', [true, true, false]).map((r) => ({ ...r, suite: 'P' })),
      [plain],
    );
    expect(rates.scenarios[0]).toMatchObject({
      required: { all: true },
      requiredPasses: 3,
      passed: false,
      flaky: true,
    });
  });

  it('gives the Wilson 95% interval, pass^k and a flaky status of its own', () => {
    const rates = computePassRates(
      [...runs('flaky', [true, false, true, true]), ...runs('strict', [true, true]), ...runs('default', [false])],
      [suite],
    );
    const [flaky, strict, none] = rates.scenarios;
    expect(flaky).toMatchObject({ status: 'flaky', flaky: true, allPassed: false, passRate: 0.75, passed: true });
    expect(flaky!.interval.low).toBeCloseTo(0.3006, 3);
    expect(flaky!.interval.high).toBeCloseTo(0.9544, 3);
    expect(strict).toMatchObject({
      status: 'passed',
      allPassed: true,
      interval: { low: expect.closeTo(0.3424, 3), high: 1 },
    });
    expect(none).toMatchObject({
      status: 'failed',
      allPassed: false,
      flaky: false,
      interval: { low: 0, high: expect.closeTo(0.7935, 3) },
    });
    expect(rates.failOnFlaky).toBe(false);
    const cut = computePassRates([record({ scenario: 'default', outcome: 'interrupted', passed: false })], [suite]);
    expect(cut.scenarios[0]).toMatchObject({ runs: 0, status: 'not-run', passed: true, interval: { low: 0, high: 1 } });
  });

  it('fails flaky scenarios with failOnFlaky, even when they meet their requirement; merge keeps the option', () => {
    const records = [...runs('flaky', [true, false, true, true]), ...runs('strict', [true, true])];
    expect(computePassRates(records, [suite]).passed).toBe(true);
    const strict = computePassRates(records, [suite], { failOnFlaky: true });
    expect(strict.scenarios[0]).toMatchObject({ flaky: true, passed: false });
    expect(strict.scenarios[1]).toMatchObject({ flaky: false, passed: true });
    expect(strict).toMatchObject({ passed: false, failOnFlaky: true });
    // Two shards, each all-pass or all-fail: merged, the scenario is flaky.
    const a = computePassRates(runs('flaky', [true, true]), [suite], { failOnFlaky: true });
    const b = computePassRates(runs('flaky', [false, false]), [suite], { failOnFlaky: true });
    expect([a.scenarios[0]!.status, b.scenarios[0]!.status]).toEqual(['passed', 'failed']);
    const merged = mergePassRates([a, b])!;
    expect(merged.scenarios[0]).toMatchObject({
      runs: 4,
      passes: 2,
      status: 'flaky',
      flaky: true,
      passed: false,
      interval: { low: expect.closeTo(0.15, 2) },
    });
    expect(merged.failOnFlaky).toBe(true);
    expect(mergePassRates([a, b], { failOnFlaky: false })!.scenarios[0]!.passed).toBe(true); // minPasses 2 met
  });
});
