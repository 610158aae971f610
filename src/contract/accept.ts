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

/** Reused by every scalar check: zod's check functions push issues into `issues` (only on failure). */
const scratch: { value: unknown; issues: unknown[] } = { value: undefined, issues: [] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object zod's record accepts as plain (conservative: no own `constructor` key). */
const isPlainJsonObject = (v: unknown): v is Record<string, unknown> =>
  isObject(v) && Object.getPrototypeOf(v) === Object.prototype && !Object.hasOwn(v, 'constructor');

/**
 * One of zod's checks on a scalar, as the generated code runs it: the pattern of a regex or ISO
 * format check (zod's check is exactly `pattern.test(value)`), the predicate of a refine (zod's
 * check fails on a falsy result), or zod's own check function for anything else.
 */
type ScalarCheck =
  | { kind: 'pattern'; pattern: RegExp }
  | { kind: 'predicate'; fn: (v: unknown) => unknown }
  | { kind: 'zod'; run: (value: unknown) => boolean };

/** zod classes whose check is `def.pattern.test(value)` and nothing else (zod v4 core/checks.js, core/schemas.js). */
const PATTERN_ONLY = ['$ZodCheckRegex', '$ZodISODateTime', '$ZodISODate', '$ZodISOTime'];

/** Runs one zod check function on `value`; false when it reports an issue or is asynchronous. */
function zodCheck(run: (payload: typeof scratch) => unknown): (value: unknown) => boolean {
  return (value) => {
    scratch.value = value;
    scratch.issues.length = 0;
    const out = run(scratch);
    const ok = !(out instanceof Promise) && scratch.issues.length === 0;
    scratch.issues.length = 0;
    return ok;
  };
}

/** zod's checks of a scalar schema (its `.checks` and, for formats, the schema itself), or undefined when one cannot be run here. */
function scalarChecks(z: ZodInternals, schema: unknown): ScalarCheck[] | undefined {
  const checks = [...(z.traits.has('$ZodCheck') ? [schema] : []), ...(z.def.checks ?? [])];
  const out: ScalarCheck[] = [];
  for (const c of checks) {
    const ci = internals(c);
    if (!ci || typeof ci.check !== 'function' || ci.def.when !== undefined || ci.def.check === 'overwrite')
      return undefined;
    const pattern = ci.def.pattern;
    if (pattern instanceof RegExp && PATTERN_ONLY.some((t) => ci.traits.has(t))) out.push({ kind: 'pattern', pattern });
    else if (ci.traits.has('$ZodCustom') && typeof ci.def.fn === 'function')
      out.push({ kind: 'predicate', fn: ci.def.fn as (v: unknown) => unknown });
    else out.push({ kind: 'zod', run: zodCheck(ci.check) });
  }
  return out;
}

/**
 * Generated source of one schema's test. Objects, lists and records become inline code that reads
 * each documented key by its name (`v["requestId"]`), so every property read and call site has
 * its own inline cache: one closure per node would share a single cache among all objects, which
 * V8 then handles as megamorphic (measured: ~2 us against ~0.5 us for the 1.7 KB answer payload).
 * What the code needs (scalar checks, enum sets, key sets, unions' options) goes in `refs`,
 * read as `r[i]`. A statement list that `return false`s when the value at `v` may not fit.
 */
class Generator {
  readonly refs: unknown[] = [];
  #vars = 0;

  ref(x: unknown): string {
    this.refs.push(x);
    return `r[${this.refs.length - 1}]`;
  }

  variable(): string {
    return `v${this.#vars++}`;
  }

  /** Statements that return false when `v` (a variable name) may not fit `schema`; undefined: not modelled. */
  emit(schema: unknown, v: string, depth: number): string | undefined {
    const z = internals(schema);
    if (!z || depth > 32 || z.def.coerce) return undefined;
    const def = z.def;
    if ((def.checks?.length ?? 0) > 0 && !SCALARS.has(def.type)) return undefined;
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean': {
        const checks = scalarChecks(z, schema);
        if (!checks) return undefined;
        const type =
          def.type === 'number'
            ? `typeof ${v} !== 'number' || !Number.isFinite(${v})`
            : `typeof ${v} !== '${def.type}'`;
        return `if (${type}) return false;${checks.map((c) => ` ${this.#check(c, v)}`).join('')}`;
      }
      case 'null':
        return `if (${v} !== null) return false;`;
      case 'literal':
      case 'enum':
        return z.values ? `if (!${this.ref(z.values)}.has(${v})) return false;` : undefined;
      case 'unknown':
      case 'any':
        return '';
      case 'optional': {
        if (z.traits.has('$ZodExactOptional') || internals(def.innerType)?.optin === 'defaulted') return undefined;
        const inner = this.emit(def.innerType, v, depth + 1);
        return inner === undefined ? undefined : `if (${v} !== undefined) { ${inner} }`;
      }
      case 'nullable': {
        const inner = this.emit(def.innerType, v, depth + 1);
        return inner === undefined ? undefined : `if (${v} !== null) { ${inner} }`;
      }
      case 'readonly':
        return this.emit(def.innerType, v, depth + 1);
      case 'array': {
        const [i, e] = [this.variable(), this.variable()];
        const inner = this.emit(def.element, e, depth + 1);
        if (inner === undefined) return undefined;
        return `if (!Array.isArray(${v})) return false;${inner === '' ? '' : ` for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${e} = ${v}[${i}]; ${inner} }`}`;
      }
      case 'object':
        return this.#object(z, v, depth);
      case 'record': {
        const key = internals(def.keyType);
        if (
          key?.def.type !== 'string' ||
          (key.def.checks?.length ?? 0) > 0 ||
          key.traits.has('$ZodCheck') ||
          key.values
        )
          return undefined;
        const [k, e] = [this.variable(), this.variable()];
        const inner = this.emit(def.valueType, e, depth + 1);
        if (inner === undefined) return undefined;
        const loop =
          inner === ''
            ? ''
            : ` for (const ${k} in ${v}) { if (!Object.hasOwn(${v}, ${k})) continue; const ${e} = ${v}[${k}]; ${inner} }`;
        return `if (!${this.ref(isPlainJsonObject)}(${v})) return false;${loop}`;
      }
      case 'union': {
        if (z.traits.has('$ZodXor')) return undefined;
        const options = (def.options as unknown[]).map((o) => compile(o, depth + 1));
        if (options.some((o) => o === undefined)) return undefined;
        return `if (!(${options.map((o) => `${this.ref(o)}(${v})`).join(' || ')})) return false;`;
      }
      default:
        return undefined;
    }
  }

  /** A statement that returns false when check `c` fails on `v` (zod's semantics: see ScalarCheck). */
  #check(c: ScalarCheck, v: string): string {
    if (c.kind === 'zod') return `if (!${this.ref(c.run)}(${v})) return false;`;
    if (c.kind === 'predicate') {
      const x = this.variable();
      return `{ const ${x} = ${this.ref(c.fn)}(${v}); if (!${x} || ${x} instanceof Promise) return false; }`;
    }
    // zod resets lastIndex before each test; only a global or sticky pattern reads it.
    const re = this.ref(c.pattern);
    return c.pattern.global || c.pattern.sticky
      ? `${re}.lastIndex = 0; if (!${re}.test(${v})) return false;`
      : `if (!${re}.test(${v})) return false;`;
  }

  #object(z: ZodInternals, v: string, depth: number): string | undefined {
    const catchall = internals(z.def.catchall)?.def.type;
    if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any' && catchall !== 'never')
      return undefined;
    const shape = z.def.shape as Record<string, unknown>;
    let out = `if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) return false;`;
    for (const k of Object.keys(shape)) {
      const ci = internals(shape[k]);
      const mayBeAbsent =
        ci?.def.type === 'optional' &&
        !ci.traits.has('$ZodExactOptional') &&
        internals(ci.def.innerType)?.optin !== 'defaulted';
      const x = this.variable();
      const child = this.emit(shape[k], x, depth + 1);
      if (child === undefined) return undefined;
      out += ` const ${x} = ${v}[${JSON.stringify(k)}];${mayBeAbsent ? '' : ` if (${x} === undefined) return false;`} ${child}`;
    }
    if (catchall === 'never') {
      const k = this.variable();
      out += ` for (const ${k} in ${v}) if (!${this.ref(new Set(Object.keys(shape)))}.has(${k})) return false;`;
    }
    return out;
  }
}

/** Types whose `.checks` run here (scalarChecks); checks on anything else are not modelled. */
const SCALARS = new Set(['string', 'number', 'boolean']);

/** The yes-only test of `schema`, or undefined when it uses something not modelled here. */
function compile(schema: unknown, depth = 0): Accept | undefined {
  const g = new Generator();
  const body = g.emit(schema, 'v', depth);
  if (body === undefined) return undefined;
  // The source is built from this module's templates; schema keys enter only through JSON.stringify.
  return new Function('r', `return function accept(v) { ${body} return true; };`)(g.refs) as Accept;
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
  return accept?.(value) ?? false;
}

/** True when `schema` compiles to the shortcut (for tests and diagnostics: otherwise every check takes zod). */
export function hasShortcut(schema: object): boolean {
  acceptsAll(schema, undefined);
  return compiled.get(schema) !== null;
}
