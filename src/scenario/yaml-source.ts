/**
 * Stage 1-2 of loading: YAML text -> `Document` + plain data, and the map back from a data path
 * (`['scenarios', 0, 'expect', 'answer']`) to file:line:col via the `yaml` node ranges.
 *
 * Hostile input is refused here with a `FileIssue` (never a crash):
 * - text larger than `MAX_SUITE_BYTES` (5 MiB);
 * - alias bombs ("billion laughs"): more than `MAX_ALIAS_COUNT` alias expansions;
 * - nesting deeper than `MAX_DEPTH` levels.
 *
 * Everything here is linear in the size of the document: duplicate keys are found with one Set per
 * map (the `yaml` package's own `uniqueKeys` check scans the map's earlier keys for every key), and
 * `locate` looks a key up through a key -> pair index built once per map.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import type { FileIssue, SourceLocation } from '../errors.js';

export const MAX_SUITE_BYTES = 5 * 1024 * 1024;
const MAX_ALIAS_COUNT = 100;
const MAX_DEPTH = 64;

export type DataPath = readonly (string | number)[];

export interface YamlSource {
  file: string;
  doc: Document;
  /** The document as plain JS data (undefined when the document is empty or broken). */
  data: unknown;
  /** Location of the value at `path`, or of its key with `want: 'key'`; nearest existing parent otherwise. */
  locate(path: DataPath, want?: 'value' | 'key'): SourceLocation;
  /**
   * Where a problem of the value at `path` is reported: `locate`'s, but for a value a scenario
   * table's row filled in (each.ts), the row's own line. Absent: `locate`.
   */
  locateProblem?(path: DataPath, want?: 'value' | 'key'): SourceLocation;
  /**
   * Set when the scenario tables were expanded (each.ts): the scenario of the file and the row
   * that scenario `index` of `data` comes from; undefined for a scenario written out.
   */
  rowOrigin?(index: number): { scenario: number; row: { number: number; location: SourceLocation } } | undefined;
}

export interface ParsedYaml {
  source: YamlSource | undefined;
  issues: FileIssue[];
}

function depthOf(root: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

const DUPLICATE_KEY = 'Map keys must be unique';

/**
 * Offsets of the keys that repeat an earlier key of the same map, as `yaml`'s `uniqueKeys: true`
 * would report them (scalar keys equal by value, other keys only by identity), in O(nodes).
 * Iterative, so a deeply nested (but parseable) document cannot overflow the stack here.
 */
function duplicateKeyOffsets(root: unknown): number[] {
  const out: number[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key) && !Number.isNaN(key.value)) {
          if (seen.has(key.value)) out.push((key.range ?? [0])[0]);
          else seen.add(key.value);
        }
        stack.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(isPair(item) ? item.key : item, isPair(item) ? item.value : undefined);
    }
  }
  return out;
}

/** `String(key)` as `locate` compares map keys with data path segments. */
const keyText = (key: unknown): string => (isScalar(key) ? String(key.value) : String(key));

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}

/**
 * `locate` of a parsed document: the location of the node at a data path (its key with
 * `want: 'key'`), or of the deepest node found on the way; 1:1 when there is none.
 */
function locator(
  doc: Document,
  loc: (offset: number) => SourceLocation,
  at: (line: number, col: number) => SourceLocation,
): (path: DataPath, want?: 'value' | 'key') => SourceLocation {
  // key text -> first pair with that key, built on the first lookup in each map.
  const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairOf = (map: YAMLMap, seg: unknown): Pair | undefined => {
    let index = pairIndex.get(map);
    if (!index) {
      index = new Map();
      for (const p of map.items) {
        const k = keyText(p.key);
        if (!index.has(k)) index.set(k, p);
      }
      pairIndex.set(map, index);
    }
    return index.get(String(seg));
  };
  return (path: DataPath, want: 'value' | 'key' = 'value'): SourceLocation => {
    let node: unknown = doc.contents;
    let last: Node | null = (doc.contents as Node | null) ?? null;
    for (let i = 0; i < path.length; i++) {
      // Inside an aliased node the problem belongs to where the alias is used: stop at the alias.
      if (isAlias(node)) break;
      const seg = path[i];
      let next: unknown;
      let keyNode: unknown;
      if (isMap(node)) {
        const pair = pairOf(node as YAMLMap, seg);
        if (!pair) break;
        keyNode = pair.key;
        next = pair.value ?? pair.key;
      } else if (isSeq(node) && typeof seg === 'number') {
        next = node.items[seg];
      } else {
        break;
      }
      if (next === undefined || next === null) break;
      if (i === path.length - 1 && want === 'key' && keyNode) next = keyNode;
      node = next;
      last = next as Node;
    }
    const range = (last as { range?: [number, number, number] } | null)?.range;
    return range ? loc(range[0]) : at(1, 1);
  };
}

/** The parser's errors and the duplicate keys, as issues. */
function syntaxIssues(
  errors: readonly { pos: [number, number]; message: string }[],
  duplicates: readonly number[],
  loc: (offset: number) => SourceLocation,
): FileIssue[] {
  const issues = errors.map((e) => ({
    location: loc(e.pos[0]),
    message: /call stack/i.test(e.message)
      ? `nesting is too deep (more than ${MAX_DEPTH} levels)`
      : `YAML syntax error: ${firstLine(e.message)}`,
  }));
  for (const offset of duplicates)
    issues.push({ location: loc(offset), message: `YAML syntax error: ${DUPLICATE_KEY}` });
  return issues;
}

/** Parses `text` as one YAML document. Issues carry file:line:col; `source` is set when parsing worked. */
export function readYaml(text: string, file: string): ParsedYaml {
  const at = (line: number, col: number): SourceLocation => ({ file, line, col });
  if (Buffer.byteLength(text, 'utf8') > MAX_SUITE_BYTES) {
    return {
      source: undefined,
      issues: [
        {
          location: at(1, 1),
          message: `file is larger than ${MAX_SUITE_BYTES / 1024 / 1024} MiB; split it into several suites`,
        },
      ],
    };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: false,
    strict: true,
    logLevel: 'error',
  });
  const loc = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return at(line, col);
  };
  const duplicates = doc.errors.some((e) => /call stack/i.test(e.message)) ? [] : duplicateKeyOffsets(doc.contents);
  if (doc.errors.length > 0 || duplicates.length > 0)
    return { source: undefined, issues: syntaxIssues(doc.errors, duplicates, loc) };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const why =
      err instanceof ReferenceError && /alias/i.test(err.message)
        ? `too many alias expansions (more than ${MAX_ALIAS_COUNT}); the file looks like an alias bomb`
        : `cannot read the YAML document: ${err instanceof Error ? firstLine(err.message) : String(err)}`;
    return { source: undefined, issues: [{ location: at(1, 1), message: why }] };
  }
  if (depthOf(data) > MAX_DEPTH) {
    return {
      source: undefined,
      issues: [{ location: at(1, 1), message: `nesting is deeper than ${MAX_DEPTH} levels` }],
    };
  }

  const locate = locator(doc, loc, at);
  return { source: { file, doc, data, locate }, issues: [] };
}

/** Where a problem of the value at `path` is reported (YamlSource.locateProblem, else locate). */
export function problemAt(source: YamlSource, path: DataPath, want?: 'value' | 'key'): SourceLocation {
  return source.locateProblem ? source.locateProblem(path, want) : source.locate(path, want);
}
