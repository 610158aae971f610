/**
 * `evaluateExpectations(expectations, payload)`: checks an answer payload (spec: Answer payload
 * fields) against a scenario's expectations. Pure; never throws for any payload.
 *
 * Each failed expectation gives one `ExpectationFailure` `{path, matcher, expected, actual,
 * message, location}`; `actual` is the value at the path (`undefined` when missing). A `json`
 * expectation parses the string at its path and reports inner failures with the path
 * `outer#inner` (e.g. `answer#sentiment`).
 */
import { MATCHERS } from './matchers/registry.js';
import { show } from './matchers/values.js';
import type { Expectation, ExpectationFailure } from './types.js';

/** The value at a dotted path; numeric segments index arrays; own properties only. */
export function valueAtPath(payload: unknown, path: string): unknown {
  let cur = payload;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (cur !== null && typeof cur === 'object') {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return undefined;
    }
  }
  return cur;
}

function evaluateJson(e: Expectation, actual: unknown): ExpectationFailure[] {
  const fail = (note: string): ExpectationFailure[] => [
    { path: e.path, matcher: 'json', expected: 'a JSON string', actual, message: `${e.path}: expected a JSON string, got ${note}`, location: e.location },
  ];
  if (typeof actual !== 'string') return fail(show(actual));
  let parsed: unknown;
  try {
    parsed = JSON.parse(actual);
  } catch (err) {
    return fail(`${show(actual, 80)} (${err instanceof Error ? err.message : 'not JSON'})`);
  }
  return evaluateExpectations(e.expected as Expectation[], parsed).map((f) => ({
    ...f,
    path: `${e.path}#${f.path}`,
    message: `${e.path}#${f.message}`,
  }));
}

/**
 * @param expectations from `Scenario.expect`.
 * @param payload the answer payload (sync response body or webhook body), any JSON value.
 * @returns the failures, in expectation order; `[]` when all hold.
 */
export function evaluateExpectations(expectations: Expectation[], payload: unknown): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  for (const e of expectations) {
    const actual = valueAtPath(payload, e.path);
    if (e.matcher === 'json') {
      failures.push(...evaluateJson(e, actual));
      continue;
    }
    const def = MATCHERS.get(e.matcher);
    if (!def) {
      failures.push({ path: e.path, matcher: e.matcher, expected: e.expected, actual, message: `${e.path}: unknown matcher "${e.matcher}"`, location: e.location });
      continue;
    }
    let outcome;
    try {
      outcome = def.test(actual, e.expected, e.options);
    } catch (err) {
      outcome = { pass: false, note: `matcher error: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (outcome.pass) continue;
    const note = outcome.note ? ` (${outcome.note})` : '';
    failures.push({
      path: e.path,
      matcher: e.matcher,
      expected: e.expected,
      actual,
      message: `${e.path}: expected ${def.describe(e.expected, e.options)}, got ${show(actual)}${note}`,
      location: e.location,
    });
  }
  return failures;
}
