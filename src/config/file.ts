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
 * Every value goes through the same parser as its flag; every problem of the file is reported at
 * once, each at file:line:col (ConfigFileError, DROIDCHECK_ERR_CONFIG_FILE, exit 2), as a suite's
 * are: a fix-and-rerun loop per mistake is what the list saves. Tokens and secrets are never read
 * from it: they come from the environment only.
 * Precedence: flags > environment > `.env` > config file > defaults.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigFileError, UsageError, type FileIssue } from '../errors.js';
import { judgeConfigSchema } from '../llm/config.js';
import { readYaml, type YamlSource } from '../scenario/yaml-source.js';
import { issuesFromZod } from '../scenario/zod-issues.js';
import { fileKeys, isSection, keyIssues, optionShape, valueIssues, type Section } from './file-issues.js';
import type { JobFlags } from './flags.js';
import type { OptionCommand } from './options.js';
import { rememberOrigin } from './values.js';

export const DEFAULT_CONFIG_FILE = 'droidcheck.config.yaml';

const objectOf = (section: Section | undefined) =>
  Object.fromEntries(fileKeys(section).map((k) => [k, optionShape(k, section)]));

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

const at = (i: FileIssue): string => `${i.location.line}:${i.location.col}`;

/**
 * Parses config text. Throws ConfigFileError (DROIDCHECK_ERR_CONFIG_FILE, exit 2) listing every
 * problem, each at file:line:col, top to bottom: a YAML syntax error (alone: nothing else can be
 * read then), a secret written into the file, a key in the wrong place or misspelt (with where it
 * belongs, or a did-you-mean), a value of the wrong type, a value its option's parser refuses
 * (the same message as the flag's).
 */
export function parseConfigFile(text: string, file: string): UserConfig {
  const { source, issues } = readYaml(text, file);
  if (!source) throw new ConfigFileError(issues);
  const data = source.data ?? {};
  const keys = keyIssues(data, source);
  const parsed = userConfigSchema.safeParse(data);
  // A key the schema does not know is already one of `keys`, at the same position, in better words.
  const said = new Set(keys.map(at));
  const types = parsed.success ? [] : issuesFromZod(parsed.error.issues, source, userConfigSchema);
  const problems = [...keys, ...types.filter((i) => !said.has(at(i))), ...valueIssues(data, source)];
  if (problems.length > 0 || !parsed.success)
    throw new ConfigFileError(
      (problems.length > 0 ? problems : types).sort(
        (a, b) => a.location.line - b.location.line || a.location.col - b.location.col,
      ),
    );
  const config = parsed.data as UserConfig;
  sources.set(config, source);
  return config;
}

/**
 * The flags the file gives `command`: the top-level keys, with the command's section over them
 * (a command without a section, `doctor`, reads the top-level keys it shares). Values stay as written (resolve.ts parses them
 * like flags); when `file` came from parseConfigFile, each remembers its file:line:col.
 */
export function fileFlags(file: UserConfig, command: OptionCommand): JobFlags {
  const common = Object.fromEntries(Object.entries(file).filter(([key]) => !isSection(key)));
  const section = isSection(command) ? (file[command] as Record<string, unknown> | undefined) : undefined;
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
