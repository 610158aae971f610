import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  ApiError,
  ConfigError,
  ConfigFileError,
  ContractError,
  DroidcheckError,
  ERROR_CODES,
  EXIT,
  InternalError,
  BudgetError,
  JudgeError,
  PolicyError,
  ScenarioError,
  SetupError,
  ThresholdError,
  TimeoutError,
  TransportError,
  UsageError,
} from '../src/errors.js';
import * as errors from '../src/errors.js';

/** Every error class errors.ts exports, found by walking the module: a new class cannot be left out. */
const ERROR_CLASSES = (Object.values(errors) as unknown[]).filter(
  (v): v is { readonly code: string } => typeof v === 'function' && v.prototype instanceof DroidcheckError,
);

const ROOT = new URL('..', import.meta.url).pathname;
const CODE = /DROIDCHECK_ERR_[A-Z_]+/g;

/** Every `DROIDCHECK_ERR_*` literal in src/ (comments included: a documented code is a promise too), with where. */
async function codesInSrc(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const files = (await readdir(join(ROOT, 'src'), { recursive: true })).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = await readFile(join(ROOT, 'src', file), 'utf8');
    // The table itself is not a use of its codes.
    const uses = file === 'errors.ts' ? text.replace(/export const ERROR_CODES = \{[\s\S]*?\} as const;/, '') : text;
    for (const m of uses.matchAll(CODE)) found.set(m[0], [...(found.get(m[0]) ?? []), `src/${file}`]);
  }
  return found;
}

/** docs/errors.md's table: code -> exit code column. */
async function documentedCodes(): Promise<Map<string, number>> {
  const text = await readFile(join(ROOT, 'docs', 'errors.md'), 'utf8');
  const rows = new Map<string, number>();
  for (const m of text.matchAll(/^\| `(DROIDCHECK_ERR_[A-Z_]+)` \|[^|]*\| (\d+) \|/gm)) {
    expect(rows.has(m[1]!), `${m[1]} documented twice`).toBe(false);
    rows.set(m[1]!, Number(m[2]));
  }
  return rows;
}

describe('errors table', () => {
  it('gives every class a distinct, stable DROIDCHECK_ERR_* code', () => {
    const codes = ERROR_CLASSES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^DROIDCHECK_ERR_[A-Z_]+$/);
  });

  it('instances carry their class code and an exit code from the table', () => {
    const samples: DroidcheckError[] = [
      new ScenarioError([{ location: { file: 'a.yaml', line: 3, col: 5 }, message: 'bad' }]),
      new ApiError({
        status: 401,
        error: 'Unauthorized',
        message: 'Invalid API key',
        endpoint: 'get-droid-answer-async',
      }),
      new TransportError('reset', 'ECONNRESET'),
      new ContractError('get-droid-answer', [{ path: 'answer', message: 'expected string' }]),
    ];
    const exits = new Set<number>(Object.values(EXIT));
    for (const e of samples) {
      expect(e.code).toBe((e.constructor as unknown as { code: string }).code);
      expect(exits.has(e.exitCode)).toBe(true);
    }
  });

  it('formats scenario errors as file:line:col', () => {
    const e = new ScenarioError([{ location: { file: 'x.yaml', line: 12, col: 7 }, message: 'unknown key' }]);
    expect(e.message).toBe('x.yaml:12:7: unknown key');
    expect(e.exitCode).toBe(EXIT.USAGE);
  });

  it('keeps status, error and message on ApiError', () => {
    const e = new ApiError({
      status: 400,
      error: 'Bad Request',
      message: 'Invalid humanMessage format',
      endpoint: 'x',
    });
    expect([e.status, e.error, e.apiMessage]).toEqual([400, 'Bad Request', 'Invalid humanMessage format']);
    expect(e.message).toContain('HTTP 400 Bad Request: Invalid humanMessage format');
  });
});

describe('every error code in one table, documented once', () => {
  it('defines and documents every code src/ uses', async () => {
    const used = await codesInSrc();
    const documented = await documentedCodes();
    for (const [code, where] of used) {
      expect(Object.keys(ERROR_CODES), `${code} (${where[0]}) is missing from ERROR_CODES in src/errors.ts`).toContain(
        code,
      );
      expect([...documented.keys()], `${code} (${where[0]}) has no row in docs/errors.md`).toContain(code);
    }
  });

  it('documents no code that is no longer used, and exactly the codes of the table', async () => {
    const used = await codesInSrc();
    const documented = await documentedCodes();
    for (const code of documented.keys())
      expect(used.has(code), `${code} is documented in docs/errors.md but src/ no longer uses it`).toBe(true);
    expect([...documented.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('gives each thrown class the exit code its row and its meaning say', async () => {
    const documented = await documentedCodes();
    const samples: DroidcheckError[] = [
      new UsageError('x'),
      new ScenarioError([]),
      new ConfigFileError([]),
      new PolicyError([]),
      new ConfigError('x'),
      new ThresholdError('x'),
      new SetupError('x'),
      new ApiError({ status: 500, endpoint: 'x' }),
      new TransportError('x'),
      new TimeoutError('x'),
      new ContractError('x', []),
      new JudgeError('x'),
      new BudgetError('x'),
      new AbortedError(),
      new InternalError('x'),
    ];
    expect(samples.map((e) => e.code).sort()).toEqual(ERROR_CLASSES.map((c) => c.code).sort());
    for (const e of samples) expect(documented.get(e.code), e.code).toBe(e.exitCode);
    for (const [code, exit] of documented)
      expect(ERROR_CODES[code as keyof typeof ERROR_CODES], code).toContain(`exit ${exit})`);
  });
});
