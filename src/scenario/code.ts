/**
 * Assertions written as functions (docs/tables-and-code.md): `expect: { <path>: { code: ./checks.mjs#name } }`
 * calls the function `name` exported by the module `./checks.mjs` (relative to the suite file)
 * with the value at the path and a `CodeCheckContext`; `expect: { code: ./checks.mjs#name }`
 * calls it with the whole payload (path `$`).
 *
 * - Modules: `.mjs`, `.js` (ES modules, or CommonJS under a package without "type": "module"),
 *   `.cjs`, and `.ts`/`.mts` where this Node strips TypeScript types (`process.features.typescript`:
 *   Node 22.18+ and 23.6+ by default, Node 22.6+ with `--experimental-strip-types`). Each module is imported
 *   once per process (cached by its resolved path). `loadCodeChecks` imports every module a set of
 *   suites names before anything is sent: a missing module, a name it does not export (or that is
 *   not a function), a syntax error, a `.ts` on a Node that cannot strip types, each is a
 *   `FileIssue` at the `code:` key (DROIDCHECK_ERR_SCENARIO, exit 2) naming the module's path.
 * - A check returns `true`/`false`, `{ pass, message? }`, or a promise of either. Anything else,
 *   a throw or a rejection fails that expectation with what happened (the thrown message), never
 *   the run. A check that never settles holds its request until the run is interrupted.
 */
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { FileIssue } from '../errors.js';
import { stepExpectations, type AnswerMode, type Expectation, type ExpectationFailure, type Suite } from './types.js';
import { show } from './matchers/values.js';

/** What a check is given beside the value at its path. */
export interface CodeCheckContext {
  /** The whole body the expectation reads: the answer payload (or a step's response body). */
  payload: unknown;
  /** The scenario's variables: `vars:`, a table's row (`each:`), and the captures so far. */
  vars: Readonly<Record<string, unknown>>;
  /** Which scenario: its name (a table's row: the row's name) and its suite's name. */
  scenario: { name: string; suite: string };
  /** The answer endpoint the scenario runs against: `sync` (get-droid-answer) or `async`. */
  mode: AnswerMode;
  /** 0-based index of the step judged in `steps:`; 0 for a scenario with `humanMessage`; a simulated conversation: its last customer line. */
  turn: number;
}

/** What a check returns (or resolves to): a verdict, or a verdict with the failure's message. */
export type CodeCheckResult = boolean | { pass: boolean; message?: string };

/** A check: an exported function of a module named by `code:`. */
export type CodeCheck = (value: unknown, ctx: CodeCheckContext) => CodeCheckResult | Promise<CodeCheckResult>;

/** `Expectation.expected` of `code`: the reference as written, the module's absolute path, the export. */
export interface CodeExpected {
  ref: string;
  module: string;
  export: string;
}

/** The expectation path of a check on the whole payload (`expect: { code: ... }`). */
export const WHOLE_PAYLOAD = '$';

const REF = /^(.+\.(?:mjs|cjs|js|mts|ts))#([A-Za-z_$][\w$]*)$/;
const REF_HINT =
  'code takes ./file.mjs#name: a module beside the suite (.mjs, .js, .cjs or .ts) and the name of a function it exports';

/** What a suite writes after `code:`. */
export const codeRefSchema = z.string({ error: REF_HINT }).regex(REF, REF_HINT);

