/**
 * The config file, `droidcheck.config.yaml` (or `--config FILE`): the run flags a project wants
 * by default. Precedence (DESIGN.md, Conventions): flags > environment > config file > defaults.
 * Tokens and secrets are never read from it: they come from the environment only.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { RunFlags } from './config.js';
import { ScenarioError, UsageError } from './errors.js';
import { readYaml } from './scenario/yaml-source.js';
import { issuesFromZod } from './scenario/zod-issues.js';

export const DEFAULT_CONFIG_FILE = 'droidcheck.config.yaml';

const SECRET_KEYS = ['token', 'apiToken', 'secret', 'webhookSecret', 'DROID_API_TOKEN', 'DROID_WEBHOOK_SECRET'];

/** What a config file may hold: the `run` flags, named as in `RunFlags`. */
export const userConfigSchema = z.strictObject({
  paths: z.array(z.string().min(1)).min(1).optional(),
  concurrency: z.number().int().min(1).optional(),
  mode: z.enum(['sync', 'async', 'both']).optional(),
  reportDir: z.string().min(1).optional(),
  timeout: z.union([z.string(), z.number().positive()]).optional(),
  grace: z.union([z.string(), z.number().nonnegative()]).optional(),
  baseUrl: z.string().min(1).optional(),
  droidId: z.union([z.string().min(1), z.number().int()]).optional(),
  receiverHost: z.string().min(1).optional(),
  receiverPort: z.number().int().min(0).max(65_535).optional(),
  publicUrl: z.string().min(1).optional(),
  thresholds: z.array(z.string()).optional(),
  reporters: z.array(z.string()).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  tags: z.array(z.string()).optional(),
  grep: z.string().optional(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;

/**
 * Parses config text. Throws ScenarioError (DROIDCHECK_ERR_SCENARIO, exit 2) naming
 * file:line:col for every problem, including a token or secret written into the file.
 */
export function parseConfigFile(text: string, file: string): RunFlags {
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
  }
  const parsed = userConfigSchema.safeParse(data);
  if (!parsed.success) throw new ScenarioError(issuesFromZod(parsed.error.issues, source, userConfigSchema));
  return parsed.data as RunFlags;
}

/**
 * Reads the config file at `path`. With `required: false` (the default file), a missing file is
 * `{}`; a named file that is missing is a UsageError (exit 2).
 */
export async function loadConfigFile(path: string, required: boolean): Promise<RunFlags> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return parseConfigFile(text, path);
}
