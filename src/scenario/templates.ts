/**
 * `{{ vars.name }}` templates in step fields and expected values.
 * - A string that is exactly one template (`"{{ vars.total }}"`) becomes the variable's value with
 *   its type (a captured number stays a number, so `equals`/`gt` compare numbers);
 * - a template inside other text is replaced by the value as text (objects as JSON).
 * Which variables a string names is checked at load time (step-rules.ts); rendering an unknown
 * one at run time leaves the template text in place.
 */
import type { Expectation } from './types.js';

/** One template: `{{ vars.name }}`, spaces optional. */
const TEMPLATE_PATTERN = /\{\{\s*vars\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\{\{\s*vars\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
/** Anything that opens a template: `{{`. */
const OPENER = /\{\{/g;

export type Vars = Readonly<Record<string, unknown>>;

/**
 * The variable names used in `text`, and `malformed` when a `{{` opens something that is not
 * `{{ vars.name }}` (e.g. `{{ name }}`, `{{ vars.a.b }}`).
 */
export function templateNames(text: string): { names: string[]; malformed: boolean } {
  const names = [...text.matchAll(TEMPLATE_PATTERN)].map((m) => m[1]!);
  const opened = text.match(OPENER)?.length ?? 0;
  return { names, malformed: opened !== names.length };
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Renders one string (see module docs); the result is a string unless `text` is one whole template. */
export function renderTemplate(text: string, vars: Vars): unknown {
  if (!text.includes('{{')) return text;
  const whole = WHOLE_TEMPLATE.exec(text);
  if (whole && Object.hasOwn(vars, whole[1]!)) return vars[whole[1]!];
  return text.replace(TEMPLATE_PATTERN, (all, name: string) => (Object.hasOwn(vars, name) ? asText(vars[name]) : all));
}

/** `renderTemplate` coerced to a string (for request fields such as `prompt`). */
export function renderText(text: string, vars: Vars): string {
  return asText(renderTemplate(text, vars));
}

/** Renders every string inside a plain JSON-like value (lists and maps walked, depth <= 64). */
function renderDeep(value: unknown, vars: Vars, depth = 0): unknown {
  if (typeof value === 'string') return renderTemplate(value, vars);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, vars, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, vars, depth + 1)]));
}

/** Expectations with templates in their expected values rendered (`json` nests expectations). */
export function renderExpectations(expectations: readonly Expectation[], vars: Vars): Expectation[] {
  return expectations.map((e) =>
    e.matcher === 'json'
      ? { ...e, expected: renderExpectations(e.expected as Expectation[], vars) }
      : { ...e, expected: renderDeep(e.expected, vars) },
  );
}
