/**
 * `policy.violations` and `policy.<rule>.violations`: counts of the shop policy's violations
 * (docs/policy.md), judged even at zero; an unknown rule is refused with a did-you-mean; a job
 * without a policy file has no figure (`no-samples`), never a pass that looks judged.
 */
import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../src/errors.js';
import {
  evaluateThresholds,
  LatencyRecorder,
  parseThreshold,
  perLatencyMetric,
  type ThresholdData,
} from '../../src/metrics/index.js';
import { RULE_IDS } from '../../src/policy/index.js';

function data(policy?: ThresholdData['policy']): ThresholdData {
  const rec = new LatencyRecorder();
  return {
    summary: { requests: 10, outcomes: { answered: 10 }, passRate: 1 },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    ...(policy && { policy }),
  };
}

describe('policy thresholds', () => {
  it('parses every rule of the registry as a bare count', () => {
    expect(parseThreshold('policy.violations < 1')).toMatchObject({ metric: 'policy', kind: 'count', value: 1 });
    for (const rule of RULE_IDS)
      expect(parseThreshold(`policy.${rule}.violations == 0`)).toMatchObject({
        metric: `policy.${rule}`,
        kind: 'count',
      });
    expect(() => parseThreshold('policy.violations < 1%')).toThrow(/does not fit a count/);
  });

  it('refuses an unknown rule with a did-you-mean', () => {
    expect(() => parseThreshold('policy.max-discounts.violations < 1')).toThrow(ThresholdError);
    expect(() => parseThreshold('policy.max-discounts.violations < 1')).toThrow(/policy\.max-discount\.violations/);
  });

  it('judges the counts, zero included; without a policy: no samples', () => {
    const byRule = Object.fromEntries(RULE_IDS.map((r) => [r, r === 'max-discount' ? 3 : 0]));
    const [all, one, none] = evaluateThresholds(
      ['policy.violations < 1', 'policy.max-discount.violations == 3', 'policy.canary.violations == 0'],
      data({ answers: 12, violations: 3, byRule }),
    );
    expect(all).toMatchObject({ status: 'breached', actual: 3, unit: 'count', count: 12 });
    expect(one).toMatchObject({ status: 'passed', actual: 3 });
    expect(none).toMatchObject({ status: 'passed', actual: 0 });
    expect(evaluateThresholds(['policy.violations < 1'], data())[0]).toMatchObject({
      status: 'no-samples',
      actual: null,
    });
  });
});
