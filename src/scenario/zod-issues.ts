/**
 * Stage 3 of loading: zod issues -> `FileIssue`s with file:line:col and plain-language messages.
 * - unknown keys and matcher names get a did-you-mean (`unknown key "humanMesage" — did you mean "humanMessage"?`);
 * - a union (chat turn, matcher value, modes) reports the branch the user evidently meant
 *   (the one whose type matched, with the fewest problems), else the union's own message;
 * - a missing key points at the map that should hold it.
 */
import type { z } from 'zod';
import type { FileIssue } from '../errors.js';
import { kindOf } from './matchers/values.js';
import { MATCHER_NAMES } from './matchers/registry.js';
import { matcherObjectSchema } from './schema.js';
import { didYouMean } from '../suggest.js';
import type { DataPath, YamlSource } from './yaml-source.js';

type Issue = z.core.$ZodIssue;
type Def = { type: string; [k: string]: unknown };

const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return s;
    if (['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(def.type)) s = def.innerType;
    else if (def.type === 'lazy') s = (def.getter as () => unknown)();
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
  return s;
}

/** The shape of an object schema, or of the first object option of a union (zod flattens a union's issues when only one option's type fits). */
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def?.type === 'object') return def.shape as Record<string, unknown>;
  if (def?.type === 'union') return (def.options as unknown[]).map(shapeOf).find((x) => x !== undefined);
  return undefined;
}

/**
 * The shape of `schema` that `value` (the map the user wrote) was meant for: for a union of
 * objects (a `say` or a `call` step), the option naming most of the map's keys.
 */
function shapeFor(schema: unknown, value: unknown): Record<string, unknown> | undefined {
  const def = defOf(unwrap(schema));
  if (def?.type !== 'union' || value === null || typeof value !== 'object') return shapeOf(schema);
  const keys = Object.keys(value);
  let best: Record<string, unknown> | undefined;
  let score = -1;
  for (const option of def.options as unknown[]) {
    const shape = shapeOf(option);
    if (!shape) continue;
    const fit = keys.filter((k) => Object.hasOwn(shape, k)).length;
    if (fit > score) [best, score] = [shape, fit];
  }
  return best;
}

/** The schema reached by following `path` from `schema` (first fitting branch of a union). */
function schemaAt(schema: unknown, path: DataPath): unknown {
  let s = unwrap(schema);
  for (const seg of path) {
    const def = defOf(s);
    if (!def) return undefined;
    if (def.type === 'object') s = shapeOf(s)?.[String(seg)];
    else if (def.type === 'array') s = def.element;
    else if (def.type === 'record') s = def.valueType;
    else if (def.type === 'union') {
      const opts = (def.options as unknown[]).map(unwrap);
      s = opts.map((o) => schemaAt(o, [seg])).find((x) => x !== undefined);
    } else return undefined;
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
function guessedKeys(issues: readonly Issue[], source: YamlSource, schema: unknown, base: DataPath): Set<string> {
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
  schema: unknown,
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
  const options = defOf(union)?.options as unknown[] | undefined;
  const branch = best >= 0 ? branches[best] : undefined;
  if (branch && options?.[best]) return issuesFromZod(branch, source, options[best], path);
  const types = branches.flatMap((b) =>
    b
      .filter((x) => x.code === 'invalid_type' && x.path.length === 0)
      .map((x) => (x.code === 'invalid_type' ? (EXPECTED[x.expected] ?? x.expected) : '')),
  );
  const msg =
    issue.message && issue.message !== 'Invalid input' ? issue.message : `must be ${orList([...new Set(types)])}`;
  const value = valueAt(source.data, path);
  return [{ location: source.locate(path, 'value'), message: `${labelOf(path)}: ${msg}, got ${kindOf(value)}` }];
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
      location: source.locate(path.slice(0, -1), 'value'),
      message: `missing required key "${String(path[path.length - 1])}"`,
    };
  }
  const want = EXPECTED[issue.expected] ?? issue.expected;
  // A schema's own type message (e.g. a duration's "with its unit") says more than the type.
  const own = issue.message && !issue.message.startsWith('Invalid input') ? issue.message : undefined;
  return {
    location: source.locate(path, 'value'),
    message: own
      ? `${labelOf(path)}: ${own}, got ${kindOf(value)}`
      : `${labelOf(path)} must be ${want}, got ${kindOf(value)}`,
  };
}

/** Maps every zod issue (relative to `schema` at `base`) to one or more `FileIssue`s. */
export function issuesFromZod(
  issues: readonly Issue[],
  source: YamlSource,
  schema: unknown,
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
    const at = (p: DataPath = path, want: 'value' | 'key' = 'value'): FileIssue['location'] => source.locate(p, want);
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
