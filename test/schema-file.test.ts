/** The shipped droidcheck.schema.json (for the YAML language server) matches the zod schema. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportScenarioJsonSchema } from '../src/scenario/index.js';

describe('droidcheck.schema.json', () => {
  it('is what `droidcheck schema` prints today (regenerate with: npx droidcheck schema > droidcheck.schema.json)', async () => {
    const shipped = JSON.parse(await readFile(resolve(import.meta.dirname, '../droidcheck.schema.json'), 'utf8'));
    expect(shipped).toEqual(exportScenarioJsonSchema());
  });
});
