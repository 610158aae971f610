/**
 * Configuration of the LLM grader (docs/llm.md): any OpenAI-compatible endpoint (OpenAI,
 * Azure OpenAI's v1 API, Ollama, vLLM, LM Studio). Precedence as everywhere (docs/architecture.md,
 * Conventions): flags > environment > config file (`judge:` section) > defaults.
 *
 * - endpoint: `OPENAI_BASE_URL` (or `judge.baseUrl` in the file); with only `OPENAI_API_KEY`
 *   set, OpenAI's own `https://api.openai.com/v1`;
 * - key: `OPENAI_API_KEY`, from the environment only (a key in the file is refused);
 * - models: `--judge-model` / `--embedding-model`, else `judge.model` / `judge.embeddingModel`,
 *   else the one chat (embedding) model the endpoint serves (discover.ts);
 * - bounds: `concurrency` (4), `timeout` (60s per call), `retries` (2, on 429/5xx/network, with
 *   backoff), `margin` (0.1: a verdict this close to the threshold is asked three times);
 * - cache: `.droidcheck/cache` (`judge.cacheDir`), off with `--no-cache`.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { SourceLocation } from '../errors.js';
import { formatLocation } from '../errors.js';
import { durationMs, durationProblem } from '../units.js';

const DEFAULT_CACHE_DIR = '.droidcheck/cache';
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const LLM_DEFAULTS = { concurrency: 4, timeoutMs: 60_000, retries: 2, margin: 0.1 } as const;

/** Keys that would hold a secret: refused in the file, whatever their value. */
const SECRET_KEYS = ['apiKey', 'api_key', 'key', 'token', 'OPENAI_API_KEY'];

/** The `judge:` section of droidcheck.config.yaml. */
export const judgeConfigSchema = z.strictObject({
  model: z
    .string()
    .min(1, 'model must not be empty')
    .optional()
    .describe('chat model that grades `judge` rubrics, e.g. gpt-4o-mini or llama3.1:8b'),
  simulatorModel: z
    .string()
    .min(1, 'simulatorModel must not be empty')
    .optional()
    .describe('chat model that plays the customer of `simulate:` scenarios (default: model)'),
  embeddingModel: z
    .string()
    .min(1, 'embeddingModel must not be empty')
    .optional()
    .describe('embedding model of `similar`, e.g. text-embedding-3-small or nomic-embed-text'),
  baseUrl: z
    .string()
    .min(1)
    .optional()
    .describe('OpenAI-compatible endpoint (env OPENAI_BASE_URL wins), e.g. http://127.0.0.1:11434/v1'),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe('judge and embedding calls in flight at once (default 4)'),
  timeout: z
    .string()
    .refine((s) => durationProblem(s) === undefined, { error: 'timeout is a duration with a unit, e.g. 60s or 500ms' })
    .optional()
    .describe('deadline of one call, e.g. 60s (default)'),
  retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe('retries of a call on 429, 5xx, timeout or no verdict (default 2)'),
  margin: z
    .number()
    .min(0)
    .max(0.5)
    .optional()
    .describe(
      'a verdict within this distance of the threshold is asked three times; the majority decides (default 0.1)',
    ),
  cacheDir: z
    .string()
    .min(1)
    .optional()
    .describe('where verdicts and embeddings are cached (default .droidcheck/cache)'),
});
type JudgeConfigSection = z.infer<typeof judgeConfigSchema>;

/** The flags of the commands that grade (`run`, `load`): `--judge-model`, `--embedding-model`, `--no-cache`. */
export interface LlmFlags {
  judgeModel?: string;
  /** `--simulator-model`: plays the customer of `simulate:` scenarios (default: the judge model). */
  simulatorModel?: string;
  embeddingModel?: string;
  /** `false` from `--no-cache`: neither read nor write the cache. */
  cache?: boolean;
}

