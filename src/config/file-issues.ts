/**
 * The problems of a config file that its zod schema (file.ts) cannot word well, each at its
 * file:line:col:
 *
 * - keys: a token or secret written into the file; a key of another command's section (it says
 *   where the key belongs); a misspelt key, with a did-you-mean over every key of the file, so
 *   `concurency` at the top level suggests `concurrency` under `run:` or `load:`;
 * - values: each through its option's own parser (options.ts), so a file value says what the flag
 *   would, and a top-level value through the parser of every command that reads it.
 *
 * parseConfigFile (file.ts) reports them with the schema's type problems, all in one
 * ConfigFileError (DROIDCHECK_ERR_CONFIG_FILE, exit 2).
 */
import { z } from 'zod';
import { type FileIssue, isDroidcheckError } from '../errors.js';
import type { YamlSource } from '../scenario/yaml-source.js';
import { didYouMean } from '../suggest.js';
import {
  isSharedKey,
  JOB_COMMANDS,
  OPTIONS,
  specFor,
  type OptionCommand,
  type OptionKey,
  type OptionSpec,
  type ValueSchema,
} from './options.js';

/** The sections of the file: one per job command, and `redteam:` (its attacks, and overrides of the top-level keys). */
const SECTIONS = [...JOB_COMMANDS, 'redteam'] as const;
export type Section = (typeof SECTIONS)[number];
/** True for the name of a section of the file (`run`, `load`, `capacity`, `redteam`). */
export const isSection = (key: string): key is Section => (SECTIONS as readonly string[]).includes(key);
/** The LLM grader's section; its schema and its use are llm/config.ts's. */
const JUDGE = 'judge';

/**
 * Keys that would hold a token or a secret, refused in any map of the file whatever their value:
 * a file is committed, the environment is not (the last ones are those llm/config.ts refuses in
 * `judge:`).
 */
const SECRET_KEYS = new Set([
  'token',
  'apiToken',
  'secret',
  'webhookSecret',
  'verifyToken',
  'DROID_API_TOKEN',
  'DROID_WEBHOOK_SECRET',
  'DROID_VERIFY_TOKEN',
  'OPENAI_API_KEY',
  'apiKey',
  'api_key',
  'key',
]);

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const optionOf = (key: string): OptionSpec | undefined =>
  Object.hasOwn(OPTIONS, key) ? (OPTIONS[key as OptionKey] as OptionSpec) : undefined;

/** The option keys a section (or the top level, `undefined`) may hold. */
export const fileKeys = (section?: Section): OptionKey[] =>
  (Object.keys(OPTIONS) as OptionKey[]).filter((k) => {
    const o = OPTIONS[k] as OptionSpec;
    return o.file !== false && (section === undefined ? isSharedKey(k) : o.commands.includes(section));
  });

/** Every option key of the file, wherever it belongs. */
const ALL_FILE_KEYS = (Object.keys(OPTIONS) as OptionKey[]).filter((k) => (OPTIONS[k] as OptionSpec).file !== false);

/** The YAML shape of an option (its parser checks the value itself), with its help and default for the JSON Schema. */
export function optionShape(key: OptionKey, section: Section | undefined): z.ZodType {
  const spec = specFor(key, section ?? 'run');
  const shape =
    spec.kind === 'list'
      ? z.array(z.union([z.string(), z.number()]).transform(String))
      : spec.kind === 'value'
        ? z.union([z.string(), z.number()])
        : z.boolean();
  // What the parser takes, for the JSON Schema only (options.ts ValueSchema): zod reads any
  // scalar, so that the parser, not the schema, words a mistake in the file (valueIssues).
  // A top-level key is read by every command that takes it: the schema takes what all their parsers take.
  const jsons = [
    ...new Set(
      readers(OPTIONS[key] as OptionSpec, section).map((c) => (specFor(key, c).parse as { json?: ValueSchema }).json),
    ),
  ];
  const json: Record<string, unknown> | undefined =
    jsons.length === 1 ? jsons[0] : jsons.every((j) => j !== undefined) ? { allOf: jsons } : undefined;
  const values = json && (spec.kind === 'list' ? { items: json } : json);
  // The default as metadata only (the JSON Schema's `default`, for editors), not zod's .default():
  // a key the file leaves out must stay out, or it would outrank the environment (values.ts).
  return shape.optional().meta({
    description: spec.help,
    ...(spec.default !== undefined && { default: spec.default }),
    ...values,
  });
}

/** The sections a key belongs under: `\`run:\` or \`load:\``. */
const sectionsOf = (o: OptionSpec): string =>
  SECTIONS.filter((c) => o.commands.includes(c))
    .map((c) => `\`${c}:\``)
    .join(' or ');

/** Why option `key` may not stand in `section` (the top level when undefined); undefined when it may. */
function misplaced(key: string, section: Section | undefined): string | undefined {
  const o = optionOf(key);
  if (!o) return undefined;
  const jobs = SECTIONS.filter((c) => o.commands.includes(c));
  if (o.file === false)
    return `"${key}" is not a config-file key: ${o.flag ? `give ${o.flag} on the command line` : 'set it through the library API'}`;
  if (section === undefined && !isSharedKey(key as OptionKey))
    return `"${key}" is an option of ${jobs.map((c) => `droidcheck ${c}`).join(' and ')}, not of every command: put it under ${sectionsOf(o)}`;
  if (section !== undefined && !o.commands.includes(section)) {
    // The same flag is another key in this section (`--strategy`: capacity's `strategy`, redteam's `attackStrategy`).
    const here = fileKeys(section).find((k) => o.flag !== undefined && (OPTIONS[k] as OptionSpec).flag === o.flag);
    if (here)
      return `"${key}" is not an option of droidcheck ${section}: its ${o.flag} is written "${here}" under \`${section}:\``;
    return `"${key}" is not an option of droidcheck ${section}${jobs.length > 0 ? `: put it under ${sectionsOf(o)}` : ''}`;
  }
  return undefined;
}

