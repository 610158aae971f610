/**
 * Normalising the parts a scenario and its steps share: `expect` maps -> `Expectation[]`
 * (file order; a scalar or list is `equals`; `json` nests `Expectation[]`) and latency text -> ms.
 */
import { dirname, resolve } from 'node:path';
import { type CodeExpected, splitCodeRef, WHOLE_PAYLOAD } from './code.js';
import { GRADED_MATCHERS } from './matchers/graded.js';
import { MATCHERS } from './matchers/registry.js';
import { LATENCY_PATTERN } from './schema.js';
import type { Expectation, SourceLocation } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `"< 2.5s"` -> 2500 (ms); undefined when the text is not a latency. */
function parseLatency(text: string): number | undefined {
  const m = LATENCY_PATTERN.exec(text);
  if (!m || m[2] === undefined || m[3] === undefined) return undefined;
  return Number(m[2]) * (UNIT_MS[m[3]] ?? 1);
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `./checks.mjs#name` of the suite `file` -> the module's absolute path and the export. */
function codeExpected(ref: string, file: string): CodeExpected {
  const { file: module, name } = splitCodeRef(ref) ?? { file: ref, name: '' };
  return { ref: ref.trim(), module: resolve(dirname(file), module), export: name };
}

/**
 * Expectations of one `expect` map (or a `json` map inside one), in file order. A `code: ref`
 * entry (a string) checks the whole payload: path `$` (code.ts).
 */
export function expectations(expect: Record<string, unknown>, base: DataPath, source: YamlSource): Expectation[] {
  const out: Expectation[] = [];
  for (const [path, value] of Object.entries(expect)) {
    if (path === 'code' && typeof value === 'string') {
      const location = source.locate([...base, path], 'key');
      out.push({ path: WHOLE_PAYLOAD, matcher: 'code', expected: codeExpected(value, source.file), location });
      continue;
    }
    if (!isRecord(value)) {
      out.push({ path, matcher: 'equals', expected: value, location: source.locate([...base, path], 'key') });
      continue;
    }
    const ignoreCase = value.ignoreCase === true;
    for (const [name, raw] of Object.entries(value)) {
      if (name === 'ignoreCase') continue;
      const location = source.locate([...base, path, name], 'key');
      if (name === 'json') {
        out.push({
          path,
          matcher: 'json',
          expected: expectations(raw as Record<string, unknown>, [...base, path, 'json'], source),
          location,
        });
        continue;
      }
      if (name === 'code') {
        out.push({ path, matcher: name, expected: codeExpected(String(raw), source.file), location });
        continue;
      }
      const def = MATCHERS.get(name) ?? GRADED_MATCHERS.get(name);
      const n = def?.normalise ? def.normalise(raw) : { expected: raw };
      const options = ignoreCase ? { ...n.options, ignoreCase: true } : n.options;
      out.push(
        options
          ? { path, matcher: name, expected: n.expected, location, options }
          : { path, matcher: name, expected: n.expected, location },
      );
    }
  }
  return out;
}

/** `latency: "< 100ms"` at `at` -> `{ max: 100, location }` (ms), or undefined when absent. */
export function latencyLimit(
  text: string | undefined,
  at: DataPath,
  source: YamlSource,
): { max: number; location: SourceLocation } | undefined {
  const max = text === undefined ? undefined : parseLatency(text);
  return max === undefined ? undefined : { max, location: source.locate([...at, 'latency'], 'key') };
}

/** The raw (file-ordered) map at `path` of the document, when it is one. */
export function rawMapAt(source: YamlSource, path: DataPath): Record<string, unknown> | undefined {
  let cur: unknown = source.data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return isRecord(cur) ? cur : undefined;
}
