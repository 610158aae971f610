/**
 * Steps, variables, repeat and pass requirements: the resolved shapes and every load-time
 * mistake with file:line:col.
 */
import { describe, expect, it } from 'vitest';
import { parseSuite, renderExpectations, renderTemplate } from '../../src/scenario/index.js';
import { at, issues } from './issues.js';

const GOOD = `suite: s
repeat: 2
passRate: 0.5
scenarios:
  - name: takeover
    vars: { customer: 1001 }
    steps:
      - call: setBot
        customerId: "{{ vars.customer }}"
        botEnabled: false
        latency: "< 100ms"
      - call: conversations
        customerId: "{{ vars.customer }}"
        capture: { total: total }
      - say: "now {{ vars.total }}"
        expect:
          intents: { includes: greeting }
  - name: plain
    humanMessage: hi
    repeat: 5
    minPasses: 4
    intents: [greeting]
`;

describe('steps: resolved shapes', () => {
  const suite = parseSuite(GOOD, 's.yaml');
  const [takeover, plain] = suite.scenarios;

  it('resolves call and say steps with locations, captures and latency', () => {
    expect(takeover?.steps).toEqual([
      {
        kind: 'call',
        index: 0,
        location: at(8, 9),
        call: 'setBot',
        customerId: '{{ vars.customer }}',
        botEnabled: false,
        expect: [],
        capture: [],
        latencyMs: { max: 100, location: at(11, 9) },
      },
      {
        kind: 'call',
        index: 1,
        location: at(12, 9),
        call: 'conversations',
        customerId: '{{ vars.customer }}',
        expect: [],
        capture: [{ name: 'total', path: 'total', location: at(14, 20) }],
      },
      {
        kind: 'say',
        index: 2,
        location: at(15, 9),
        text: 'now {{ vars.total }}',
        expect: [{ path: 'intents', matcher: 'includes', expected: 'greeting', location: at(17, 22) }],
        capture: [],
      },
    ]);
    expect(takeover?.humanMessage).toBe('now {{ vars.total }}');
    expect(takeover?.expect).toEqual([]);
    expect(takeover?.vars).toEqual({ customer: 1001 });
  });

  it('applies the suite repeat and passRate as defaults; the scenario overrides them', () => {
    expect(suite.passRate).toBe(0.5);
    expect(takeover?.repeat).toBe(2);
    expect(takeover?.requirement).toEqual({ passRate: 0.5 });
    expect(plain?.repeat).toBe(5);
    expect(plain?.requirement).toEqual({ minPasses: 4 });
    expect(plain?.intents).toEqual(['greeting']);
    expect(plain?.steps).toBeUndefined();
  });

  it('renders templates: a whole template keeps the type, embedded ones become text', () => {
    expect(renderTemplate('{{ vars.n }}', { n: 3 })).toBe(3);
    expect(renderTemplate('n={{vars.n}}!', { n: 3 })).toBe('n=3!');
    expect(renderTemplate('{{ vars.missing }}', {})).toBe('{{ vars.missing }}');
    const [e] = renderExpectations([{ path: 'total', matcher: 'gt', expected: '{{ vars.n }}', location: at(1, 1) }], {
      n: 7,
    });
    expect(e?.expected).toBe(7);
  });
});

describe('steps: mistakes name file:line:col', () => {
  const one = (steps: string, extra = '') => `suite: s\nscenarios:\n  - name: a\n${extra}    steps:\n${steps}`;

  it.each([
    [
      'undefined variable',
      one('      - call: customer\n        customerId: "{{ vars.who }}"\n'),
      's.yaml:6:21: undefined variable "who": define it in "vars:" or capture it in an earlier step (none is defined yet)',
    ],
    [
      'did-you-mean variable',
      one('      - call: customer\n        customerId: "{{ vars.custmer }}"\n', '    vars: { customer: 1 }\n'),
      's.yaml:7:21: undefined variable "custmer" — did you mean "customer"?',
    ],
    [
      'captured later, used earlier',
      one('      - say: "{{ vars.t }}"\n      - call: channels\n        capture: { t: total }\n'),
      's.yaml:5:14: undefined variable "t": define it in "vars:" or capture it in an earlier step (none is defined yet)',
    ],
    [
      'bad template',
      one('      - say: "{{ name }}"\n'),
      's.yaml:5:14: bad template in "{{ name }}": write {{ vars.name }} (letters, digits, _)',
    ],
    ['missing call field', one('      - call: ask\n        customerId: 1\n'), 's.yaml:5:9: call: ask needs "prompt"'],
    [
      'field of another call',
      one('      - call: channels\n        prompt: hi\n'),
      's.yaml:6:9: "prompt" is not used by call: channels (it is for: ask)',
    ],
    [
      'unknown call',
      one('      - call: chanels\n'),
      's.yaml:5:15: "call" must be one of: channels, messages, customer, conversations, ask, send, setBot, imageAlt; got "chanels"',
    ],
    ['step key typo', one('      - sya: hi\n'), 's.yaml:5:9: unknown key "sya" — did you mean "say"?'],
    [
      'response field typo',
      one('      - call: conversations\n        customerId: 1\n        expect: { conversatons.0.type: human }\n'),
      's.yaml:7:19: unknown field "conversatons" in the conversations response — did you mean "conversations"?',
    ],
    [
      'answer field typo in say',
      one('      - say: hi\n        expect: { intens: [] }\n'),
      's.yaml:6:19: unknown field "intens" in the answer payload — did you mean "intents"?',
    ],
    [
      'bad capture path',
      one('      - call: channels\n        capture: { c: "channels[0]" }\n'),
      's.yaml:6:23: path "channels[0]" uses brackets; write array indices as dotted segments: "channels.0"',
    ],
    [
      'bad variable name',
      one('      - call: channels\n        capture: { 1x: total }\n'),
      's.yaml:6:20: bad variable name "1x": letters, digits and _, not starting with a digit',
    ],
    [
      'both humanMessage and steps',
      one('      - say: hi\n', '    humanMessage: hi\n'),
      's.yaml:5:5: write "humanMessage" or "steps", not both (a humanMessage is one say step)',
    ],
    [
      'scenario expect with steps',
      one('      - say: hi\n', '    expect: { answer: x }\n'),
      's.yaml:4:5: with "steps", write "expect" on a step',
    ],
    [
      'empty steps',
      one('      []\n').replace('steps:\n      []', 'steps: []'),
      expect.stringMatching(/^s\.yaml:4:12: steps is empty/),
    ],
  ])('%s', (_name, text, message) => {
    expect(issues(text)).toContainEqual(message);
  });

  it('refuses passRate with minPasses, and minPasses above repeat', () => {
    const text =
      'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n    repeat: 2\n    passRate: 0.5\n    minPasses: 3\n';
    expect(issues(text)).toEqual([
      's.yaml:7:5: write "passRate" or "minPasses", not both',
      's.yaml:7:16: minPasses 3 is more than the 2 run(s) per mode: raise "repeat"',
    ]);
    expect(issues('suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n    passRate: 1.5\n')).toEqual([
      's.yaml:5:15: passRate is from 0 to 1 (0.8 means 80%)',
    ]);
  });

  it('still asks for humanMessage when neither it nor steps is written', () => {
    expect(issues('suite: s\nscenarios:\n  - name: a\n')).toEqual(['s.yaml:3:5: missing required key "humanMessage"']);
  });
});
