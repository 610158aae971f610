/**
 * `waitForReply`, `noReplyWithin` and `intentWebhook` on steps: the resolved shapes and every
 * load-time mistake with file:line:col (durations need their unit, which step may wait, paths
 * of the reply and of the intent webhook with a did-you-mean).
 */
import { describe, expect, it } from 'vitest';
import { exportScenarioJsonSchema, parseSuite } from '../../src/scenario/index.js';
import { at, issues } from './issues.js';

const GOOD = `suite: s
scenarios:
  - name: waits
    steps:
      - call: send
        customerId: 1001
        humanMessage: I'd like 2 shirts
        waitForReply: 30s
        expect:
          reply.type: ai
          reply.content.value: { icontains: shirt }
        capture: { replyId: reply.mid }
        intentWebhook:
          within: 2m
          expect: { intent: purchase, shopping_cart.products.0.count: 2, mid: "{{ vars.replyId }}" }
      - call: send
        customerId: 1001
        humanMessage: anyone?
        noReplyWithin: { within: 500ms, from: [ai, admin, ai] }
      - say: hello
        intentWebhook: { within: 1.5s }
`;

describe('reply and intent waits: resolved shapes', () => {
  const [scenario] = parseSuite(GOOD, 's.yaml').scenarios;
  const [send, quiet, say] = scenario!.steps!;

  it('resolves waitForReply (default from: ai), its reply.* expectations and the intent webhook', () => {
    expect(send).toMatchObject({
      kind: 'call',
      call: 'send',
      waitForReply: { withinMs: 30_000, from: ['ai'], location: at(8, 9) },
      expect: [
        { path: 'reply.type', matcher: 'equals', expected: 'ai', location: at(10, 11) },
        { path: 'reply.content.value', matcher: 'icontains', expected: 'shirt' },
      ],
      capture: [{ name: 'replyId', path: 'reply.mid' }],
      intentWebhook: {
        withinMs: 120_000,
        location: at(13, 9),
        expect: [
          { path: 'intent', matcher: 'equals', expected: 'purchase', location: at(15, 21) },
          { path: 'shopping_cart.products.0.count', matcher: 'equals', expected: 2 },
          { path: 'mid', matcher: 'equals', expected: '{{ vars.replyId }}' },
        ],
      },
    });
    expect(send).not.toHaveProperty('noReplyWithin');
  });

  it('resolves noReplyWithin with its senders (de-duplicated) and a say step with an intent webhook', () => {
    expect(quiet).toMatchObject({
      kind: 'call',
      noReplyWithin: { withinMs: 500, from: ['ai', 'admin'], location: at(19, 9) },
    });
    expect(quiet).not.toHaveProperty('waitForReply');
    expect(say).toMatchObject({ kind: 'say', intentWebhook: { withinMs: 1_500, expect: [] } });
  });

  it('the JSON Schema offers the new fields and refuses a duration without a unit', () => {
    const json = JSON.stringify(exportScenarioJsonSchema());
    for (const key of ['waitForReply', 'noReplyWithin', 'intentWebhook']) expect(json).toContain(`"${key}"`);
    expect(json).toContain('(?:ms|s|m|h)');
  });
});

const one = (step: string): string => `suite: s\nscenarios:\n  - name: a\n    steps:\n${step}`;
const SEND = '      - call: send\n        customerId: 1001\n        humanMessage: hi\n';

