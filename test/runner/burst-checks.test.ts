/**
 * The built-in checks of a burst (runner/burst-checks.ts, docs/bursts.md), pure over how its
 * messages went: which answer arrived last and each finding, with the messages involved.
 */
import { describe, expect, it } from 'vitest';
import { checkBurst, type CheckedMessage } from '../../src/runner/burst-checks.js';

/** Message `index` sent at index × 300 ms; `at` its arrival (undefined: nothing came). */
function m(index: number, at: number | undefined, more: Partial<CheckedMessage> = {}): CheckedMessage {
  return {
    index,
    text: `message ${index + 1}`,
    requestId: `tpa-${index + 1}`,
    sentAtMs: index * 300,
    ...(at !== undefined && { arrivedAtMs: at }),
    status: at === undefined ? 'unanswered' : 'answered',
    outcome: at === undefined ? 'timeout' : 'answered',
    answersSeen: 0,
    ...more,
  };
}

const checks = (messages: CheckedMessage[]) => checkBurst(messages).findings.map((f) => [f.check, f.messages]);

describe('checkBurst', () => {
  it('answers in order, the last to the last message, carts growing: nothing found', () => {
    const r = checkBurst([m(0, 500, { cartKeys: ['T-shirt'] }), m(1, 800, { cartKeys: ['T-shirt', 'Tote bag'] })]);
    expect(r).toEqual({ lastDelivered: 1, findings: [] });
  });

  it('an earlier answer after a later one: out of order, a stale last answer, and the cart it lacks', () => {
    const r = checkBurst([
      m(0, 1500, { cartKeys: ['Cotton T-shirt'] }),
      m(1, 800, { cartKeys: ['cotton t-shirt', 'Tote bag'] }),
    ]);
    expect(r.lastDelivered).toBe(0);
    expect(r.findings).toEqual([
      {
        check: 'out-of-order',
        messages: [0, 1],
        message: 'the answer to message 1 (tpa-1, at 1.5 s) arrived after the answer to message 2 (tpa-2, at 800 ms)',
      },
      {
        check: 'stale-last',
        messages: [0, 1],
        message:
          'the last answer delivered is the answer to message 1 (tpa-1, at 1.5 s), not to the last message, message 2 (tpa-2, at 800 ms), whose answer arrived before it',
      },
      {
        // Lines compare by name ignoring case: the T-shirt is no loss, the tote bag is.
        check: 'cart-regressed',
        messages: [0, 1],
        message:
          'the cart of the answer to message 1 (tpa-1, at 1.5 s) lacks Tote bag, which the answer to message 2 (tpa-2, at 800 ms), delivered before it, had',
      },
    ]);
  });

  it('answers in order, a later cart without an earlier line: cart regressed alone (a droid that forgot a message)', () => {
    expect(checks([m(0, 500, { cartKeys: ['T-shirt'] }), m(1, 800, { cartKeys: ['Tote bag'] })])).toEqual([
      ['cart-regressed', [0, 1]],
    ]);
  });

  it('only answers count in the order: a declined last message makes the last answer stale, and is a finding of its own', () => {
    const declined = m(2, 350, { status: 'declined', outcome: 'failed', error: 'interrupted' });
    expect(checks([m(0, 500), m(1, 900), declined])).toEqual([
      ['declined', [2]],
      ['stale-last', [1, 2]],
    ]);
    expect(checkBurst([m(0, 500), m(1, 900), declined]).findings[1]!.message).toMatch(/, which the service declined$/);
    const refused = m(1, 310, { status: 'declined', outcome: 'rejected', httpStatus: 409 });
    expect(checkBurst([m(0, 500), refused]).findings[0]!.message).toBe(
      'the service declined message 2 (tpa-2, at 310 ms): HTTP 409',
    );
  });

  it('an unanswered message is named; several overtaken answers are counted', () => {
    expect(checks([m(0, undefined), m(1, 800)])).toEqual([['unanswered', [0]]]);
    const r = checkBurst([m(0, 2000), m(1, 1900), m(2, 1000)]);
    expect(r.findings[0]).toMatchObject({ check: 'out-of-order', messages: [0, 1, 2] });
    expect(r.findings[0]!.message).toMatch(/\(2 answers arrived after a later message's\)$/);
    // Two answers at the same time are not out of order; the later message's counts as the last.
    expect(checkBurst([m(0, 900), m(1, 900)])).toEqual({ lastDelivered: 1, findings: [] });
  });
});
