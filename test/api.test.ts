/**
 * The package used as a library, the way a user's script would: every call goes through
 * src/index.ts, nothing through the CLI. One `run` job against the embedded emulator with a
 * scenario that passes and one that fails, its report read back, compared and merged; and a
 * structural check that the parameter and result types of every exported function are exported
 * too (a user cannot name what they cannot import).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, sep } from 'node:path';
import { PassThrough } from 'node:stream';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareReports,
  EXIT,
  jsonSchema,
  mergeReports,
  readReportFile,
  resolveConfig,
  run,
  validateScenarios,
  type JobSummary,
} from '../src/index.js';
import { collectReportDir } from './helpers/cli.js';

const SUITE = `
suite: API
scenarios:
  - name: greets
    modes: [sync, async]
    humanMessage: Hello there!
    expect:
      intents: { includes: greeting }
  - name: asks for a refund
    modes: [async]
    humanMessage: Hello!
    expect:
      intents: { includes: refund }
`;

let dir: string;
let summary: JobSummary;
let stdout = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-api-'));
  await writeFile(join(dir, 'api.yaml'), SUITE);
  const config = resolveConfig(
    'run',
    {
      paths: [join(dir, 'api.yaml')],
      reportDir: join(dir, 'out'),
      reporters: ['json', 'junit'],
      emulatorThread: 'inline',
    },
    {},
  );
  const out = new PassThrough();
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  summary = await run(config, { stdout: out, stderr: new PassThrough(), env: {} });
});
afterAll(async () => {
  collectReportDir(join(dir, 'out'));
  await rm(dir, { recursive: true, force: true });
});

describe('run() through the public API, against the embedded emulator', () => {
  it('resolves the verdict: one scenario failed its expectation, so exit 1', () => {
    expect(summary.exitCode).toBe(EXIT.EXPECTATION_FAILED);
    expect(summary.report.kind).toBe('run');
    expect(summary.report.summary).toMatchObject({ requests: 3, scenarios: 3, passed: 2, failed: 1 });
    expect(summary.report.summary.outcomes.answered).toBe(3);
    const byName = summary.report.scenarios
      .map((s) => `${s.name} [${s.mode}] ${s.passed ? 'passed' : 'failed'}`)
      .sort();
    expect(byName).toEqual(['asks for a refund [async] failed', 'greets [async] passed', 'greets [sync] passed']);
    const failed = summary.report.scenarios.find((s) => !s.passed)!;
    expect(failed.failures[0]!.path).toBe('intents');
    expect(failed.failures[0]!.location?.line).toBe(13); // the `intents:` line of the suite above
  });

  it('writes the reporters it was given and nothing else', async () => {
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['junit.xml', 'report.json']);
    expect(summary.files.map((f) => f.split(/[\\/]/).pop()).sort()).toEqual(['junit.xml', 'report.json']);
    // Without the console reporter the job prints only where its reports are.
    expect(stdout).toBe(`reports: ${join(dir, 'out')}${sep} (${summary.files.map((f) => basename(f)).join(', ')})\n`);
  });

  it('reads the report back, compares it with itself and merges it as a shard', async () => {
    const file = join(dir, 'out', 'report.json');
    const back = await readReportFile(file);
    expect(back.summary).toEqual(summary.report.summary);
    const same = await compareReports(file, back);
    expect(same.exitCode).toBe(0);
    expect(same.comparison.regressed).toBe(false);
    const merged = await mergeReports([file], { outDir: join(dir, 'merged'), reporters: ['json'] });
    expect(merged.exitCode).toBe(EXIT.EXPECTATION_FAILED);
    expect(merged.report.summary).toMatchObject({ requests: 3, passed: 2, failed: 1 });
    expect(merged.files.map((f) => f.split(/[\\/]/).pop())).toEqual(['report.json']);
  });

  it('validates suites and gives the schemas without the CLI', async () => {
    expect(await validateScenarios([join(dir, 'api.yaml')])).toMatchObject({ scenarios: 2, steps: 0 });
    await expect(validateScenarios([join(dir, 'out')])).rejects.toMatchObject({ code: 'DROIDCHECK_ERR_USAGE' });
    expect(jsonSchema('scenario').$schema).toMatch(/2020-12/);
    expect(Object.keys(jsonSchema('report').properties as object)).toContain('exitCode');
    // Every file droidcheck reads has its schema through the library too.
    expect(Object.keys(jsonSchema('config').properties as object)).toContain('mode');
    expect(Object.keys(jsonSchema('policy').properties as object)).toContain('catalogue');
    await expect(
      compareReports(join(dir, 'out', 'report.json'), join(dir, 'out', 'report.json'), { tolerancePct: -1 }),
    ).rejects.toMatchObject({ code: 'DROIDCHECK_ERR_USAGE' });
  });
});

/**
 * For every exported function and class: the named types of its parameters and of its result
 * (unwrapping Promise, unions and type arguments) that are declared by droidcheck must be
 * exported from src/index.ts as well. Generic type parameters are not names to export. Read
 * from the build's declarations (dist/*.d.ts, what a user's compiler reads; `npm run build`
 * first): the same names as the sources, without the function bodies to check.
 */
function unexportedSignatureTypes(): string[] {
  const root = new URL('..', import.meta.url).pathname;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const index = `${root}dist/index.d.ts`;
  const program = ts.createProgram([index], parsed.options);
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(index)!)!);
  const exported = new Set(exports.map((s) => s.name));
  const named = (type: ts.Type, out: Set<string>, depth = 0): void => {
    if (depth > 3) return;
    const sym = type.aliasSymbol ?? type.getSymbol();
    const decl = sym?.declarations?.[0];
    if (
      sym &&
      decl?.getSourceFile().fileName.startsWith(`${root}dist/`) &&
      !ts.isTypeParameterDeclaration(decl) &&
      !sym.name.startsWith('__')
    ) {
      out.add(sym.name);
      return;
    }
    if (type.isUnionOrIntersection()) for (const t of type.types) named(t, out, depth);
    for (const t of [
      ...(type.aliasTypeArguments ?? []),
      ...(type.flags & ts.TypeFlags.Object ? checker.getTypeArguments(type as ts.TypeReference) : []),
    ])
      named(t, out, depth + 1);
  };
  const missing: string[] = [];
  for (const s of exports) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!target.valueDeclaration) continue;
    const type = checker.getTypeOfSymbolAtLocation(target, target.valueDeclaration);
    const used = new Set<string>();
    for (const sig of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const p of sig.getParameters()) named(checker.getTypeOfSymbolAtLocation(p, target.valueDeclaration), used);
      named(sig.getReturnType(), used); // Promise<T> is not ours: its type argument T is visited
    }
    for (const n of used) if (!exported.has(n)) missing.push(`${s.name}: ${n}`);
  }
  return missing;
}

describe('the public API names its own types', () => {
  it('exports the parameter and result types of every exported function', () => {
    expect(unexportedSignatureTypes()).toEqual([]);
  });
});
