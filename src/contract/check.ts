/**
 * `checkContract(contract, value)`: checks a body against a contract of two tiers
 * (docs/service-reference.md):
 * - `documented`: what the spec or the service's documentation shows. A difference is a
 *   violation (a finding).
 * - `choice` (optional): droidcheck's own choice where the spec says "not shown" (the shape the
 *   emulator sends). A difference is never a finding: it is listed in `unverified`, which the
 *   runner turns into at most one "unverified shape" note per endpoint per run.
 * A bare zod schema is a contract with a documented tier only.
 *
 * Cost: a body that fits the documented tier is recognised by `acceptsAll` (accept.ts: a walk
 * that allocates nothing); zod's `safeParse` runs only for a body that may not fit (to name each
 * violation) and, on first read, for `value`. `unverified` (the same for the choice tier) and
 * `unknownFields` (a walk over precomputed key sets) are computed on first read only, so a hot
 * path (the receiver, per webhook) that does not read them does not pay for them.
 */
import type { z } from 'zod';
import { acceptsAll } from './accept.js';

interface ContractViolation {
  /** Dotted path into the body, e.g. `customerInsight.intents.0`; "" for the body itself. */
  path: string;
  message: string;
  /** The offending value at that path (absent when the field is missing). */
  value?: unknown;
}

/** Where a body differs from droidcheck's choice (spec: "not shown"). Never a finding. */
type ContractDifference = ContractViolation;

/** One endpoint's (or webhook's) contract: the documented tier and, where there is one, droidcheck's choice. */
export interface TieredContract {
  /** Endpoint or webhook name, e.g. `channels`, `get-droid-answer`, `webhook`, `message-webhook`. */
  readonly name: string;
  /** What the spec or the service's documentation shows (a difference is a violation). */
  readonly documented: z.ZodType;
  /** droidcheck's (and the emulator's) choice where the spec says "not shown"; never a violation. */
  readonly choice?: z.ZodType | undefined;
  /** Where the documented tier comes from (spec section, docs page). */
  readonly source: string;
}

export interface ContractCheck<T> {
  /** No violation of the documented tier. */
  ok: boolean;
  /** The parsed body (documented tier) when ok. */
  value: T | undefined;
  /** Differences from the documented tier: findings. */
  violations: ContractViolation[];
  /** Differences from droidcheck's choice (never findings); [] when the contract has no choice. Computed on first read. */
  readonly unverified: ContractDifference[];
  /** Dotted paths (`list[].field` for list elements) of fields neither tier names. Computed on first read. */
  readonly unknownFields: string[];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function issuesOf(error: z.ZodError, root: unknown): ContractViolation[] {
  return error.issues.map((issue) => {
    const v: ContractViolation = { path: formatPath(issue.path), message: issue.message };
    const at = valueAt(root, issue.path);
    if (at !== undefined) v.value = at;
    return v;
  });
}

// ---- precomputed key sets for the unknown-field walk -------------------------------------------

interface KeyTree {
  /** Keys an object may have; undefined when the node is no object. */
  keys: Map<string, KeyTree> | undefined;
  /** The element of a list. */
  element: KeyTree | undefined;
  /** Anything goes below (record, unknown, custom): nothing is reported. */
  open: boolean;
}

const LEAF: KeyTree = { keys: undefined, element: undefined, open: false };
const OPEN: KeyTree = { keys: undefined, element: undefined, open: true };
type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function merge(a: KeyTree, b: KeyTree): KeyTree {
  if (a === b) return a;
  let keys: Map<string, KeyTree> | undefined;
  if (a.keys || b.keys) {
    keys = new Map(a.keys);
    for (const [k, t] of b.keys ?? []) keys.set(k, keys.has(k) ? merge(keys.get(k)!, t) : t);
  }
  const element = a.element && b.element ? merge(a.element, b.element) : (a.element ?? b.element);
  const open = (a.open || b.open) && !keys && !element;
  return { keys, element, open };
}

function compile(schema: unknown, depth = 0): KeyTree {
  const def = defOf(schema);
  if (!def || depth > 32) return OPEN;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return compile(def.innerType, depth + 1);
    case 'pipe':
      return compile(def.in, depth + 1);
    case 'object': {
      const keys = new Map<string, KeyTree>();
      for (const [k, child] of Object.entries(def.shape as Record<string, unknown>))
        keys.set(k, compile(child, depth + 1));
      return { keys, element: undefined, open: false };
    }
    case 'array':
      return { keys: undefined, element: compile(def.element, depth + 1), open: false };
    case 'union':
      return (def.options as unknown[]).map((o) => compile(o, depth + 1)).reduce(merge, LEAF);
    case 'record':
    case 'unknown':
    case 'any':
    case 'custom':
    case 'lazy':
      return OPEN;
    default:
      return LEAF;
  }
}

const trees = new WeakMap<object, KeyTree>();

function treeOf(contract: TieredContract): KeyTree {
  let tree = trees.get(contract);
  if (!tree) {
    tree = compile(contract.documented);
    if (contract.choice) tree = merge(tree, compile(contract.choice));
    trees.set(contract, tree);
  }
  return tree;
}

/**
 * Pushes to `out` the dotted paths of fields `tree` does not name. `path` holds the segments
 * down to `value` (a list's segment ends in `[]`); a path string is built only for an unknown
 * field, so a body with none allocates nothing.
 */
