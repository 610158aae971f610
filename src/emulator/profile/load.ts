/**
 * Loads an emulator profile from YAML, mapping zod issues to file:line:col
 * (throws ScenarioError, DROIDCHECK_ERR_SCENARIO).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { ScenarioError, type FileIssue } from '../../errors.js';
import { emulatorProfileSchema, type EmulatorProfile } from './schema.js';

/** scenarios/emulator-profile.yaml at the package root (works from src/ and dist/). */
export const DEFAULT_PROFILE_PATH = fileURLToPath(new URL('../../../scenarios/emulator-profile.yaml', import.meta.url));

/** Parses and validates profile YAML text; `file` is used in error locations. */
export function parseProfile(text: string, file: string): EmulatorProfile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, col: pos.col };
  };
  if (doc.errors.length > 0) {
    throw new ScenarioError(doc.errors.map((e) => ({ location: at(e.pos[0]), message: e.message })));
  }
  const parsed = emulatorProfileSchema.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  const issues: FileIssue[] = parsed.error.issues.map((issue) => {
    // Walk up the path until a node exists (a missing key points at its parent).
    let node: unknown;
    for (let n = issue.path.length; n >= 0 && !isNode(node); n--) node = doc.getIn(issue.path.slice(0, n), true);
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    return { location: at(offset), message: `${issue.path.join('.') || '(profile)'}: ${issue.message}` };
  });
  throw new ScenarioError(issues);
}

/** Reads a profile file (default: scenarios/emulator-profile.yaml). */
export function loadProfile(path: string = DEFAULT_PROFILE_PATH): EmulatorProfile {
  return parseProfile(readFileSync(path, 'utf8'), path);
}

/** Validates a profile object (e.g. built in a test). */
export function resolveProfile(profile: unknown): EmulatorProfile {
  const parsed = emulatorProfileSchema.safeParse(profile);
  if (parsed.success) return parsed.data;
  throw new ScenarioError(
    parsed.error.issues.map((i) => ({ location: { file: '<profile>', line: 1, col: 1 }, message: `${i.path.join('.')}: ${i.message}` })),
  );
}
