/**
 * `checkContract(schema, value)`: validates a body against a contract schema and lists
 * both violations (fatal to the contract) and unknown fields (warnings: the real service
 * may add fields; spec: Versioning "not shown").
 */
import { z } from 'zod';

export interface ContractViolation {
  /** Dotted path into the body, e.g. `customerInsight.intents.0`; "" for the body itself. */
  path: string;
  message: string;
  /** The offending value at that path (absent when the field is missing). */
  value?: unknown;
}

export interface ContractCheck<T> {
  ok: boolean;
  /** The parsed value when ok. */
  value: T | undefined;
  violations: ContractViolation[];
  /** Dotted paths of fields the schema does not name. */
  unknownFields: string[];
}

export function formatPath(path: readonly PropertyKey[]): string {
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

/** Unwraps optional/nullable/default/pipe wrappers to the schema that has a shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (let i = 0; i < 10; i++) {
    const def = (s as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return s;
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly') {
      s = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      s = def.in as z.ZodType;
    } else {
      return s;
    }
  }
  return s;
}

function collectUnknown(schema: z.ZodType, value: unknown, prefix: string, out: string[]): void {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const shape = s.shape as Record<string, z.ZodType>;
    for (const [key, v] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const child = shape[key];
      if (!child) out.push(path);
      else collectUnknown(child, v, path, out);
    }
  } else if (s instanceof z.ZodArray) {
    if (!Array.isArray(value)) return;
    // Report unknown fields of array elements once, under `[]`, not once per element.
    const seen = new Set<string>();
    const element = s.element as z.ZodType;
    for (const item of value) {
      const local: string[] = [];
      collectUnknown(element, item, `${prefix}[]`, local);
      for (const p of local) seen.add(p);
    }
    out.push(...seen);
  }
}

export function checkContract<S extends z.ZodType>(schema: S, value: unknown): ContractCheck<z.infer<S>> {
  const parsed = schema.safeParse(value);
  const unknownFields: string[] = [];
  collectUnknown(schema, value, '', unknownFields);
  if (parsed.success) {
    return { ok: true, value: parsed.data, violations: [], unknownFields };
  }
  const violations = parsed.error.issues.map((issue) => {
    const v: ContractViolation = { path: formatPath(issue.path), message: issue.message };
    const at = valueAt(value, issue.path);
    if (at !== undefined) v.value = at;
    return v;
  });
  return { ok: false, value: undefined, violations, unknownFields };
}
