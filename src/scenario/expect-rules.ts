/**
 * Load-time rules of one `expect` map (shared by scenarios and steps): dotted path syntax,
 * field names close to a known one (did-you-mean), non-empty matcher objects.
 */
import type { FileIssue } from '../errors.js';
import { codeRefSchema } from './code.js';
import { MATCHER_MODIFIERS } from './matchers/registry.js';
import { problemAt, type DataPath, type YamlSource } from './yaml-source.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why `path` is not a valid expectation path, or undefined when it is. */
export function pathProblem(path: string): string | undefined {
  if (/[[\]]/.test(path)) {
    const fixed = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    return `path "${path}" uses brackets; write array indices as dotted segments: "${fixed}"`;
  }
  if (path.trim() === '') return 'an expectation path must not be empty';
  if (path.split('.').some((s) => s === ''))
    return `path "${path}" has an empty segment (two dots, or a leading or trailing dot)`;
  if (/\s/.test(path)) return `path "${path}" contains whitespace`;
  return undefined;
}

/**
 * Checks one `expect` map at `base`: path syntax, `fieldProblem` (e.g. payloadPathProblem) for
 * the top-level paths, empty matcher objects; recurses into `json` maps (syntax only).
 */
export function checkExpect(
  expect: unknown,
  base: DataPath,
  source: YamlSource,
  out: FileIssue[],
  fieldProblem?: (path: string) => string | undefined,
): void {
  if (!isRecord(expect)) return;
  for (const [path, value] of Object.entries(expect)) {
    // `code: ./checks.mjs#name`: a function given the whole payload (code.ts).
    if (path === 'code' && typeof value === 'string') {
      const bad = codeRefSchema.safeParse(value).error?.issues[0]?.message;
      if (bad) out.push({ location: problemAt(source, [...base, path]), message: bad });
      continue;
    }
    const problem = pathProblem(path) ?? fieldProblem?.(path);
    if (problem) out.push({ location: problemAt(source, [...base, path], 'key'), message: problem });
    if (!isRecord(value)) continue;
    if (!Object.keys(value).some((k) => !(MATCHER_MODIFIERS as readonly string[]).includes(k))) {
      out.push({
        location: problemAt(source, [...base, path]),
        message: 'empty matcher object: name at least one matcher, e.g. { equals: ... }',
      });
    }
    if (isRecord(value.json)) checkExpect(value.json, [...base, path, 'json'], source, out);
  }
}
