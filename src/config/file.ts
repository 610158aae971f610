/**
 * The config file, `droidcheck.config.yaml` (or `--config FILE`): the flags a project wants by
 * default, for every command: shared keys at the top, `load:` and `capacity:` sections.
 * Precedence (docs/architecture.md, Conventions): flags > environment > `.env` > config file >
 * defaults. Tokens and secrets are never read from it: they come from the environment only. Every
 * problem is reported as file:line:col (ScenarioError, exit 2).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ScenarioError, UsageError } from '../errors.js';
import { readYaml } from '../scenario/yaml-source.js';
import { issuesFromZod } from '../scenario/zod-issues.js';
import { judgeConfigSchema } from '../llm/config.js';
import type { JobFlags, JobKind } from './flags.js';

export const DEFAULT_CONFIG_FILE = 'droidcheck.config.yaml';

const SECRET_KEYS = ['token', 'apiToken', 'secret', 'webhookSecret', 'verifyToken', 'DROID_API_TOKEN', 'DROID_WEBHOOK_SECRET', 'DROID_VERIFY_TOKEN', 'OPENAI_API_KEY', 'apiKey'];

const duration = z.union([z.string(), z.literal(0)]);
const weights = z.array(z.string()).optional();

/** `load:` section: the `droidcheck load` flags. */
export const loadSectionSchema = z.strictObject({
  rate: z.number().positive().optional(),
  duration: duration.optional(),
  stages: z.string().optional(),
  startRate: z.number().nonnegative().optional(),
  warmup: duration.optional(),
  maxInFlight: z.number().int().positive().optional(),
  maxRequests: z.number().int().positive().optional(),
  weights,
  seed: z.number().int().optional(),
  ackOnly: z.boolean().optional(),
  progress: duration.optional(),
});

/** `capacity:` section: the `droidcheck capacity` flags. */
export const capacitySectionSchema = z.strictObject({
  strategy: z.enum(['step', 'bisect']).optional(),
  startRate: z.number().positive().optional(),
  step: z.number().positive().optional(),
  maxRate: z.number().positive().optional(),
  precision: z.number().positive().optional(),
  maxSteps: z.number().int().positive().optional(),
  stepDuration: duration.optional(),
  warmup: duration.optional(),
  ackP99: duration.optional(),
  answerP99: duration.optional(),
  maxErrorRate: z.union([z.number().min(0).max(1), z.string()]).optional(),
  maxInFlight: z.number().int().positive().optional(),
  weights,
  seed: z.number().int().optional(),
  ackOnly: z.boolean().optional(),
});

/** What a config file may hold: the shared flags, named as in `CommonFlags`, and the sections. */
export const userConfigSchema = z.strictObject({
  paths: z.array(z.string().min(1)).min(1).optional(),
  concurrency: z.number().int().min(1).optional(),
  mode: z.enum(['sync', 'async', 'both']).optional(),
  reportDir: z.string().min(1).optional(),
  timeout: duration.optional(),
  grace: duration.optional(),
  baseUrl: z.string().min(1).optional(),
  droidId: z.union([z.string().min(1), z.number().int()]).optional(),
  receiverHost: z.string().min(1).optional(),
  receiverPort: z.number().int().min(0).max(65_535).optional(),
  publicUrl: z.string().min(1).optional(),
  thresholds: z.array(z.string()).optional(),
  reporters: z.array(z.string()).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  tags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  syncMessage: z.enum(['auto', 'object', 'string']).optional(),
  grep: z.string().optional(),
  warmUp: z.boolean().optional(),
  defaultThresholds: z.boolean().optional(),
  failOnFlaky: z.boolean().optional(),
  load: loadSectionSchema.optional(),
  capacity: capacitySectionSchema.optional(),
  judge: judgeConfigSchema.optional().describe('LLM judge and embeddings settings (docs/llm.md)'),
});
export type UserConfig = z.infer<typeof userConfigSchema>;

/**
 * Parses config text. Throws ScenarioError (DROIDCHECK_ERR_SCENARIO, exit 2) naming
 * file:line:col for every problem, including a token or secret written into the file.
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
  }
  const parsed = userConfigSchema.safeParse(data);
  if (!parsed.success) throw new ScenarioError(issuesFromZod(parsed.error.issues, source, userConfigSchema));
  return parsed.data;
}

/**
 * The flags the file gives `command`: the shared keys, with the command's section over them.
 * Durations and numbers stay as written (resolve.ts parses them like flags).
 */
export function fileFlags(file: UserConfig, command: JobKind): JobFlags {
  const { load, capacity, ...common } = file;
  const section = command === 'load' ? load : command === 'capacity' ? capacity : undefined;
  return { ...common, ...(section ?? {}) } as JobFlags;
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
