/**
 * `coverage.products`, `coverage.intents`, `coverage.rules` and `coverage.funnel.<stage>`: shares
 * of what a job covered (docs/coverage.md), written in `%` like every rate; a breach names what
 * was not covered; a job with nothing to count against (no catalogue, no declared intents, no
 * policy, no conversation) has no figure, never a pass that looks judged.
 */
import { describe, expect, it } from 'vitest';
import {
  evaluateThresholds,
  FUNNEL_STAGES,
  LatencyRecorder,
  parseThreshold,
  perLatencyMetric,
  thresholdVerdictText,
  type ThresholdData,
} from '../../src/metrics/index.js';

function data(coverage?: ThresholdData['coverage']): ThresholdData {
  const rec = new LatencyRecorder();
  return {
    summary: { requests: 10, outcomes: { answered: 10 }, passRate: 1 },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    ...(coverage && { coverage }),
  };
}

const zero = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<(typeof FUNNEL_STAGES)[number], number>;

describe('coverage thresholds', () => {
  it('parse as shares with their unit; a bare number or an unknown part is refused', () => {
    expect(parseThreshold('coverage.products >= 100%')).toMatchObject({
      metric: 'coverage.products',
      kind: 'rate',
      value: 1,
    });
    for (const stage of FUNNEL_STAGES)
      expect(parseThreshold(`coverage.funnel.${stage} > 10%`)).toMatchObject({ kind: 'rate', value: 0.1 });
    expect(() => parseThreshold('coverage.products >= 100')).toThrow(/needs a unit: write 100%/);
    expect(() => parseThreshold('coverage.funnel.adress > 0%')).toThrow(/did you mean "coverage\.funnel\.address"/);
    expect(() => parseThreshold('coverage.endpoints > 0%')).toThrow(/unknown metric/);
  });

  it('judge the share, naming what was not covered; no figure without anything to count against', () => {
    const [products, intents, address, rules] = evaluateThresholds(
      ['coverage.products >= 100%', 'coverage.intents >= 50%', 'coverage.funnel.address > 0%', 'coverage.rules >= 1%'],
      data({
        products: { total: 3, covered: 1, uncovered: ['Wool beanie', 'Rain jacket'] },
        intents: { total: 2, covered: 2, uncovered: [] },
        funnel: {
          conversations: 4,
          stages: { ...zero, cart: 2 },
          unreached: { ...{ product: [], cart: [], total: [], contact: [] }, address: ['Shop'] },
        },
      }),
    );
    expect(products).toMatchObject({
      status: 'breached',
      actual: 1 / 3,
      unit: 'share',
      count: 3,
      uncovered: ['Wool beanie', 'Rain jacket'],
    });
    expect(thresholdVerdictText(products!)).toBe(
      'coverage.products >= 100% (actual 33.3%, 3 products; not covered: Wool beanie, Rain jacket)',
    );
    expect(intents).toMatchObject({ status: 'passed', actual: 1 });
    expect(intents?.uncovered).toBeUndefined();
    expect(address).toMatchObject({ status: 'breached', actual: 0, count: 4, uncovered: ['Shop'] });
    expect(rules).toMatchObject({ status: 'no-samples', actual: null, passed: true });
    expect(evaluateThresholds(['coverage.products >= 100%'], data())[0]).toMatchObject({ status: 'no-samples' });
  });
});
