/**
 * The matcher table. Each entry gives:
 * - `schema`: the expected value as the user writes it (zod; refinements run at load time, so a
 *   bad regex or a malformed money string is a ScenarioError at its line);
 * - `normalise`: user value -> `{ expected, options }` stored on the `Expectation`;
 * - `describe`: the phrase after "expected" in a failure message;
 * - `test`: pass/fail, with an optional note explaining the actual value.
 * `json` (nested expectations) is handled by `schema.ts`/`normalise.ts`/`evaluate.ts`; the
 * LLM-graded `similar` and `judge` live in `graded.ts` (graded by a grader passed to evaluate.ts).
 */
import { z } from 'zod';
import { GRADED_MATCHERS } from './graded.js';
import { sameMoney, showMoney, toMoney, type Money } from './money.js';
import { deepEqual, fold, isAbsent, kindOf, show } from './values.js';

type MatcherOptions = Record<string, unknown> | undefined;
interface MatcherOutcome {
  pass: boolean;
  note?: string;
}
export interface MatcherDef {
  name: string;
  summary: string;
  schema: z.ZodType;
  normalise?: (value: unknown) => { expected: unknown; options?: Record<string, unknown> };
  describe: (expected: unknown, options: MatcherOptions) => string;
  test: (actual: unknown, expected: unknown, options: MatcherOptions) => MatcherOutcome;
}

const ic = (o: MatcherOptions): boolean => o?.ignoreCase === true;
const eq = (a: unknown, b: unknown, o: MatcherOptions): boolean =>
  ic(o) ? deepEqual(fold(a), fold(b)) : deepEqual(a, b);
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const textValue = z.union([scalar, z.strictObject({ value: scalar, ignoreCase: z.boolean().optional() })]);
const count = z.number().int().nonnegative();

function normaliseText(
  value: unknown,
  forceIgnoreCase = false,
): { expected: unknown; options?: Record<string, unknown> } {
  if (value !== null && typeof value === 'object') {
    const { value: v, ignoreCase } = value as { value: unknown; ignoreCase?: boolean };
    return ignoreCase || forceIgnoreCase ? { expected: v, options: { ignoreCase: true } } : { expected: v };
  }
  return forceIgnoreCase ? { expected: value, options: { ignoreCase: true } } : { expected: value };
}

function containsTest(actual: unknown, expected: unknown, o: MatcherOptions): MatcherOutcome {
  if (typeof actual === 'string') {
    const [a, e] = ic(o) ? [actual.toLowerCase(), String(expected).toLowerCase()] : [actual, String(expected)];
    return { pass: a.includes(e) };
  }
  if (Array.isArray(actual)) return { pass: actual.some((x) => eq(x, expected, o)) };
  return { pass: false, note: `${kindOf(actual)}, not a string or a list` };
}

