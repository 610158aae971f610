/**
 * `configJsonSchema()`: the JSON Schema (draft 2020-12) of the config file, droidcheck.config.yaml,
 * generated from the zod schema that file.ts derives from the table of options (options.ts), so
 * an editor checks the keys droidcheck knows where they belong (a misspelt or misplaced key is
 * refused: every object is closed) and shows each option's help. Shipped as
 * droidcheck.config.schema.json and written by `droidcheck init` beside the config file, whose
 * first line names it for the YAML language server. A value is refused as its option's parser
 * refuses it (options.ts ValueSchema: a duration's unit, a choice, a number's bounds); what JSON
 * Schema cannot state (a URL, a threshold's grammar) is checked by the parser when droidcheck
 * reads the file, at file:line:col.
 */
import { z } from 'zod';
import { DEFAULT_CONFIG_FILE, userConfigSchema } from './file.js';

/** The JSON Schema of droidcheck.config.yaml, a plain JSON object. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(userConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'droidcheck config file',
    description: `${DEFAULT_CONFIG_FILE}: default options of droidcheck's commands (flags > environment > .env > this file > defaults; docs/options.md).`,
  };
}
