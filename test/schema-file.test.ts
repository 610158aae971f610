/** The shipped JSON Schemas match the zod schemas they are generated from. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyJsonSchema } from '../src/policy/index.js';
import { reportJsonSchema } from '../src/report/index.js';
import { exportScenarioJsonSchema } from '../src/scenario/index.js';

const shipped = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(resolve(import.meta.dirname, '..', name), 'utf8'));

describe('shipped JSON Schemas', () => {
  it('droidcheck.schema.json is what `droidcheck schema` prints today (regenerate: npx droidcheck schema > droidcheck.schema.json)', async () => {
    expect(await shipped('droidcheck.schema.json')).toEqual(exportScenarioJsonSchema());
  });

  it('report.schema.json is what `droidcheck schema --report` prints today (regenerate: npx droidcheck schema --report > report.schema.json)', async () => {
    expect(await shipped('report.schema.json')).toEqual(reportJsonSchema());
  });

  it('droidcheck.policy.schema.json is what `droidcheck schema --policy` prints today (regenerate: npx droidcheck schema --policy > droidcheck.policy.schema.json)', async () => {
    expect(await shipped('droidcheck.policy.schema.json')).toEqual(policyJsonSchema());
  });
});
