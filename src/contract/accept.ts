/**
 * `acceptsAll(schema, value)`: a yes-only shortcut in front of zod, for the hot path (a webhook, an
 * acknowledgement, a sync answer: thousands a second under load). zod's `safeParse` builds a
 * parsed copy of the body (for a 1.7 KB answer payload, ~6 KB of objects, more than
 * `JSON.parse` itself), which nobody reads when the body is fine. This walks the body against the
 * schema's definition and allocates nothing.
 *
 * Contract: `true` only when `schema.safeParse(value)` would succeed; `false` means "not known":
 * the caller runs zod, which stays the one judge of every issue (its path and message). Schemas
 * with anything this does not model (transforms, defaults, pipes, lazy, custom types, checks on
 * objects or lists, coercion, async refinements...) compile to "unknown" and always take zod.
 * Checks on scalars (`.regex()`, `.refine()`, ISO formats, lengths) run through zod's own check
 * functions. test/contract/accept.test.ts holds the implication against zod on mutated bodies.
 */
type Accept = (value: unknown) => boolean;
type Def = { type: string; checks?: unknown[]; coerce?: boolean; [k: string]: unknown };
interface ZodInternals {
  def: Def;
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  check?: (payload: { value: unknown; issues: unknown[] }) => unknown;
}

const internals = (s: unknown): ZodInternals | undefined => (s as { _zod?: ZodInternals } | undefined)?._zod;

const ALWAYS: Accept = () => true;
/** Reused by every scalar check: zod's check functions push issues into `issues` (only on failure). */
const scratch: { value: unknown; issues: unknown[] } = { value: undefined, issues: [] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object zod's record accepts as plain (conservative: no own `constructor` key). */
const isPlainJsonObject = (v: unknown): v is Record<string, unknown> => isObject(v) && Object.getPrototypeOf(v) === Object.prototype && !Object.hasOwn(v, 'constructor');

/** zod's checks of a scalar schema (its `.checks` and, for formats, the schema itself), or undefined when one cannot be run here. */
function scalarChecks(z: ZodInternals, schema: unknown): Accept | undefined {
  const checks = [...(z.traits.has('$ZodCheck') ? [schema] : []), ...(z.def.checks ?? [])];
  const runs: ((payload: typeof scratch) => unknown)[] = [];
  for (const c of checks) {
    const ci = internals(c);
    if (!ci || typeof ci.check !== 'function' || ci.def.when !== undefined || ci.def.check === 'overwrite') return undefined;
    runs.push(ci.check);
  }
  if (runs.length === 0) return ALWAYS;
  return (value) => {
    for (const run of runs) {
      scratch.value = value;
      scratch.issues.length = 0;
      const out = run(scratch);
      if (out instanceof Promise || scratch.issues.length > 0) {
        scratch.issues.length = 0;
        return false;
      }
    }
    return true;
  };
}

function compileObject(z: ZodInternals, depth: number): Accept | undefined {
  const shape = z.def.shape as Record<string, unknown>;
  const keys = Object.keys(shape);
  const children: Accept[] = [];
  const mayBeAbsent: boolean[] = [];
  for (const k of keys) {
    const child = compile(shape[k], depth + 1);
    if (!child) return undefined;
    children.push(child);
    const ci = internals(shape[k]);
    mayBeAbsent.push(ci?.def.type === 'optional' && !ci.traits.has('$ZodExactOptional') && internals(ci.def.innerType)?.optin !== 'defaulted');
  }
  const catchall = internals(z.def.catchall)?.def.type;
  if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any' && catchall !== 'never') return undefined;
  const strict = catchall === 'never';
  const keySet = new Set(keys);
  return (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const value = v[k];
      if (value === undefined) {
        if (!mayBeAbsent[i]) return false;
        continue;
      }
      if (!(children[i] as Accept)(value)) return false;
    }
    if (strict) for (const k in v) if (!keySet.has(k)) return false;
    return true;
  };
}

/** The yes-only test of `schema`, or undefined when it uses something not modelled here. */
function compile(schema: unknown, depth = 0): Accept | undefined {
  const z = internals(schema);
  if (!z || depth > 32 || z.def.coerce) return undefined;
  const def = z.def;
  const hasChecks = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean': {
      const checks = scalarChecks(z, schema);
      if (!checks) return undefined;
      const t = def.type;
      if (t === 'number') return (v) => typeof v === 'number' && Number.isFinite(v) && checks(v);
      return checks === ALWAYS ? (v) => typeof v === t : (v) => typeof v === t && checks(v);
    }
    case 'null':
      return hasChecks ? undefined : (v) => v === null;
    case 'literal':
    case 'enum': {
      const values = z.values;
      return values && !hasChecks ? (v) => values.has(v) : undefined;
    }
    case 'unknown':
    case 'any':
      return hasChecks ? undefined : ALWAYS;
    case 'optional': {
      if (hasChecks || z.traits.has('$ZodExactOptional') || internals(def.innerType)?.optin === 'defaulted') return undefined;
      const inner = compile(def.innerType, depth + 1);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'nullable': {
      const inner = hasChecks ? undefined : compile(def.innerType, depth + 1);
      return inner && ((v) => v === null || inner(v));
    }
    case 'readonly':
      return hasChecks ? undefined : compile(def.innerType, depth + 1);
    case 'array': {
      const element = hasChecks ? undefined : compile(def.element, depth + 1);
      if (!element) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'object':
      return hasChecks ? undefined : compileObject(z, depth);
    case 'record': {
      const key = internals(def.keyType);
      if (hasChecks || !key || key.def.type !== 'string' || (key.def.checks?.length ?? 0) > 0 || key.traits.has('$ZodCheck') || key.values) return undefined;
      const value = compile(def.valueType, depth + 1);
      if (!value) return undefined;
      return (v) => {
        if (!isPlainJsonObject(v)) return false;
        for (const k in v) if (Object.hasOwn(v, k) && !value(v[k])) return false;
        return true;
      };
    }
    case 'union': {
      if (hasChecks || z.traits.has('$ZodXor')) return undefined;
      const options = (def.options as unknown[]).map((o) => compile(o, depth + 1));
      if (options.some((o) => o === undefined)) return undefined;
      const all = options as Accept[];
      return (v) => all.some((o) => o(v));
    }
    default:
      return undefined;
  }
}

const compiled = new WeakMap<object, Accept | null>();

/**
 * True when zod's `schema.safeParse(value)` would succeed, found without building a copy; false
 * when it may not (then ask zod). Never throws for a JSON value.
 */
export function acceptsAll(schema: object, value: unknown): boolean {
  let accept = compiled.get(schema);
  if (accept === undefined) {
    accept = compile(schema) ?? null;
    compiled.set(schema, accept);
  }
  return accept !== null && accept(value);
}

/** True when `schema` compiles to the shortcut (for tests and diagnostics: otherwise every check takes zod). */
export function hasShortcut(schema: object): boolean {
  acceptsAll(schema, undefined);
  return compiled.get(schema) !== null;
}
