/**
 * Every example suite in scenarios/*.yaml passes against the emulator (the sync endpoint's
 * payload, through inject()), with humanMessage sent in both documented forms. A minimal
 * evaluator of the documented matchers keeps this test independent of the scenario module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const DIR = resolve(import.meta.dirname, '../../scenarios');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'emulator-profile.yaml');

interface RawScenario {
  name: string;
  chatHistory?: ({ human: string } | { ai: string })[];
  humanMessage?: string;
  steps?: unknown[];
  expect: Record<string, unknown>;
}

function at(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Returns a failure text, or undefined when the matcher holds. */
function check(actual: unknown, matcher: unknown): string | undefined {
  if (matcher === null || typeof matcher !== 'object')
    return actual === matcher ? undefined : `expected ${JSON.stringify(matcher)}`;
  const [kind, expected] = Object.entries(matcher)[0]!;
  switch (kind) {
    case 'equals':
      return JSON.stringify(actual) === JSON.stringify(expected) ? undefined : `expected ${JSON.stringify(expected)}`;
    case 'contains':
      return (typeof actual === 'string' && actual.includes(String(expected))) ||
        (Array.isArray(actual) && actual.includes(expected))
        ? undefined
        : `expected to contain ${String(expected)}`;
    case 'matches':
      return typeof actual === 'string' && new RegExp(String(expected)).test(actual)
        ? undefined
        : `expected to match ${String(expected)}`;
    case 'includes':
      return Array.isArray(actual) && actual.includes(expected) ? undefined : `expected to include ${String(expected)}`;
    case 'absent':
      return actual === undefined || actual === null || actual === '' ? undefined : 'expected absent';
    case 'present':
      return actual === undefined || actual === null || actual === '' ? 'expected present' : undefined;
    case 'length':
      return Array.isArray(actual) && actual.length === expected ? undefined : `expected length ${String(expected)}`;
    case 'minLength':
      return Array.isArray(actual) && actual.length >= Number(expected)
        ? undefined
        : `expected at least ${String(expected)} items`;
    case 'icontains':
      return typeof actual === 'string' && actual.toLowerCase().includes(String(expected).toLowerCase())
        ? undefined
        : `expected to contain ${String(expected)} (any case)`;
    case 'money': {
      const parse = (v: unknown) => /^([\d,]+(?:\.\d+)?)\s([A-Z]{3})$/.exec(String(v));
      const a = parse(actual);
      const e = parse(expected);
      return a && e && Number(a[1]!.replace(/,/g, '')) === Number(e[1]!.replace(/,/g, '')) && a[2] === e[2]
        ? undefined
        : `expected ${String(expected)}`;
    }
    default:
      return `unknown matcher ${kind}`;
  }
}

describe('example scenarios pass against the emulator', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await createEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('has at least 12 scenarios in 3 or more suites', () => {
    const count = FILES.map(
      (f) => (parse(readFileSync(join(DIR, f), 'utf8')) as { scenarios: unknown[] }).scenarios.length,
    );
    expect(FILES.length).toBeGreaterThanOrEqual(3);
    expect(count.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12);
  });

  for (const file of FILES) {
    const suite = parse(readFileSync(join(DIR, file), 'utf8')) as { suite: string; scenarios: RawScenario[] };
    // Scenarios with steps go through the runner (test/jobs/alt-service.test.ts, the CLI tests).
    for (const s of suite.scenarios.filter((sc) => sc.humanMessage !== undefined)) {
      it(`${suite.suite} / ${s.name}`, async () => {
        const chatHistory = (s.chatHistory ?? []).map((t) =>
          'human' in t ? { type: 'human', content: t.human } : { type: 'ai', content: t.ai },
        );
        for (const humanMessage of [{ content: s.humanMessage }, s.humanMessage!]) {
          const res = await emulator.app.inject({
            method: 'POST',
            url: `/api/droids/${emulator.droidId}/endpoint/get-droid-answer`,
            headers: { authorization: `Bearer ${emulator.token}` },
            payload: { humanMessage, chatHistory },
          });
          expect(res.statusCode).toBe(200);
          const payload = res.json();
          const failures = Object.entries(s.expect)
            .map(([path, m]) => [path, check(at(payload, path), m), at(payload, path)] as const)
            .filter(([, f]) => f !== undefined)
            .map(([path, f, actual]) => `${path}: ${f}, got ${JSON.stringify(actual)}`);
          expect(failures).toEqual([]);
        }
      });
    }
  }
});
