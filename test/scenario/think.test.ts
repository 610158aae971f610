/**
 * `think:` in a suite: the three forms resolved to ms, and every mistake named at file:line:col.
 */
import { describe, expect, it } from 'vitest';
import { parseSuite, pauseBudgetMs, withoutThink } from '../../src/scenario/index.js';
import { at, issues } from './issues.js';

const one = (steps: string, extra = '') => `suite: s\nscenarios:\n  - name: a\n${extra}    steps:\n${steps}`;

describe('think: the pause before a step', () => {
  it('resolves a duration, a uniform range and a lognormal to ms, with their locations', () => {
    const suite = parseSuite(
      one(
        '      - say: hi\n      - say: more\n        think: { min: 2s, max: 8s }\n      - say: last\n        think: { lognormal: { median: 4s, p90: 12s } }\n',
        '    think: 500ms\n',
      ),
      's.yaml',
    );
    const sc = suite.scenarios[0]!;
    expect(sc.think).toEqual({ kind: 'fixed', ms: 500, location: at(4, 5) });
    expect(sc.steps![0]!.think).toBeUndefined();
    expect(sc.steps![1]!.think).toEqual({ kind: 'uniform', minMs: 2000, maxMs: 8000, location: at(8, 9) });
    expect(sc.steps![2]!.think).toEqual({ kind: 'lognormal', medianMs: 4000, p90Ms: 12_000, location: at(10, 9) });
    // --no-think drops every pause, the scenario's and the steps'.
    const [plain] = withoutThink([suite]);
    expect(plain!.scenarios[0]!.think).toBeUndefined();
    expect(plain!.scenarios[0]!.steps!.every((s) => s.think === undefined)).toBe(true);
    expect(sc.steps![1]!.think).toBeDefined(); // the original is untouched
  });

  it.each([
    [
      'a bare number',
      one('      - say: hi\n        think: 5\n'),
      's.yaml:6:16: "think": a duration with its unit, e.g. 30s, 500ms or 2m, a range { min: 2s, max: 8s } or { lognormal: { median: 4s, p90: 12s } }, got a number',
    ],
    [
      'min above max',
      one('      - say: hi\n        think: { min: 9s, max: 2s }\n'),
      's.yaml:6:23: think min 9s is more than max 2s',
    ],
    [
      'p90 not above the median',
      one('      - say: hi\n        think: { lognormal: { median: 4s, p90: 4s } }\n'),
      's.yaml:6:48: think lognormal p90 4s must be above the median 4s',
    ],
    [
      'longer than 10 min',
      one('      - say: hi\n        think: 11m\n'),
      's.yaml:6:16: think 11m is longer than 10 min: a pause that long is a conversation resumed later, write a new scenario',
    ],
    [
      'on a single message',
      'suite: s\nscenarios:\n  - name: a\n    humanMessage: hi\n    think: 2s\n',
      's.yaml:5:5: think is the pause between the turns of a conversation: it needs steps (say: ...), not humanMessage',
    ],
    [
      'a typo in the range',
      one('      - say: hi\n        think: { min: 2s, maz: 8s }\n'),
      's.yaml:6:27: unknown key "maz" — did you mean "max"?',
    ],
  ])('refuses %s at file:line:col', (_name, text, message) => {
    expect(issues(text)).toContainEqual(message);
  });
});

describe('pauseBudgetMs: what a load adds to its drain', () => {
  it('sums the longest pause before each step of the longest conversation', () => {
    const suite = parseSuite(
      'suite: s\nscenarios:\n  - name: a\n    think: 1s\n    steps:\n      - say: one\n      - say: two\n      - say: three\n        think: { min: 1s, max: 3s }\n      - call: channels\n  - name: b\n    steps:\n      - say: x\n        think: { lognormal: { median: 1s, p90: 2s } }\n  - name: c\n    humanMessage: hi\n',
      's.yaml',
    );
    // a: 1 s before "two", 3 s (the range's max) before "three", nothing before the call.
    // b: the lognormal's p99.9: 1 s x 2^(3.090/1.2816) = 5.32 s.
    expect(pauseBudgetMs([suite])).toBeCloseTo(5320, -1);
    expect(pauseBudgetMs([{ ...suite, scenarios: suite.scenarios.slice(0, 1) }])).toBe(4000);
    expect(pauseBudgetMs([{ ...suite, scenarios: suite.scenarios.slice(2) }])).toBe(0);
  });
});
