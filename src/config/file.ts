/**
 * The config file, `droidcheck.config.yaml` (or `--config FILE`): the options a project wants by
 * default. Its schema is derived from the table of options (options.ts):
 *
 * - top-level keys: the options of every job command (run, load and capacity), e.g. `timeout`,
 *   `thresholds`, `baseUrl`;
 * - `run:`, `load:`, `capacity:`, `redteam:` sections: the options of that command (its own, like `rate` or
 *   `concurrency`, and shared ones to override the top level for that command only);
 * - `judge:`: the LLM grader's settings (docs/llm.md).
 *
 * `concurrency` sits in the `run:` / `load:` sections, never at the top: in `load` it chooses
 * the closed model, which `--rate` or `--stages` on the command line replace (flags beat the
 * file), as k6's executor or Artillery's phases are per scenario, not global.
 * Every value goes through the same parser as its flag; every problem is reported at
 * file:line:col (ScenarioError, DROIDCHECK_ERR_SCENARIO, exit 2). Tokens and secrets are never
 * read from it: they come from the environment only.
 * Precedence: flags > environment > `.env` > config file > defaults.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ScenarioError, UsageError, type FileIssue } from '../errors.js';
import { readYaml, type YamlSource } from '../scenario/yaml-source.js';
import { issuesFromZod } from '../scenario/zod-issues.js';
import { judgeConfigSchema } from '../llm/config.js';
import type { JobFlags } from './flags.js';
import {
  isSharedKey,
  JOB_COMMANDS,
  OPTIONS,
  specFor,
  type OptionCommand,
  type OptionKey,
  type OptionSpec,
} from './options.js';
import { rememberOrigin } from './values.js';

export const DEFAULT_CONFIG_FILE = 'droidcheck.config.yaml';

const SECRET_KEYS = [
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
];
/** The sections of the file: one per job command, and `redteam:` (its attacks, and overrides of the top-level keys). */
const SECTIONS = [...JOB_COMMANDS, 'redteam'] as const;
type Section = (typeof SECTIONS)[number];

const fileKeys = (command?: Section): OptionKey[] =>
  (Object.keys(OPTIONS) as OptionKey[]).filter((k) => {
    const o = OPTIONS[k] as OptionSpec;
    return o.file !== false && (command === undefined ? isSharedKey(k) : o.commands.includes(command));
  });

/** The YAML shape of an option (its parser checks the value itself). */
function shapeOf(key: OptionKey, command: Section | undefined): z.ZodType {
  const spec = specFor(key, command ?? 'run');
  const shape =
    spec.kind === 'list'
      ? z.array(z.union([z.string(), z.number()]).transform(String))
      : spec.kind === 'value'
        ? z.union([z.string(), z.number()])
        : z.boolean();
  return shape.optional().describe(spec.help);
}

const objectOf = (command: Section | undefined) =>
  Object.fromEntries(fileKeys(command).map((k) => [k, shapeOf(k, command)]));

/** What a config file may hold (derived from the table; `droidcheck schema` may print it). */
export const userConfigSchema = z.strictObject({
  ...objectOf(undefined),
  run: z.strictObject(objectOf('run')).optional().describe('options of `droidcheck run` only'),
  load: z.strictObject(objectOf('load')).optional().describe('options of `droidcheck load` only'),
  capacity: z.strictObject(objectOf('capacity')).optional().describe('options of `droidcheck capacity` only'),
  redteam: z
    .strictObject(objectOf('redteam'))
    .optional()
    .describe('options of `droidcheck redteam` only (products, canaries, attempts...)'),
  judge: judgeConfigSchema.optional().describe('LLM judge and embeddings settings (docs/llm.md)'),
});
export type UserConfig = Record<string, unknown> & {
  run?: Record<string, unknown>;
  load?: Record<string, unknown>;
  capacity?: Record<string, unknown>;
  redteam?: Record<string, unknown>;
  judge?: unknown;
};

const sources = new WeakMap<object, YamlSource>();

const commandList = (cs: readonly string[]): string => cs.map((c) => `\`${c}:\``).join(' or ');

