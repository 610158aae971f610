/**
 * `jsonSchema(kind)`: the library call behind `droidcheck schema`. JSON Schemas (draft 2020-12)
 * generated from the zod schemas that validate the files, so editors and other tools check the
 * same rules droidcheck does: of a scenario suite (shipped as droidcheck.schema.json, for the
 * YAML language server), of report.json (shipped as report.schema.json) or of the shop policy
 * file (shipped as droidcheck.policy.schema.json; docs/policy.md).
 */
import { policyJsonSchema } from '../policy/index.js';
import { reportJsonSchema } from '../report/index.js';
import { exportScenarioJsonSchema } from '../scenario/index.js';

export type SchemaKind = 'scenario' | 'report' | 'policy';

/** The JSON Schema of `kind` (default `scenario`), a plain JSON object. */
export function jsonSchema(kind: SchemaKind = 'scenario'): Record<string, unknown> {
  if (kind === 'policy') return policyJsonSchema();
  return (kind === 'report' ? reportJsonSchema() : exportScenarioJsonSchema()) as Record<string, unknown>;
}