/**
 * What a grader runs with. `apiKey` is a secret: never put this object in a report or a log
 * (use `llmSettings` for that).
 */
export interface ResolvedLlmConfig {
  /** OpenAI-compatible base URL, ending before `/chat/completions`, without credentials. */
  baseUrl: string;
  apiKey: string | undefined;
  judgeModel: string | undefined;
  /** The model of simulated customers: `--simulator-model`, `judge.simulatorModel`, else the judge model. */
  simulatorModel: string | undefined;
  embeddingModel: string | undefined;
  concurrency: number;
  /** Deadline of one HTTP attempt, ms. */
  timeoutMs: number;
  retries: number;
  margin: number;
  /** Absolute cache directory; undefined with `--no-cache`. */
  cacheDir: string | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseSection(fileSection: unknown): JudgeConfigSection {
  if (fileSection === undefined || fileSection === null) return {};
  if (isRecord(fileSection)) {
    const secret = Object.keys(fileSection).find((k) => SECRET_KEYS.includes(k));
    if (secret)
      throw new ConfigError(
        `judge.${secret} does not belong in a file: export OPENAI_API_KEY in the environment instead`,
      );
  }
  const parsed = judgeConfigSchema.safeParse(fileSection);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `judge${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`);
  throw new ConfigError(`config file, judge section: ${lines.join('; ')}`);
}

/** `http://user:pass@host/v1/` -> `http://host/v1` (credentials in a URL are dropped, never shown). */
function cleanBaseUrl(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `${from}: "${raw}" is not a URL; write e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${from}: use an http(s) URL, not ${url.protocol}`);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}

/**
 * Resolves the grader's configuration.
 * @param flags `--judge-model`, `--embedding-model`, `--no-cache` (cache: false).
 * @param env reads `OPENAI_BASE_URL`, `OPENAI_API_KEY`.
 * @param fileSection the raw `judge:` value of the config file (validated here with
 *   `judgeConfigSchema`; undefined when absent).
 * @param cwd base of a relative cache directory (default `process.cwd()`).
 * @returns undefined when no model is configured anywhere and no endpoint is named
 *   (`OPENAI_BASE_URL`, `judge.baseUrl`): then the suites must not use `judge`/`similar` (see
 *   `assertGraderConfig`). With an endpoint and no model, a configuration whose models are
 *   undefined: `discoverModels` (discover.ts) asks the endpoint for them.
 * @throws ConfigError (DROIDCHECK_ERR_CONFIG, exit 2): a malformed section, a key in the file,
 *   a bad URL, or a model without any endpoint (no base URL and no key).
 */
