/**
 * `exportScenarioJsonSchema()`: the JSON Schema (draft 2020-12) of the suite file format, from
 * the zod schema (`z.toJSONSchema`), for editors (e.g. a `# yaml-language-server: $schema=` line).
 * Load-time rules that JSON Schema cannot state (regex validity, unique names, path syntax)
 * are only enforced by `parseSuite`.
 */
import { z } from 'zod';
import { userSuiteSchema } from './schema.js';

export function exportScenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(userSuiteSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'droidcheck scenario suite',
    description: 'A suite of conversation scenarios for the droid Message Endpoint API (droidcheck).',
  };
}
