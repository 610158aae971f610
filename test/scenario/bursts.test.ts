/**
 * `burst:` in a suite (docs/bursts.md): the resolved step (messages with their own expectations
 * and latency, the gap in ms, `final` defaulting to last-delivered), every mistake named at
 * file:line:col, the gaps in a load's drain, and `--burst-gap` turning a conversation's
 * consecutive turns into bursts.
 */
import { describe, expect, it } from 'vitest';
import {
  needsGrader,
  parseSuite,
  pauseBudgetMs,
  withBursts,
  type BurstStep,
  type SayStep,
} from '../../src/scenario/index.js';
import { at, issues } from './issues.js';

const one = (steps: string, extra = '') => `suite: s\nscenarios:\n  - name: a\n${extra}    steps:\n${steps}`;

describe('burst: the step', () => {
  it('resolves the messages, their expectations and latency, the gap and the final state', () => {
    const suite = parseSuite(
      one(
        [
          '      - burst:',
          '          say:',
          '            - I want 2 T-Shirt',
          '            - { say: "and {{ vars.n }} Canvas Bag", expect: { answer: { present: true } }, latency: "< 30s" }',
          '          gap: 300ms',
          '        expect: { shoppingCart.products: { length: 2 } }',
          '        latency: "< 60s"',
          '        capture: { total: shoppingCart.grandTotal }',
          '      - say: "{{ vars.total }}?"',
          '',
        ].join('\n'),
        '    vars: { n: 1 }\n',
      ),
      's.yaml',
    );
    const sc = suite.scenarios[0]!;
    const burst = sc.steps![0] as BurstStep;
    expect(burst).toMatchObject({
      kind: 'burst',
      index: 0,
      gapMs: 300,
      final: 'last-delivered',
      latencyMs: { max: 60_000 },
      messages: [
        { text: 'I want 2 T-Shirt', expect: [], location: at(8, 15) },
        {
          text: 'and {{ vars.n }} Canvas Bag',
          expect: [{ path: 'answer', matcher: 'present', expected: true }],
          latencyMs: { max: 30_000 },
          location: at(9, 15),
        },
      ],
      expect: [{ path: 'shoppingCart.products', matcher: 'length', expected: 2 }],
      capture: [{ name: 'total', path: 'shoppingCart.grandTotal' }],
    });
    // A scenario that starts with a burst: its first message is the scenario's humanMessage.
    expect(sc.humanMessage).toBe('I want 2 T-Shirt');
    expect(
      parseSuite(one('      - burst: { say: [a, b], gap: 0ms, final: last-message }\n'), 's.yaml').scenarios[0]!
        .steps![0],
    ).toMatchObject({ gapMs: 0, final: 'last-message' });
  });

  it('a graded expectation of a burst message needs a grader, like any', () => {
    const suite = parseSuite(
      one(
        '      - burst:\n          say: [hi, { say: more, expect: { answer: { judge: "is polite" } } }]\n          gap: 1s\n',
      ),
      's.yaml',
    );
    expect(needsGrader([suite]).map((u) => u.matcher)).toEqual(['judge']);
  });

  it.each([
    [
      'one message',
      one('      - burst: { say: [hi], gap: 300ms }\n'),
      's.yaml:5:23: a burst is at least 2 messages (one message is a say step)',
    ],
    [
      'a gap without its unit',
      one('      - burst: { say: [hi, there], gap: 300 }\n'),
      's.yaml:5:41: "gap": a duration with its unit, e.g. 30s, 500ms or 2m, got a number',
    ],
    [
      'a gap over 10 min',
      one('      - burst: { say: [hi, there], gap: 11m }\n'),
      "s.yaml:5:41: a burst's gap is at most 10 min: messages further apart are turns of a conversation (say steps with think:)",
    ],
    [
      'an unknown final',
      one('      - burst: { say: [hi, there], gap: 1s, final: latest }\n'),
      's.yaml:5:52: "final" must be one of: last-delivered, last-message; got "latest"',
    ],
    [
      'a path the answer payload does not have',
      one(
        '      - burst:\n          say: [hi, { say: there, expect: { shopingCart.grandTotal: "1" } }]\n          gap: 1s\n',
      ),
      's.yaml:6:45: unknown field "shopingCart" in the answer payload — did you mean "shoppingCart"?',
    ],
    [
      'a final-state path the answer payload does not have',
      one('      - burst: { say: [hi, there], gap: 1s }\n        expect: { answr: hi }\n'),
      's.yaml:6:19: unknown field "answr" in the answer payload — did you mean "answer"?',
    ],
    [
      'an undefined variable in a message',
      one('      - burst: { say: [hi, "{{ vars.who }}"], gap: 1s }\n'),
      's.yaml:5:28: undefined variable "who": define it in "vars:" or capture it in an earlier step (none is defined yet)',
    ],
    [
      'an intent webhook (which answer would its window count from?)',
      one('      - burst: { say: [hi, there], gap: 1s }\n        intentWebhook: { within: 30s }\n'),
      's.yaml:6:9: unknown key "intentWebhook"; allowed keys: burst, expect, latency, capture, think',
    ],
  ])('refuses %s at file:line:col', (_name, text, message) => {
    expect(issues(text)).toContainEqual(message);
  });
});

describe('pauseBudgetMs: a burst adds its gaps', () => {
  it("adds gap × (messages - 1) to the conversation's pauses", () => {
    const suite = parseSuite(
      one('      - burst: { say: [a, b, c], gap: 2s }\n      - say: d\n', '    think: 1s\n'),
      's.yaml',
    );
    // 4 s of gaps, and the scenario's pause before the say after the burst (an answer step before it).
    expect(pauseBudgetMs([suite])).toBe(5000);
  });
});

describe('withBursts (--burst-gap): a conversation sent as bursts', () => {
  it('merges each run of consecutive says, keeping their expectations; a capture or an intent webhook ends a run', () => {
    const suite = parseSuite(
      one(
        [
          '      - say: one',
          '        think: 3s',
          '        expect: { answer: { present: true } }',
          '      - say: two',
          '        latency: "< 5s"',
          '      - say: three',
          '        capture: { id: requestId }',
          '      - say: four',
          '      - call: channels',
          '      - say: five',
          '      - say: six',
          '        intentWebhook: { within: 10s }',
          '      - say: seven',
          '',
        ].join('\n'),
      ),
      's.yaml',
    );
    const [bursty] = withBursts([suite], 250);
    const steps = bursty!.scenarios[0]!.steps!;
    expect(steps.map((s) => [s.index, s.kind])).toEqual([
      [0, 'burst'],
      [1, 'say'],
      [2, 'say'],
      [3, 'call'],
      [4, 'say'],
      [5, 'say'],
      [6, 'say'],
    ]);
    const burst = steps[0] as BurstStep;
    expect(burst).toMatchObject({
      gapMs: 250,
      final: 'last-delivered',
      expect: [],
      think: { kind: 'fixed', ms: 3000 },
      messages: [
        { text: 'one', expect: [{ path: 'answer', matcher: 'present' }] },
        { text: 'two', expect: [], latencyMs: { max: 5000 } },
      ],
    });
    // "three" captures (a later step reads it); "four" alone; "five" alone before "six", which has an intent webhook.
    expect(
      steps.slice(1).map((s) => (s.kind === 'say' ? (s as SayStep).text : s.kind === 'call' ? s.call : s.kind)),
    ).toEqual(['three', 'four', 'channels', 'five', 'six', 'seven']);
    // The suite read is untouched.
    expect(suite.scenarios[0]!.steps!.map((s) => s.kind)).not.toContain('burst');
  });
});