/** A key no option has: the closest key of the file, and where it belongs when that is elsewhere. */
function unknownKey(key: string, section: Section | undefined): string {
  const here: string[] = section === undefined ? [...fileKeys(), ...SECTIONS, JUDGE] : fileKeys(section);
  // The keys allowed here come first: on a tie, the guess that fits where the key stands.
  const guess = didYouMean(key, [...here, ...ALL_FILE_KEYS]);
  const where = section === undefined ? '' : ` under \`${section}:\``;
  if (guess === undefined)
    return `unknown key "${key}"${where}: no option has this name (docs/options.md lists the config-file keys)`;
  const elsewhere = here.includes(guess) ? '' : ` under ${sectionsOf(optionOf(guess)!)}`;
  return `unknown key "${key}" — did you mean "${guess}"${elsewhere}?`;
}

/** A secret's key: where the value belongs instead. */
function secretKey(key: string, section: string | undefined): string {
  const label = section === undefined ? key : `${section}.${key}`;
  const instead =
    section === JUDGE
      ? 'export OPENAI_API_KEY in the environment instead'
      : 'export DROID_API_TOKEN / DROID_WEBHOOK_SECRET in the environment (or .env) instead';
  return `"${label}" does not belong in a file: ${instead}`;
}

/** Every key of the top level and of the sections that is a secret, misplaced or unknown (the judge section: its secrets). */
export function keyIssues(data: unknown, source: YamlSource): FileIssue[] {
  if (!isMap(data)) return [];
  const issues: FileIssue[] = [];
  const check = (key: string, section: Section | undefined): void => {
    const message = SECRET_KEYS.has(key)
      ? secretKey(key, section)
      : section === undefined && (isSection(key) || key === JUDGE)
        ? undefined
        : optionOf(key)
          ? misplaced(key, section)
          : unknownKey(key, section);
    if (message) issues.push({ location: source.locate(section ? [section, key] : [key], 'key'), message });
  };
  for (const key of Object.keys(data)) check(key, undefined);
  for (const section of SECTIONS) {
    const s = data[section];
    if (isMap(s)) for (const key of Object.keys(s)) check(key, section);
  }
  const judge = data[JUDGE];
  if (isMap(judge))
    for (const key of Object.keys(judge).filter((k) => SECRET_KEYS.has(k)))
      issues.push({ location: source.locate([JUDGE, key], 'key'), message: secretKey(key, JUDGE) });
  return issues;
}

/** The commands whose parser reads a key written at `section` (the top level: every command that reads it, `doctor` too). */
function readers(o: OptionSpec, section: Section | undefined): OptionCommand[] {
  if (section !== undefined) return [section];
  return [...SECTIONS, 'doctor' as const].filter((c) => o.commands.includes(c));
}

/** True unless `value` is an http(s) URL (as llm/config.ts reads `judge.baseUrl`). */
function notHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol !== 'http:' && url.protocol !== 'https:';
  } catch {
    return true;
  }
}

/** `key`'s value at `path` through the parser of each command that reads it; its first refusal. */
function valueIssue(key: OptionKey, raw: unknown, path: (string | number)[], section: Section | undefined): string[] {
  const o = OPTIONS[key] as OptionSpec;
  const shaped = optionShape(key, section).safeParse(raw);
  // A value of the wrong YAML type is the schema's problem (file.ts).
  if (!shaped.success || shaped.data === undefined) return [];
  const label = path.join('.');
  const parsers = new Set(readers(o, section).map((c) => specFor(key, c).parse));
  // A list's items one by one, so that a mistake points at its item.
  const items: unknown[] = Array.isArray(shaped.data) ? shaped.data.map((v: unknown) => [v]) : [shaped.data];
  return items.map((value) => {
    for (const parse of parsers) {
      try {
        parse(value as never, label);
      } catch (err) {
        if (!isDroidcheckError(err)) throw err;
        return err.message;
      }
    }
    return '';
  });
}

/** Every option value of the top level and of the sections through its parser, each mistake at its value (a list's: its item). */
export function valueIssues(data: unknown, source: YamlSource): FileIssue[] {
  if (!isMap(data)) return [];
  const issues: FileIssue[] = [];
  const check = (values: Record<string, unknown>, section: Section | undefined): void => {
    for (const [key, raw] of Object.entries(values)) {
      if (!optionOf(key) || SECRET_KEYS.has(key) || misplaced(key, section) !== undefined) continue;
      const path = section ? [section, key] : [key];
      valueIssue(key as OptionKey, raw, path, section).forEach((message, i) => {
        if (message !== '') issues.push({ location: source.locate(Array.isArray(raw) ? [...path, i] : path), message });
      });
    }
  };
  check(data, undefined);
  for (const section of SECTIONS) if (isMap(data[section])) check(data[section], section);
  const judge = data[JUDGE];
  if (isMap(judge) && typeof judge.baseUrl === 'string' && notHttpUrl(judge.baseUrl))
    issues.push({
      location: source.locate([JUDGE, 'baseUrl']),
      message: `judge.baseUrl: "${judge.baseUrl}" is not an http(s) URL; write e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1`,
    });
  return issues;
}