function walk(tree: KeyTree, value: unknown, path: string[], out: string[]): void {
  if (tree.open || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const element = tree.element;
    if (!element || element.open) return;
    // Unknown fields of list elements are reported once, under `list[]`, not once per element.
    const last = path.length - 1;
    const segment = last >= 0 ? (path[last] as string) : undefined;
    if (segment === undefined) path.push('[]');
    else path[last] = `${segment}[]`;
    const start = out.length;
    for (const item of value) walk(element, item, path, out);
    if (segment === undefined) path.pop();
    else path[last] = segment;
    if (out.length > start + 1) {
      const unique = [...new Set(out.slice(start))];
      out.length = start;
      out.push(...unique);
    }
    return;
  }
  const keys = tree.keys;
  if (!keys) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = keys.get(key);
    const v = (value as Record<string, unknown>)[key];
    if (!child) {
      path.push(key);
      out.push(path.join('.'));
      path.pop();
    } else if (!child.open && v !== null && typeof v === 'object') {
      path.push(key);
      walk(child, v, path, out);
      path.pop();
    }
  }
}

// ---- the check ---------------------------------------------------------------------------------

/** `value` of a check whose body was accepted without zod: parsed on first read. */
const NOT_PARSED: unique symbol = Symbol('not parsed');

class TieredCheck<T> implements ContractCheck<T> {
  #unverified: ContractDifference[] | undefined;
  #unknown: string[] | undefined;
  #value: T | undefined | typeof NOT_PARSED;

  constructor(
    readonly ok: boolean,
    value: T | undefined | typeof NOT_PARSED,
    readonly violations: ContractViolation[],
    private readonly contract: TieredContract,
    private readonly body: unknown,
  ) {
    this.#value = value;
  }

  get value(): T | undefined {
    if (this.#value === NOT_PARSED) this.#value = this.contract.documented.safeParse(this.body).data as T;
    return this.#value;
  }

  get unverified(): ContractDifference[] {
    if (this.#unverified) return this.#unverified;
    const choice = this.contract.choice;
    let out: ContractDifference[] = [];
    if (choice && !acceptsAll(choice, this.body)) {
      const parsed = choice.safeParse(this.body);
      if (!parsed.success) {
        const taken = new Set(this.violations.map((v) => v.path));
        out = issuesOf(parsed.error, this.body).filter((d) => !taken.has(d.path));
      }
    }
    this.#unverified = out;
    return out;
  }

  get unknownFields(): string[] {
    if (this.#unknown) return this.#unknown;
    const out: string[] = [];
    walk(treeOf(this.contract), this.body, [], out);
    this.#unknown = out;
    return out;
  }

  toJSON(): ContractCheck<T> {
    return {
      ok: this.ok,
      value: this.value,
      violations: this.violations,
      unverified: this.unverified,
      unknownFields: this.unknownFields,
    };
  }
}

/** Contracts made from bare schemas, so each schema compiles its key set once. */
const bare = new WeakMap<z.ZodType, TieredContract>();

/** A tiered contract is told by its `documented` field (zod's `instanceof` runs a trait lookup per call). */
const isTiered = (c: z.ZodType | TieredContract): c is TieredContract =>
  (c as Partial<TieredContract>).documented !== undefined;

function asContract(c: z.ZodType | TieredContract): TieredContract {
  if (isTiered(c)) return c;
  let contract = bare.get(c);
  if (!contract) {
    contract = { name: '(schema)', documented: c, source: '(schema)' };
    bare.set(c, contract);
  }
  return contract;
}

/**
 * Checks `value` against a contract (or a bare schema: documented tier only).
 * Returns `{ok, value, violations, unverified, unknownFields}`; see ContractCheck. Never throws.
 */
export function checkContract<S extends z.ZodType>(schema: S, value: unknown): ContractCheck<z.infer<S>>;
export function checkContract<T = unknown>(contract: TieredContract, value: unknown): ContractCheck<T>;
export function checkContract(c: z.ZodType | TieredContract, value: unknown): ContractCheck<unknown> {
  const contract = asContract(c);
  if (acceptsAll(contract.documented, value)) return new TieredCheck(true, NOT_PARSED, [], contract, value);
  const parsed = contract.documented.safeParse(value);
  if (parsed.success) return new TieredCheck(true, parsed.data, [], contract, value);
  return new TieredCheck(false, undefined, issuesOf(parsed.error, value), contract, value);
}

/**
 * A compact description of a JSON value's shape, for the "unverified shape" note, e.g.
 * `{channels: [{id: number, platform: string}], count: number}`. At most `maxKeys` keys per
 * object and `depth` levels; the first element stands for a list.
 */
export function describeShape(value: unknown, depth = 3, maxKeys = 10): string {
  if (value === null) return 'null';
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : depth <= 0 ? '[…]' : `[${describeShape(value[0], depth - 1, maxKeys)}]`;
  if (typeof value !== 'object') return typeof value;
  if (depth <= 0) return '{…}';
  const keys = Object.keys(value);
  const parts = keys
    .slice(0, maxKeys)
    .map((k) => `${k}: ${describeShape((value as Record<string, unknown>)[k], depth - 1, maxKeys)}`);
  if (keys.length > maxKeys) parts.push('…');
  return `{${parts.join(', ')}}`;
}

/**
 * The one-line "unverified shape" note for an endpoint (the runner prints at most one per
 * endpoint per run), or undefined when the body matched droidcheck's choice. Never a finding.
 */
export function unverifiedNote(endpoint: string, check: ContractCheck<unknown>, body: unknown): string | undefined {
  const diffs = check.unverified;
  if (diffs.length === 0) return undefined;
  const first = diffs
    .slice(0, 3)
    .map((d) => `${d.path || '(body)'}: ${d.message}`)
    .join('; ');
  const more = diffs.length > 3 ? ` (+${diffs.length - 3} more)` : '';
  return `unverified shape: ${endpoint} answered ${describeShape(body)}; droidcheck's choice differs at ${first}${more}. The spec does not show this shape: not a finding.`;
}