export function resolveLlmConfig(
  flags: LlmFlags,
  env: NodeJS.ProcessEnv,
  fileSection: unknown,
  cwd = process.cwd(),
): ResolvedLlmConfig | undefined {
  const file = parseSection(fileSection);
  const judgeModel = flags.judgeModel ?? file.model;
  const embeddingModel = flags.embeddingModel ?? file.embeddingModel;
  const simulatorModel = flags.simulatorModel ?? file.simulatorModel ?? judgeModel;
  const apiKey = env.OPENAI_API_KEY !== undefined && env.OPENAI_API_KEY !== '' ? env.OPENAI_API_KEY : undefined;
  const envUrl = env.OPENAI_BASE_URL !== undefined && env.OPENAI_BASE_URL !== '' ? env.OPENAI_BASE_URL : undefined;
  if (
    judgeModel === undefined &&
    embeddingModel === undefined &&
    simulatorModel === undefined &&
    envUrl === undefined &&
    file.baseUrl === undefined
  )
    return undefined;
  let baseUrl: string;
  if (envUrl !== undefined) baseUrl = cleanBaseUrl(envUrl, 'OPENAI_BASE_URL');
  else if (file.baseUrl !== undefined) baseUrl = cleanBaseUrl(file.baseUrl, 'judge.baseUrl');
  else if (apiKey !== undefined) baseUrl = OPENAI_BASE_URL;
  else {
    throw new ConfigError(
      `${judgeModel !== undefined ? `a judge model (${flags.judgeModel !== undefined ? '--judge-model' : 'judge.model in the config file'})` : simulatorModel !== undefined ? `a simulator model (${flags.simulatorModel !== undefined ? '--simulator-model' : 'judge.simulatorModel in the config file'})` : `an embedding model (${flags.embeddingModel !== undefined ? '--embedding-model' : 'judge.embeddingModel in the config file'})`} is configured but no endpoint: set OPENAI_BASE_URL ` +
        '(e.g. http://127.0.0.1:11434/v1 for a local Ollama) or OPENAI_API_KEY (for OpenAI itself)',
    );
  }
  const timeoutMs = file.timeout !== undefined ? durationMs(file.timeout)! : LLM_DEFAULTS.timeoutMs;
  return {
    baseUrl,
    apiKey,
    judgeModel,
    simulatorModel,
    embeddingModel,
    concurrency: file.concurrency ?? LLM_DEFAULTS.concurrency,
    timeoutMs,
    retries: file.retries ?? LLM_DEFAULTS.retries,
    margin: file.margin ?? LLM_DEFAULTS.margin,
    cacheDir: flags.cache === false ? undefined : resolve(cwd, file.cacheDir ?? DEFAULT_CACHE_DIR),
  };
}

/** Where a suite uses an LLM-graded matcher (from `needsGrader(suites)` of src/scenario). */
export interface GraderUse {
  matcher: string;
  location: SourceLocation;
}

/**
 * Fails before anything is sent when a suite uses `judge` or `similar` and the grader it needs
 * is not configured. Throws ConfigError (exit 2) naming file:line:col of the first such use.
 */
export function assertGraderConfig(uses: readonly GraderUse[], config: ResolvedLlmConfig | undefined): void {
  const judge = uses.find((u) => u.matcher === 'judge');
  const similar = uses.find((u) => u.matcher === 'similar');
  const endpoint =
    'and point OPENAI_BASE_URL at an OpenAI-compatible endpoint (or set OPENAI_API_KEY for OpenAI); see docs/llm.md';
  if (judge && config?.judgeModel === undefined) {
    throw new ConfigError(
      `${formatLocation(judge.location)}: "judge" needs a chat model: pass --judge-model (or judge.model in droidcheck.config.yaml) ${endpoint}`,
    );
  }
  if (similar && config?.embeddingModel === undefined) {
    throw new ConfigError(
      `${formatLocation(similar.location)}: "similar" needs an embedding model: pass --embedding-model (or judge.embeddingModel in droidcheck.config.yaml) ${endpoint}`,
    );
  }
}

/**
 * Fails before anything is sent when a suite has `simulate:` scenarios (`needsSimulator(suites)`
 * of src/scenario) and no model plays the customer. Throws ConfigError (exit 2) naming
 * file:line:col of the first one.
 */
export function assertSimulatorConfig(
  uses: readonly { location: SourceLocation }[],
  config: ResolvedLlmConfig | undefined,
): void {
  const first = uses[0];
  if (first && config?.simulatorModel === undefined) {
    throw new ConfigError(
      `${formatLocation(first.location)}: "simulate" needs a chat model to play the customer: pass --simulator-model or --judge-model (or judge.simulatorModel / judge.model in droidcheck.config.yaml) and point OPENAI_BASE_URL at an OpenAI-compatible endpoint (or set OPENAI_API_KEY for OpenAI); see docs/llm.md`,
    );
  }
}

/** The configuration as a report may show it: no key (only whether one is set). */
export function llmSettings(config: ResolvedLlmConfig): Record<string, unknown> {
  const { apiKey, ...rest } = config;
  return { ...rest, apiKey: apiKey === undefined ? 'unset' : 'set' };
}
