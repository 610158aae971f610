/**
 * Stage 4 of loading: rules zod cannot state, run on the raw data (guarded, so they also run
 * when the schema found problems, and every issue of a file is reported at once):
 * - scenario names are unique in a suite;
 * - a matcher object names at least one matcher;
 * - expectation paths are dotted (`responses.0.kwargs.content`), without `[]` or empty segments,
 *   and do not misspell a field of the answer payload (payload-paths.ts).
 */
import type { FileIssue } from '../errors.js';
import { MATCHER_MODIFIERS } from './matchers/registry.js';
import { payloadPathProblem } from './payload-paths.js';
import type { DataPath, YamlSource } from './yaml-source.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why `path` is not a valid expectation path, or undefined when it is. */
export function pathProblem(path: string): string | undefined {
  if (/[[\]]/.test(path)) {
    const fixed = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    return `path "${path}" uses brackets; write array indices as dotted segments: "${fixed}"`;
  }
  if (path.trim() === '') return 'an expectation path must not be empty';
  if (path.split('.').some((s) => s === '')) return `path "${path}" has an empty segment (two dots, or a leading or trailing dot)`;
  if (/\s/.test(path)) return `path "${path}" contains whitespace`;
  return undefined;
}

function checkExpect(expect: unknown, base: DataPath, source: YamlSource, out: FileIssue[], inPayload: boolean): void {
  if (!isRecord(expect)) return;
  for (const [path, value] of Object.entries(expect)) {
    const problem = pathProblem(path) ?? (inPayload ? payloadPathProblem(path) : undefined);
    if (problem) out.push({ location: source.locate([...base, path], 'key'), message: problem });
    if (!isRecord(value)) continue;
    if (!Object.keys(value).some((k) => !(MATCHER_MODIFIERS as readonly string[]).includes(k))) {
      out.push({ location: source.locate([...base, path]), message: 'empty matcher object: name at least one matcher, e.g. { equals: ... }' });
    }
    if (isRecord(value.json)) checkExpect(value.json, [...base, path, 'json'], source, out, false);
  }
}

export function applyRules(source: YamlSource): FileIssue[] {
  const out: FileIssue[] = [];
  const data = source.data;
  if (!isRecord(data) || !Array.isArray(data.scenarios)) return out;
  const seen = new Map<string, number>();
  data.scenarios.forEach((sc: unknown, i: number) => {
    if (!isRecord(sc)) return;
    if (typeof sc.name === 'string') {
      const first = seen.get(sc.name);
      if (first === undefined) seen.set(sc.name, i);
      else {
        const firstLoc = source.locate(['scenarios', first, 'name']);
        out.push({
          location: source.locate(['scenarios', i, 'name']),
          message: `duplicate scenario name "${sc.name}" (first used at line ${firstLoc.line}); names must be unique in a suite`,
        });
      }
    }
    checkExpect(sc.expect, ['scenarios', i, 'expect'], source, out, true);
  });
  return out;
}
