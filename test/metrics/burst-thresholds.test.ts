/**
 * `burst.<finding>.rate` and `.count` (docs/bursts.md): the share (in %) and the number of the
 * bursts judged with a finding; an unknown finding is refused with a did-you-mean; a job that
 * judged no burst has no figure (`no-samples`), never a pass that looks judged.
 */
import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../src/errors.js';
import {
  evaluateThresholds,
  LatencyRecorder,
  parseThreshold,
  perLatencyMetric,
  zeroBurstCounts,
  type ThresholdData,
} from '../../src/metrics/index.js';

function data(bursts?: ThresholdData['bursts']): ThresholdData {
  const rec = new LatencyRecorder();
  return {
    summary: { requests: 10, outcomes: { answered: 10 }, passRate: 1 },
    latency: perLatencyMetric((m) => rec.summary(m)),
    receiver: { duplicates: 0, late: 0, orphans: 0, badSecret: 0, malformed: 0 },
    ...(bursts && { bursts }),
  };
}

describe('burst thresholds', () => {
  it('parses every finding as a rate in % and a bare count', () => {
    for (const f of ['out_of_order', 'stale_last', 'cart_regressed', 'unanswered', 'declined']) {
      expect(parseThreshold(`burst.${f}.rate < 1%`)).toMatchObject({ metric: `burst.${f}`, kind: 'rate', value: 0.01 });
      expect(parseThreshold(`burst.${f}.count == 0`)).toMatchObject({ metric: `burst.${f}`, kind: 'count', value: 0 });
    }
    expect(() => parseThreshold('burst.out_of_order.rate < 1')).toThrow(/needs a unit: write 1%/);
  });

  it('refuses an unknown finding with a did-you-mean', () => {
    expect(() => parseThreshold('burst.out_of_orders.rate < 1%')).toThrow(ThresholdError);
    expect(() => parseThreshold('burst.out_of_orders.rate < 1%')).toThrow(/did you mean "burst\.out_of_order\.rate"/);
  });

  it('judges the share of the bursts judged; without a burst, no samples', () => {
    const bursts = { ...zeroBurstCounts(), total: 200, outOfOrder: 3, staleLast: 1 };
    const [ooo, stale, count] = evaluateThresholds(
      ['burst.out_of_order.rate < 1%', 'burst.stale_last.rate < 1%', 'burst.out_of_order.count <= 3'],
      data(bursts),
    );
    expect(ooo).toMatchObject({ status: 'breached', actual: 0.015, count: 200, unit: 'share' });
    expect(stale).toMatchObject({ status: 'passed', actual: 0.005 });
    expect(count).toMatchObject({ status: 'passed', actual: 3, unit: 'count' });
    for (const t of evaluateThresholds(['burst.out_of_order.rate < 1%', 'burst.unanswered.count == 0'], data()))
      expect(t).toMatchObject({ status: 'no-samples', actual: null, passed: true });
  });
});