/** `./checks.mjs#total` -> the module's path as written and the export's name (undefined when malformed). */
export function splitCodeRef(ref: string): { file: string; name: string } | undefined {
  const m = REF.exec(ref.trim());
  return m ? { file: m[1]!, name: m[2]! } : undefined;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

/** Why this Node cannot import `file`, or undefined when it can try. */
function cannotImport(file: string): string | undefined {
  const ext = extname(file).toLowerCase();
  if ((ext === '.ts' || ext === '.mts') && !process.features.typescript)
    return `this Node (${process.version}) does not strip TypeScript types: run droidcheck with NODE_OPTIONS=--experimental-strip-types (Node 22.6 or later), use Node 22.18 or later where it is on by default, or write the checks in a .mjs file`;
  return undefined;
}

/** The module at `file` (absolute), imported once per process. Rejects with why it cannot be loaded. */
function importOnce(file: string): Promise<Record<string, unknown>> {
  let loaded = modules.get(file);
  if (!loaded) {
    const why = cannotImport(file);
    loaded = why
      ? Promise.reject(new Error(why))
      : (import(pathToFileURL(file).href) as Promise<Record<string, unknown>>);
    loaded.catch(() => undefined);
    modules.set(file, loaded);
  }
  return loaded;
}

/** Why `file` could not be imported, in one line (its own absence: "no such file"). */
function errorText(err: unknown, file: string): string {
  if (!(err instanceof Error)) return String(err);
  const first = err.message.split('\n')[0] ?? err.message;
  if ((err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND')
    return first.includes(`'${file}' imported from`) ? 'no such file' : first.replace(/ imported from .*$/, '');
  return err.name === 'Error' ? first : `${err.name}: ${first}`;
}

/** The function `e` names, or why there is none. */
async function checkOf(x: CodeExpected): Promise<CodeCheck | string> {
  let ns: Record<string, unknown>;
  try {
    ns = await importOnce(x.module);
  } catch (err) {
    return `cannot load ${x.module} (${x.ref}): ${errorText(err, x.module)}`;
  }
  const fn = ns[x.export];
  if (typeof fn === 'function') return fn as CodeCheck;
  const names = Object.keys(ns).filter((k) => typeof ns[k] === 'function');
  return fn === undefined
    ? `${x.module} exports no "${x.export}"${names.length > 0 ? `; its functions: ${names.join(', ')}` : ''}`
    : `${x.module}: "${x.export}" is ${typeof fn}, not a function`;
}

function collect(expectations: readonly Expectation[], out: Expectation[]): void {
  for (const e of expectations) {
    if (e.matcher === 'json') collect(e.expected as Expectation[], out);
    else if (e.matcher === 'code') out.push(e);
  }
}

/**
 * Imports every module the `code:` expectations of `suites` name and checks their exports.
 * @returns one issue per `code:` whose function cannot be had, once however many rows of a table
 *   use it (empty: every check is callable).
 */
export async function loadCodeChecks(suites: readonly Suite[]): Promise<FileIssue[]> {
  const all: Expectation[] = [];
  for (const suite of suites)
    for (const s of suite.scenarios) {
      collect(s.expect, all);
      for (const step of s.steps ?? []) {
        for (const list of stepExpectations(step)) collect(list, all);
        collect(step.intentWebhook?.expect ?? [], all);
      }
    }
  const found = await Promise.all(all.map((e) => checkOf(e.expected as CodeExpected)));
  // The rows of a table (each:) share the expectation's line: its problem is said once.
  const seen = new Set<string>();
  return found.flatMap((f, i) => {
    if (typeof f !== 'string') return [];
    const issue = { location: all[i]!.location, message: `code: ${f}` };
    const key = JSON.stringify(issue);
    if (seen.has(key)) return [];
    seen.add(key);
    return [issue];
  });
}

/** The message of a check's verdict, or of what it returned instead of one. */
function verdict(result: unknown, label: string): { pass: boolean; message?: string } {
  if (typeof result === 'boolean') return { pass: result, message: `${label} returned false` };
  if (result !== null && typeof result === 'object' && typeof (result as { pass?: unknown }).pass === 'boolean') {
    const { pass, message } = result as { pass: boolean; message?: unknown };
    return {
      pass,
      message: typeof message === 'string' && message !== '' ? `${label}: ${message}` : `${label} returned false`,
    };
  }
  return {
    pass: false,
    message: `${label} returned ${show(result, 80)}: a check returns true/false or { pass, message }`,
  };
}

/**
 * Runs the check of `e` on `actual` (never rejects).
 * @returns the failure (message `<path>: <ref>: <its message>`), or undefined when it passed.
 */
export async function runCodeCheck(
  e: Expectation,
  actual: unknown,
  ctx: CodeCheckContext,
  prefix = '',
): Promise<ExpectationFailure | undefined> {
  const x = e.expected as CodeExpected;
  const path = `${prefix}${e.path}`;
  const fail = (message: string): ExpectationFailure => ({
    path,
    matcher: 'code',
    expected: x.ref,
    actual,
    message: `${path}: ${message}`,
    location: e.location,
  });
  const fn = await checkOf(x);
  if (typeof fn === 'string') return fail(fn);
  try {
    const v = verdict(await fn(actual, ctx), x.ref);
    return v.pass ? undefined : fail(v.message ?? `${x.ref} returned false`);
  } catch (err) {
    return fail(`${x.ref} threw ${err instanceof Error ? `${err.name}: ${err.message}` : show(err, 200)}`);
  }
}
