/**
 * Stage 3 of loading: zod issues -> `FileIssue`s with file:line:col and plain-language messages.
 * - unknown keys and matcher names get a did-you-mean (`unknown key "humanMesage" — did you mean "humanMessage"?`);
 * - a union (chat turn, matcher value, modes) reports the branch the user evidently meant
 *   (the one whose type matched, with the fewest problems), else the union's own message;
 * - a missing key points at the map that should hold it.
 */
import { z } from 'zod';
import type { FileIssue } from '../errors.js';
import { kindOf } from './matchers/values.js';
import { MATCHER_NAMES } from './matchers/registry.js';
import { matcherObjectSchema } from './schema.js';
import { didYouMean } from '../suggest.js';
import { problemAt, type DataPath, type YamlSource } from './yaml-source.js';

type Issue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;
type Shape = Readonly<Record<string, Schema>>;

/** The schema inside the wrappers that leave a value's type as it is (optional, default, lazy, the input of a pipe...). */
function unwrap(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    if (
      s instanceof z.ZodOptional ||
      s instanceof z.ZodNullable ||
      s instanceof z.ZodDefault ||
      s instanceof z.ZodReadonly ||
      s instanceof z.ZodNonOptional ||
      s instanceof z.ZodLazy
    )
      s = s.unwrap();
    else if (s instanceof z.ZodPipe) s = s.in;
    else return s;
  }
  return s;
}

/** The shape of an object schema, or of the first object option of a union (zod flattens a union's issues when only one option's type fits). */
function shapeOf(schema: Schema | undefined): Shape | undefined {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) return s.shape;
  if (s instanceof z.ZodUnion) return s.options.map(shapeOf).find((x) => x !== undefined);
  return undefined;
}

/**
 * The shape of `schema` that `value` (the map the user wrote) was meant for: for a union of
 * objects (a `say`, `burst` or `call` step), the option whose leading key the map has (`say:`,
 * `burst:`, `call:`), else the one naming most of the map's keys.
 */
function shapeFor(schema: Schema | undefined, value: unknown): Shape | undefined {
  const union = unwrap(schema);
  if (!(union instanceof z.ZodUnion) || value === null || typeof value !== 'object') return shapeOf(schema);
  const keys = Object.keys(value);
  let best: Shape | undefined;
  let score = -1;
  for (const option of union.options) {
    const shape = shapeOf(option);
    if (!shape) continue;
    const leading = Object.keys(shape)[0];
    const fit =
      keys.filter((k) => Object.hasOwn(shape, k)).length +
      (leading !== undefined && keys.includes(leading) ? keys.length : 0);
    if (fit > score) [best, score] = [shape, fit];
  }
  return best;
}

/** The schema reached by following `path` from `schema` (first fitting branch of a union). */
function schemaAt(schema: Schema | undefined, path: DataPath): Schema | undefined {
  let s = unwrap(schema);
  for (const seg of path) {
    if (s instanceof z.ZodObject) s = s.shape[String(seg)];
    else if (s instanceof z.ZodArray) s = s.element;
    else if (s instanceof z.ZodRecord) s = s.valueType;
    else if (s instanceof z.ZodUnion) s = s.options.map((o) => schemaAt(o, [seg])).find((x) => x !== undefined);
    else return undefined;
    s = unwrap(s);
  }
  return s;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a map',
  array: 'a list',
  null: 'null',
  record: 'a map',
};

function valueAt(data: unknown, path: DataPath): unknown {
  let cur = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return cur;
}

function labelOf(path: DataPath): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'string')
      return i === path.length - 1 ? `"${seg}"` : `item ${Number(path[i + 1]) + 1} of "${seg}"`;
  }
  return 'the file';
}

function unknownKey(key: string, candidates: string[], isMatcher: boolean): string {
  const what = isMatcher ? 'matcher' : 'key';
  const guess = didYouMean(key, candidates);
  if (guess) return `unknown ${what} "${key}" — did you mean "${guess}"?`;
  if (isMatcher) {
    return `unknown matcher "${key}"; matchers: ${MATCHER_NAMES.join(', ')} (to compare a whole object write { equals: {...} }; to reach a field use a dotted path)`;
  }
  return `unknown key "${key}"; allowed keys: ${candidates.join(', ')}`;
}

/** `['a', 'b', 'c']` -> `a, b or c`. */
function orList(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? 'something else')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function toPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.filter((p): p is string | number => typeof p !== 'symbol');
}

/**
 * The paths (JSON) of the keys a did-you-mean on an unknown key points at: such a key's own
 * "missing" issue is not reported twice.
 */
