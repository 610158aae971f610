/**
 * Value helpers shared by the matchers: deep equality, case folding, display.
 */

/** Structural equality of JSON-like values (arrays by position, objects by own keys). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]));
}

/** Lower-cases every string inside `v` (for `ignoreCase`). */
export function fold(v: unknown): unknown {
  if (typeof v === 'string') return v.toLowerCase();
  if (Array.isArray(v)) return v.map(fold);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fold(x)]));
  }
  return v;
}

/** One-line display of a value for failure messages (at most `max` characters). */
export function show(v: unknown, max = 200): string {
  if (v === undefined) return 'nothing (no value at this path)';
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** `absent` treats undefined, null and "" as absent. */
export function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

export function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  return `a ${typeof v}`;
}
