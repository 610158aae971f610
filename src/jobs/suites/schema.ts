/**
 * `jsonSchema(kind)`: the library call behind `droidcheck schema`. JSON Schemas (draft 2020-12)
 * generated from the zod schemas that validate the files, so editors and other tools check the
 * same rules droidcheck does: of a scenario suite (shipped as droidcheck.schema.json, for the
 * YAML language server), of report.json (shipped as report.schema.json), of the config file
 * (droidcheck.config.schema.json, from the table of options) or of the shop policy file
 * (droidcheck.policy.schema.json; docs/policy.md).
 */
import { configJsonSchema } from '../../config/index.js';
import { policyJsonSchema } from '../../policy/index.js';
import { reportJsonSchema } from '../../report/index.js';
import { exportScenarioJsonSchema } from '../../scenario/index.js';

/** Each file droidcheck reads or writes, and its schema's generator. */
const SCHEMAS = {
  scenario: exportScenarioJsonSchema,
  report: reportJsonSchema,
  config: configJsonSchema,
  policy: policyJsonSchema,
} as const;

export type SchemaKind = keyof typeof SCHEMAS;

/** The JSON Schema of `kind` (default `scenario`), a plain JSON object. */
export function jsonSchema(kind: SchemaKind = 'scenario'): Record<string, unknown> {
  return SCHEMAS[kind]() as Record<string, unknown>;
}
