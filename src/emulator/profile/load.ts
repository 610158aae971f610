/**
 * Loads the emulator's YAML files, the profile (droid, customers, catalogue, intents) and the
 * fault profile (faults/profile.ts), mapping every problem to file:line:col (throws ScenarioError,
 * DROIDCHECK_ERR_SCENARIO, exit 2), like scenario and config files: a user's
 * mistake in any YAML file droidcheck reads is reported the same way.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMap, isNode, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { ScenarioError, type FileIssue } from '../../errors.js';
import { didYouMean } from '../../suggest.js';
import { emulatorProfileSchema, type EmulatorProfile } from './schema.js';

/** scenarios/emulator-profile.yaml at the package root (works from src/ and dist/). */
export const DEFAULT_PROFILE_PATH = fileURLToPath(new URL('../../../scenarios/emulator-profile.yaml', import.meta.url));

/**
 * The object schema at `path` inside `schema` (through optional, default, array), if any. At a
 * union (a fault rule is one object per action), the option the user's map was meant for: the one
 * whose literal keys (`action: error`) it matches, then the one naming most of its keys.
 */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[], value: unknown): z.ZodObject | undefined {
  const unwrap = (s: z.ZodType | undefined): z.ZodType | undefined => {
    let t = s;
    while (t instanceof z.ZodOptional || t instanceof z.ZodDefault || t instanceof z.ZodNullable)
      t = t.unwrap() as z.ZodType;
    return t;
  };
  let s = unwrap(schema);
  for (const seg of path) {
    if (s instanceof z.ZodArray) s = unwrap(s.element as z.ZodType);
    else if (s instanceof z.ZodObject && typeof seg === 'string') s = unwrap(s.shape[seg] as z.ZodType | undefined);
    else return undefined;
  }
  if (s instanceof z.ZodUnion && value !== null && typeof value === 'object') {
    const map = value as Record<string, unknown>;
    const score = (o: z.ZodObject): number =>
      Object.entries(o.shape).reduce((n, [key, field]) => {
        const t = unwrap(field as z.ZodType);
        if (t instanceof z.ZodLiteral && key in map) return n + (t.values.has(map[key] as never) ? 1000 : -1000);
        return n + (key in map ? 1 : 0);
      }, 0);
    const options = (s.options as z.ZodType[]).map(unwrap).filter((o): o is z.ZodObject => o instanceof z.ZodObject);
    s = options.reduce<z.ZodObject | undefined>(
      (best, o) => (best === undefined || score(o) > score(best) ? o : best),
      undefined,
    );
  }
  return s instanceof z.ZodObject ? s : undefined;
}

/**
 * Parses YAML `text` of `file` and validates it with `schema`. Every YAML syntax error and every
 * schema issue becomes a `FileIssue` at the node it concerns (an unknown key: at the key, with a
 * did-you-mean; a missing key: at its parent). Throws ScenarioError listing all of them.
 */
export function parseYamlFile<T>(text: string, file: string, schema: z.ZodType<T>): T {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, col: pos.col };
  };
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      doc.errors.map((e) => ({ location: at(e.pos[0]), message: `YAML syntax error: ${e.message.split('\n')[0]}` })),
    );
  }
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return parsed.data;
  const issues: FileIssue[] = [];
  for (const issue of parsed.error.issues) {
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    // Walk up the path until a node exists (a missing key points at its parent).
    let node: unknown;
    for (let n = issue.path.length; n >= 0 && !isNode(node); n--) node = doc.getIn(issue.path.slice(0, n), true);
    if (issue.code === 'unrecognized_keys' && isMap(node)) {
      const known = Object.keys(objectAt(schema, issue.path, node.toJSON())?.shape ?? {});
      for (const key of issue.keys) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
        const offset = pair && isNode(pair.key) && pair.key.range ? pair.key.range[0] : (node.range?.[0] ?? 0);
        const guess = didYouMean(key, known);
        const hint = guess ? ` — did you mean "${guess}"?` : known.length > 0 ? ` (known: ${known.join(', ')})` : '';
        issues.push({ location: at(offset), message: `${where}unknown key "${key}"${hint}` });
      }
      continue;
    }
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    issues.push({
      location: at(offset),
      message: missing
        ? `${where}missing; add it (${issue.message.replace(/^Invalid input: /, '')})`
        : `${where}${issue.message}`,
    });
  }
  throw new ScenarioError(issues);
}

/** Parses and validates profile YAML text; `file` is used in error locations. */
export function parseProfile(text: string, file: string): EmulatorProfile {
  return parseYamlFile(text, file, emulatorProfileSchema);
}

/** Reads a profile file (default: scenarios/emulator-profile.yaml). */
export function loadProfile(path: string = DEFAULT_PROFILE_PATH): EmulatorProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory; give the profile YAML file'
          : `cannot read (${code})`;
    throw new ScenarioError([{ location: { file: path, line: 1, col: 1 }, message: `emulator profile: ${why}` }]);
  }
  return parseProfile(text, path);
}

/** Validates a profile object (e.g. built in a test). */
export function resolveProfile(profile: unknown): EmulatorProfile {
  const parsed = emulatorProfileSchema.safeParse(profile);
  if (parsed.success) return parsed.data;
  throw new ScenarioError(
    parsed.error.issues.map((i) => ({
      location: { file: '<profile>', line: 1, col: 1 },
      message: `${i.path.join('.')}: ${i.message}`,
    })),
  );
}