/** A table key written where it does not belong: at the top (not every command's) or in another command's section. */
function misplaced(data: Record<string, unknown>, source: YamlSource): FileIssue[] {
  const issues: FileIssue[] = [];
  const check = (key: string, section: Section | undefined): void => {
    if (!Object.hasOwn(OPTIONS, key)) return;
    const o = OPTIONS[key as OptionKey] as OptionSpec;
    const location = source.locate(section ? [section, key] : [key], 'key');
    const jobs = SECTIONS.filter((c) => o.commands.includes(c));
    if (o.file === false)
      issues.push({
        location,
        message: `"${key}" is not a config-file key: give ${o.flag ?? key} on the command line`,
      });
    else if (section === undefined && !isSharedKey(key as OptionKey))
      issues.push({
        location,
        message: `"${key}" is an option of ${jobs.map((c) => `droidcheck ${c}`).join(' and ')}, not of every command: put it under ${commandList(jobs)}`,
      });
    else if (section !== undefined && !o.commands.includes(section))
      issues.push({
        location,
        message: `"${key}" is not an option of droidcheck ${section}${jobs.length > 0 ? `: put it under ${commandList(jobs)}` : ''}`,
      });
  };
  for (const key of Object.keys(data)) check(key, undefined);
  for (const section of SECTIONS) {
    const s = data[section];
    if (s !== null && typeof s === 'object' && !Array.isArray(s)) for (const key of Object.keys(s)) check(key, section);
  }
  return issues;
}

/** Every value through its option's parser, each mistake at its file:line:col. */
function badValues(data: UserConfig, source: YamlSource): FileIssue[] {
  const issues: FileIssue[] = [];
  const check = (values: Record<string, unknown>, section: Section | undefined): void => {
    for (const [key, raw] of Object.entries(values)) {
      if (!Object.hasOwn(OPTIONS, key) || raw === undefined) continue;
      const label = section ? `${section}.${key}` : key;
      const path = section ? [section, key] : [key];
      // A list's items one by one, so that a mistake points at its item.
      const items: [unknown, (string | number)[]][] = Array.isArray(raw)
        ? raw.map((v, i) => [[v], [...path, i]])
        : [[raw, path]];
      for (const [value, at] of items) {
        try {
          specFor(key as OptionKey, section ?? 'run').parse(value as never, label);
        } catch (err) {
          issues.push({ location: source.locate(at), message: (err as Error).message });
        }
      }
    }
  };
  check(data, undefined);
  for (const section of SECTIONS) if (data[section]) check(data[section], section);
  return issues;
}

/**
 * Parses config text. Throws ScenarioError (DROIDCHECK_ERR_SCENARIO, exit 2) naming
 * file:line:col for every problem: a key in the wrong place, a value its option's parser refuses
 * (the same message as the flag's), a token or secret written into the file.
 */
export function parseConfigFile(text: string, file: string): UserConfig {
  const { source, issues } = readYaml(text, file);
  if (!source) throw new ScenarioError(issues);
  const data = source.data ?? {};
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const secrets = Object.keys(data).filter((k) => SECRET_KEYS.includes(k));
    if (secrets.length > 0) {
      throw new ScenarioError(
        secrets.map((k) => ({
          location: source.locate([k], 'key'),
          message: `"${k}" does not belong in a file: export DROID_API_TOKEN / DROID_WEBHOOK_SECRET in the environment instead`,
        })),
      );
    }
    const wrongPlace = misplaced(data as Record<string, unknown>, source);
    if (wrongPlace.length > 0) throw new ScenarioError(wrongPlace);
  }
  const parsed = userConfigSchema.safeParse(data);
  if (!parsed.success) throw new ScenarioError(issuesFromZod(parsed.error.issues, source, userConfigSchema));
  const config = parsed.data as UserConfig;
  const bad = badValues(config, source);
  if (bad.length > 0) throw new ScenarioError(bad);
  sources.set(config, source);
  return config;
}

/**
 * The flags the file gives `command`: the top-level keys, with the command's section over them
 * (`doctor` reads the top-level keys it shares). Values stay as written (resolve.ts parses them
 * like flags); when `file` came from parseConfigFile, each remembers its file:line:col.
 */
export function fileFlags(file: UserConfig, command: OptionCommand): JobFlags {
  const { run: _run, load: _load, capacity: _capacity, redteam: _redteam, ...common } = file;
  const section = command === 'doctor' ? undefined : (file[command] as Record<string, unknown> | undefined);
  const flags = { ...common, ...(section ?? {}) } as JobFlags;
  const source = sources.get(file);
  if (!source) return flags;
  return rememberOrigin(flags, {
    at: (key) => {
      const inSection = section !== undefined && Object.hasOwn(section, key);
      if (!inSection && !Object.hasOwn(common, key)) return undefined;
      const path = inSection ? [command, key] : [key];
      return { label: path.join('.'), location: source.locate(path) };
    },
  });
}

/**
 * Reads the config file at `path`. With `required: false` (the default file), a missing file is
 * `{}`; a named file that is missing is a UsageError (exit 2).
 */
export async function loadConfigFile(path: string, required: boolean): Promise<UserConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return parseConfigFile(text, path);
}