function guessedKeys(issues: readonly Issue[], source: YamlSource, schema: Schema, base: DataPath): Set<string> {
  const coveredMissing = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const candidates = Object.keys(
      shapeFor(schemaAt(schema, toPath(issue.path)), valueAt(source.data, [...base, ...toPath(issue.path)])) ?? {},
    );
    for (const key of issue.keys) {
      const guess = didYouMean(key, candidates);
      if (guess) coveredMissing.add(JSON.stringify([...toPath(issue.path), guess]));
    }
  }
  return coveredMissing;
}

/**
 * A union that matched no branch: the issues of the branch whose type matched with the fewest
 * issues, else one "must be A or B" issue.
 */
function unionIssues(
  issue: Extract<Issue, { code: 'invalid_union' }>,
  source: YamlSource,
  schema: Schema,
  rel: DataPath,
  path: DataPath,
): FileIssue[] {
  const branches = issue.errors;
  let best = -1;
  branches.forEach((b, i) => {
    const typeMatched = !b.some((x) => x.code === 'invalid_type' && x.path.length === 0);
    if (typeMatched && (best < 0 || b.length < (branches[best]?.length ?? Infinity))) best = i;
  });
  const union = schemaAt(schema, rel);
  const option = union instanceof z.ZodUnion ? union.options[best] : undefined;
  const branch = best >= 0 ? branches[best] : undefined;
  if (branch && option) return issuesFromZod(branch, source, option, path);
  const types = branches.flatMap((b) =>
    b
      .filter((x) => x.code === 'invalid_type' && x.path.length === 0)
      .map((x) => (x.code === 'invalid_type' ? (EXPECTED[x.expected] ?? x.expected) : '')),
  );
  const msg =
    issue.message && issue.message !== 'Invalid input' ? issue.message : `must be ${orList([...new Set(types)])}`;
  const value = valueAt(source.data, path);
  return [{ location: problemAt(source, path, 'value'), message: `${labelOf(path)}: ${msg}, got ${kindOf(value)}` }];
}

/** A missing required key (at its parent), or a value of the wrong type. */
function typeIssue(
  issue: Extract<Issue, { code: 'invalid_type' }>,
  source: YamlSource,
  rel: DataPath,
  path: DataPath,
  value: unknown,
): FileIssue {
  if (value === undefined && rel.length > 0) {
    return {
      location: problemAt(source, path.slice(0, -1), 'value'),
      message: `missing required key "${String(path[path.length - 1])}"`,
    };
  }
  const want = EXPECTED[issue.expected] ?? issue.expected;
  // A schema's own type message (e.g. a duration's "with its unit") says more than the type.
  const own = issue.message && !issue.message.startsWith('Invalid input') ? issue.message : undefined;
  return {
    location: problemAt(source, path, 'value'),
    message: own
      ? `${labelOf(path)}: ${own}, got ${kindOf(value)}`
      : `${labelOf(path)} must be ${want}, got ${kindOf(value)}`,
  };
}

/** Maps every zod issue (relative to `schema` at `base`) to one or more `FileIssue`s. */
export function issuesFromZod(
  issues: readonly Issue[],
  source: YamlSource,
  schema: Schema,
  base: DataPath = [],
): FileIssue[] {
  const out: FileIssue[] = [];
  const coveredMissing = guessedKeys(issues, source, schema, base);
  for (const issue of issues) {
    const rel = toPath(issue.path);
    const path = [...base, ...rel];
    // A missing key already explained by a did-you-mean on a typo is not reported twice; a
    // present key of the wrong type still is.
    if (
      issue.code === 'invalid_type' &&
      coveredMissing.has(JSON.stringify(rel)) &&
      valueAt(source.data, path) === undefined
    )
      continue;
    const at = (p: DataPath = path, want: 'value' | 'key' = 'value'): FileIssue['location'] =>
      problemAt(source, p, want);
    const value = valueAt(source.data, path);
    switch (issue.code) {
      case 'invalid_union':
        out.push(...unionIssues(issue, source, schema, rel, path));
        break;
      case 'unrecognized_keys': {
        const obj = schemaAt(schema, rel);
        const candidates = Object.keys(shapeFor(obj, value) ?? {});
        const isMatcher = shapeOf(obj) === shapeOf(matcherObjectSchema);
        for (const key of issue.keys)
          out.push({ location: at([...path, key], 'key'), message: unknownKey(key, candidates, isMatcher) });
        break;
      }
      case 'invalid_type':
        out.push(typeIssue(issue, source, rel, path, value));
        break;
      case 'invalid_value': {
        const allowed = issue.values.map((v) => String(v)).join(', ');
        out.push({
          location: at(),
          message: `${labelOf(path)} must be one of: ${allowed}; got ${JSON.stringify(value) ?? 'nothing'}`,
        });
        break;
      }
      default: {
        const generic = /^(Too|Invalid)/.test(issue.message);
        out.push({ location: at(), message: generic ? `${labelOf(path)}: ${issue.message}` : issue.message });
      }
    }
  }
  return out;
}