describe('reply and intent waits: mistakes, each at file:line:col', () => {
  it.each([
    [
      'a duration without its unit',
      one(`${SEND}        waitForReply: 30\n`),
      's.yaml:8:23: "waitForReply": a duration with its unit, e.g. 30s, 500ms or 2m, or { within: 30s, from: [ai, admin] }, got a number',
    ],
    [
      'an unknown unit',
      one(`${SEND}        noReplyWithin: 5 seconds\n`),
      's.yaml:8:24: a duration with its unit, e.g. 30s, 500ms or 2m (the unit is required)',
    ],
    [
      'a number as within',
      one('      - say: hi\n        intentWebhook: { within: 30 }\n'),
      's.yaml:6:34: "within": a duration with its unit, e.g. 30s, 500ms or 2m, got a number',
    ],
    [
      'a zero window',
      one(`${SEND}        waitForReply: 0s\n`),
      's.yaml:8:23: "waitForReply" must be more than 0 (e.g. 30s)',
    ],
    [
      'waitForReply on another call',
      one('      - call: customer\n        customerId: 1001\n        waitForReply: 30s\n'),
      's.yaml:7:9: "waitForReply" is only for call: send (the bot\'s reply to a sent message arrives through the message webhook)',
    ],
    [
      'noReplyWithin on another call',
      one('      - call: setBot\n        customerId: 1001\n        botEnabled: false\n        noReplyWithin: 5s\n'),
      's.yaml:8:9: "noReplyWithin" is only for call: send (the bot\'s reply to a sent message arrives through the message webhook)',
    ],
    [
      'both waits',
      one(`${SEND}        waitForReply: 30s\n        noReplyWithin: 5s\n`),
      's.yaml:9:9: write "waitForReply" or "noReplyWithin", not both: one waits for the reply, the other for its absence',
    ],
    [
      'a wait with an expected error status',
      one(`${SEND}        status: 403\n        waitForReply: 30s\n`),
      's.yaml:9:9: "waitForReply" waits on the reply to an accepted message; with "status: 403" the send is expected to fail: remove one of them',
    ],
    [
      'a misspelt wait',
      one(`${SEND}        waitForRepyl: 30s\n`),
      's.yaml:8:9: unknown key "waitForRepyl" — did you mean "waitForReply"?',
    ],
    [
      'a misspelt key of a call step',
      one(`${SEND}        statsu: 200\n`),
      's.yaml:8:9: unknown key "statsu" — did you mean "status"?',
    ],
    [
      'a wait on a say step',
      one('      - say: hi\n        waitForReply: 30s\n'),
      's.yaml:6:9: unknown key "waitForReply"; allowed keys: say, expect, latency, capture, intentWebhook, think',
    ],
    [
      'a human reply',
      one(`${SEND}        waitForReply: { within: 30s, from: [human] }\n`),
      's.yaml:8:45: item 1 of "from" must be one of: ai, admin, system, log; got "human"',
    ],
    [
      'a misspelt reply field',
      one(`${SEND}        waitForReply: 30s\n        expect: { reply.tpye: ai }\n`),
      's.yaml:9:19: unknown field "tpye" in the reply (a MessageForwarding body) — did you mean "type"?',
    ],
    [
      'a misspelt nested reply field',
      one(`${SEND}        waitForReply: 30s\n        expect: { reply.content.vlaue: x }\n`),
      's.yaml:9:19: unknown field "vlaue" in "content" — did you mean "value"?',
    ],
    [
      'reply without a wait',
      one(`${SEND}        expect: { reply: null }\n`),
      's.yaml:8:19: "reply" is the bot\'s reply, which arrives later through the message webhook: add "waitForReply: 30s" (or "noReplyWithin: 5s") to this step',
    ],
    [
      'a reply capture without a wait',
      one(`${SEND}        capture: { id: reply.mid }\n`),
      's.yaml:8:24: "reply" is the bot\'s reply, which arrives later through the message webhook: add "waitForReply: 30s" (or "noReplyWithin: 5s") to this step',
    ],
    [
      'an intent webhook on a send without a reply',
      one(`${SEND}        intentWebhook: { within: 30s }\n`),
      's.yaml:8:9: "intentWebhook" on a send needs "waitForReply": the intent is detected in the bot\'s reply',
    ],
    [
      'an intent webhook on another call',
      one('      - call: channels\n        intentWebhook: { within: 30s }\n'),
      's.yaml:6:9: "intentWebhook" needs an answer of the droid: put it on a say step, or on a send step with waitForReply',
    ],
    [
      'a misspelt intent webhook field',
      one('      - say: hi\n        intentWebhook: { within: 30s, expect: { shoping_cart.grandTotal: x } }\n'),
      's.yaml:6:49: unknown field "shoping_cart" in the intent webhook (an IntentWebhookRequest body) — did you mean "shopping_cart"?',
    ],
    [
      'an unknown key of the intent webhook',
      one('      - say: hi\n        intentWebhook: { within: 30s, expct: {} }\n'),
      's.yaml:6:39: unknown key "expct" — did you mean "expect"?',
    ],
    [
      'an undefined variable in the intent webhook',
      one('      - say: hi\n        intentWebhook: { within: 30s, expect: { mid: "{{ vars.nope }}" } }\n'),
      's.yaml:6:54: undefined variable "nope": define it in "vars:" or capture it in an earlier step (none is defined yet)',
    ],
  ])('%s', (_name, text, message) => {
    expect(issues(text)).toContain(message);
  });

  it('an intent webhook may use what its own step captured', () => {
    const text = one(
      '      - say: hi\n        capture: { rid: requestId }\n        intentWebhook: { within: 30s, expect: { mid: "{{ vars.rid }}" } }\n',
    );
    expect(parseSuite(text, 's.yaml').scenarios[0]!.steps![0]!.intentWebhook?.expect[0]?.expected).toBe(
      '{{ vars.rid }}',
    );
  });
});
