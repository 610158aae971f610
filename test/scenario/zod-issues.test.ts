/**
 * issuesFromZod finds the keys a did-you-mean suggests through every schema wrapper it unwraps
 * (optional, nullable, default, readonly, lazy, the input of a pipe) and container it walks
 * (object, array, record, union, discriminated union), at file:line:col.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readYaml } from '../../src/scenario/yaml-source.js';
import { issuesFromZod } from '../../src/scenario/zod-issues.js';

const item = z.strictObject({ humanMessage: z.string() });

/** The messages of `text` (YAML) checked against `schema`, each as `line:col message`. */
function issues(schema: z.ZodType, text: string): string[] {
  const { source } = readYaml(text, 'f.yaml');
  if (!source) throw new Error('expected valid YAML');
  const parsed = schema.safeParse(source.data);
  if (parsed.success) throw new Error('expected zod issues');
  return issuesFromZod(parsed.error.issues, source, schema).map(
    (i) => `${i.location.line}:${i.location.col} ${i.message}`,
  );
}

const TYPO = 'unknown key "humanMesage" — did you mean "humanMessage"?';

describe('issuesFromZod: did-you-mean through wrappers and containers', () => {
  it.each([
    ['optional', item.optional()],
    ['nullable', item.nullable()],
    ['default', item.default({ humanMessage: 'x' })],
    ['readonly', item.readonly()],
    ['lazy', z.lazy(() => item)],
    ['pipe (its input)', item.transform((x) => x)],
  ])('%s', (_name, inner) => {
    expect(issues(z.strictObject({ turn: inner }), 'turn:\n  humanMesage: hi\n')).toEqual([`2:3 ${TYPO}`]);
  });

  it('array, record and nested wrappers', () => {
    const schema = z.strictObject({ turns: z.array(z.lazy(() => item.optional())), named: z.record(z.string(), item) });
    expect(issues(schema, 'turns:\n  - humanMesage: hi\nnamed:\n  a:\n    humanMesage: hi\n')).toEqual([
      `2:5 ${TYPO}`,
      `5:5 ${TYPO}`,
    ]);
  });

  it('a discriminated union: the option the map names most keys of', () => {
    const schema = z.strictObject({
      step: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('say'), humanMessage: z.string() }),
        z.strictObject({ kind: z.literal('call'), endpoint: z.string(), body: z.string().optional() }),
      ]),
    });
    expect(issues(schema, 'step:\n  kind: call\n  endpoint: x\n  bdy: y\n')).toEqual([
      '4:3 unknown key "bdy" — did you mean "body"?',
    ]);
  });
});