const regexCache = new Map<string, RegExp>();
/** Compiles (and caches) a pattern; throws SyntaxError for a bad one. */
function compileRegex(pattern: string, flags: string): RegExp {
  const key = `${flags}/${pattern}`;
  let re = regexCache.get(key);
  if (!re) {
    re = new RegExp(pattern, flags);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}
/** A leading `(?i)`, `(?s)`, `(?m)` (or a mix, `(?is)`) becomes RegExp flags. */
function splitInlineFlags(pattern: string, flags = ''): { pattern: string; flags: string } {
  const m = /^\(\?([ims]+)\)/.exec(pattern);
  const all = new Set([...flags, ...(m?.[1] ?? '')]);
  return { pattern: m ? pattern.slice(m[0].length) : pattern, flags: [...all].sort().join('') };
}
const regexValue = z
  .union([
    z.string(),
    z.strictObject({
      pattern: z.string(),
      flags: z
        .string()
        .regex(/^[imsu]*$/, 'flags may only hold i, m, s, u')
        .optional(),
    }),
  ])
  .superRefine((v, ctx) => {
    if (typeof v !== 'string' && v.flags !== undefined && !/^[imsu]*$/.test(v.flags)) return; // reported by the flags schema
    const raw = typeof v === 'string' ? splitInlineFlags(v) : splitInlineFlags(v.pattern, v.flags);
    try {
      compileRegex(raw.pattern, raw.flags);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `bad regular expression: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  });

/**
 * A number, a whole `{{ vars.name }}` (a captured number, rendered at run time), or a number
 * written as text (a CSV table's cell, rendered at load time: scenario/each.ts).
 */
const numberOrTemplate = z.union(
  [
    z.number(),
    z
      .string()
      .regex(
        /^(\{\{\s*vars\.[A-Za-z_][A-Za-z0-9_]*\s*\}\}|\s*-?\d+(\.\d+)?\s*)$/,
        'expected a number, or "{{ vars.name }}" for a captured one',
      ),
  ],
  { error: 'expected a number, or "{{ vars.name }}" for a captured one' },
);

function numeric(actual: unknown): number | undefined {
  if (typeof actual === 'number') return actual;
  if (typeof actual === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(actual)) return Number(actual);
  return undefined;
}
function compare(name: string, word: string, ok: (a: number, b: number) => boolean): MatcherDef {
  return {
    name,
    summary: `a number (or numeric string) ${word} the value`,
    schema: numberOrTemplate,
    describe: (e) => `a number ${word} ${show(e)}`,
    test: (actual, e) => {
      const n = numeric(actual);
      const want = numeric(e);
      if (want === undefined) return { pass: false, note: `expected value ${show(e)} is not a number` };
      return n === undefined ? { pass: false, note: `${kindOf(actual)}, not a number` } : { pass: ok(n, want) };
    },
  };
}
function lengthOf(actual: unknown): number | undefined {
  return typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
}
function lengthDef(
  name: string,
  schema: z.ZodType,
  toBounds: (e: unknown) => { min?: number; max?: number },
): MatcherDef {
  return {
    name,
    summary: 'length of a string or list within bounds',
    schema,
    describe: (e) => {
      const { min, max } = toBounds(e);
      if (min !== undefined && min === max) return `a length of ${min}`;
      return `a length ${[min !== undefined ? `>= ${min}` : '', max !== undefined ? `<= ${max}` : ''].filter(Boolean).join(' and ')}`;
    },
    test: (actual, e) => {
      const len = lengthOf(actual);
      if (len === undefined) return { pass: false, note: `${kindOf(actual)}, not a string or a list` };
      const { min, max } = toBounds(e);
      return { pass: (min === undefined || len >= min) && (max === undefined || len <= max), note: `length ${len}` };
    },
  };
}

const MATCHER_LIST: MatcherDef[] = [
  {
    name: 'equals',
    summary: 'deep equality',
    schema: z.unknown(),
    describe: (e) => `to equal ${show(e)}`,
    test: (a, e, o) => {
      if (eq(a, e, o)) return { pass: true };
      const typeHint = a !== undefined && typeof a !== typeof e && String(a) === String(e);
      return typeHint
        ? { pass: false, note: `${kindOf(a)} vs ${kindOf(e)}: quote the value in YAML to compare strings` }
        : { pass: false };
    },
  },
  {
    name: 'contains',
    summary: 'substring of a string, or element of a list',
    schema: textValue,
    normalise: (v) => normaliseText(v),
    describe: (e, o) => `to contain ${show(e)}${ic(o) ? ' (ignoring case)' : ''}`,
    test: containsTest,
  },
  {
    name: 'icontains',
    summary: 'contains, ignoring case',
    schema: scalar,
    normalise: (v) => normaliseText(v, true),
    describe: (e) => `to contain ${show(e)} (ignoring case)`,
    test: containsTest,
  },
  {
    name: 'notContains',
    summary: 'neither a substring nor an element',
    schema: textValue,
    normalise: (v) => normaliseText(v),
    describe: (e, o) => `not to contain ${show(e)}${ic(o) ? ' (ignoring case)' : ''}`,
    test: (a, e, o) => {
      if (isAbsent(a)) return { pass: true };
      const r = containsTest(a, e, o);
      return r.note ? r : { pass: !r.pass };
    },
  },
  {
    name: 'matches',
    summary: 'a regular expression (JavaScript syntax; a leading (?i) sets the i flag)',
    schema: regexValue,
    normalise: (v) => {
      const r =
        typeof v === 'string'
          ? splitInlineFlags(v)
          : splitInlineFlags((v as { pattern: string }).pattern, (v as { flags?: string }).flags);
      return r.flags ? { expected: r.pattern, options: { flags: r.flags } } : { expected: r.pattern };
    },
    describe: (e, o) => `to match /${String(e)}/${String(o?.flags ?? '')}${ic(o) ? 'i' : ''}`,
    test: (a, e, o) => {
      if (typeof a !== 'string' && typeof a !== 'number') return { pass: false, note: `${kindOf(a)}, not a string` };
      const flags = splitInlineFlags('', `${String(o?.flags ?? '')}${ic(o) ? 'i' : ''}`).flags;
      return { pass: compileRegex(String(e), flags).test(String(a)) };
    },
  },
  {
    name: 'includes',
    summary: 'a list holding the value (every value, when a list is given)',
    schema: z.unknown(),
    describe: (e) => `to include ${show(e)}`,
    test: (a, e, o) => {
      if (!Array.isArray(a)) return { pass: false, note: `${kindOf(a)}, not a list` };
      const want = Array.isArray(e) ? e : [e];
      const missing = want.filter((w) => !a.some((x) => eq(x, w, o)));
      return missing.length === 0
        ? { pass: true }
        : { pass: false, note: Array.isArray(e) ? `missing ${show(missing)}` : undefined };
    },
  },
  {
    name: 'excludes',
    summary: 'a list holding none of the values',
    schema: z.unknown(),
    describe: (e) => `to exclude ${show(e)}`,
    test: (a, e, o) => {
      if (isAbsent(a)) return { pass: true };
      if (!Array.isArray(a)) return { pass: false, note: `${kindOf(a)}, not a list` };
      const want = Array.isArray(e) ? e : [e];
      const found = want.filter((w) => a.some((x) => eq(x, w, o)));
      return found.length === 0 ? { pass: true } : { pass: false, note: `found ${show(found)}` };
    },
  },
  {
    name: 'oneOf',
    summary: 'equal to one of the values',
    schema: z.array(z.unknown()).min(1, 'oneOf needs at least one value'),
    describe: (e) => `to be one of ${show(e)}`,
    test: (a, e, o) => ({ pass: (e as unknown[]).some((x) => eq(a, x, o)) }),
  },
  {
    name: 'absent',
    summary: 'missing, null or "" (false: present)',
    schema: z.boolean(),
    describe: (e) => (e ? 'to be absent (missing, null or "")' : 'to be present'),
    test: (a, e) => ({ pass: isAbsent(a) === e }),
  },
  {
    name: 'present',
    summary: 'not missing, null or "" (false: absent)',
    schema: z.boolean(),
    describe: (e) => (e ? 'to be present' : 'to be absent (missing, null or "")'),
    test: (a, e) => ({ pass: isAbsent(a) !== e }),
  },
  lengthDef(
    'length',
    z.union([
      count,
      z
        .strictObject({ min: count.optional(), max: count.optional() })
        .refine((b) => b.min !== undefined || b.max !== undefined, 'length needs min, max or both')
        .refine((b) => b.min === undefined || b.max === undefined || b.min <= b.max, 'length: min is greater than max'),
    ]),
    (e) => (typeof e === 'number' ? { min: e, max: e } : (e as { min?: number; max?: number })),
  ),
  lengthDef('minLength', count, (e) => ({ min: e as number })),
  lengthDef('maxLength', count, (e) => ({ max: e as number })),
  compare('gt', '>', (a, b) => a > b),
  compare('gte', '>=', (a, b) => a >= b),
  compare('lt', '<', (a, b) => a < b),
  compare('lte', '<=', (a, b) => a <= b),
  {
    name: 'money',
    summary: 'an amount and currency: "2,580.00 THB" or {amount, currency}',
    schema: z.union([
      z.string().refine((s) => toMoney(s) !== undefined, 'expected an amount and a currency code, e.g. "2,580.00 THB"'),
      z.strictObject({
        amount: z.number(),
        currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be a 3-letter code, e.g. THB'),
      }),
    ]),
    normalise: (v) => ({ expected: toMoney(v) }),
    describe: (e) => `an amount of ${showMoney(e as Money)}`,
    test: (a, e) => {
      const m = toMoney(a);
      return m ? { pass: sameMoney(m, e as Money) } : { pass: false, note: `${kindOf(a)}, not an amount and currency` };
    },
  },
];

/** Matchers by name (`json`, `similar` and `judge` excluded: see module docs). */
export const MATCHERS: ReadonlyMap<string, MatcherDef> = new Map(MATCHER_LIST.map((m) => [m.name, m]));
/** Modifier keys allowed beside matchers in a matcher object. */
export const MATCHER_MODIFIERS = ['ignoreCase'] as const;
/** Every key a matcher object may hold (`code`: a function of the suite's own, scenario/code.ts). */
export const MATCHER_NAMES: readonly string[] = [...MATCHERS.keys(), 'json', ...GRADED_MATCHERS.keys(), 'code'];
